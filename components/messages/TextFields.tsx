'use client';

import { useId } from 'react';
import { limits, staffTextFields, type StaffTextError, type StaffTextField } from '@/domain/messages/staff-text';
import { fieldLabels, languageDir } from './text-labels';
import type { TextEditorState } from './useTextEditor';

const hints: Record<StaffTextField, string> = {
  subject: 'One line.',
  body: 'Blank line between paragraphs; **bold**, *italic*, [link text](https://…) and lines starting with “- ” for a list. No HTML, no images. The greeting, the When / Where rows and the footer are added around it.',
  sms: 'Plain text. Your preferences link is added at the end, as in every SMS.',
};

/** "Line 3, column 1" of an error. */
function where(e: StaffTextError): string {
  return e.column ? `Line ${e.line}, column ${e.column}` : `Line ${e.line}`;
}

/** The error's sentence without its "Body, line 3:" (shown before it) and, when listed below it, the known variables. */
function sentence(e: StaffTextError): string {
  const s = e.message.replace(/^[^:]+, line \d+(, column \d+)?: /, '');
  return e.known ? s.replace(/ This message can use: .*$/, '') : s;
}

/** The check's errors of one field, beside it: where, the sentence, and for an unknown variable the known ones. */
function FieldErrors({ id, errors }: { id: string; errors: StaffTextError[] }) {
  if (errors.length === 0) return null;
  return (
    <ul className="field-errors" id={id} data-testid="field-errors">
      {errors.map((e, i) => (
        <li key={i} data-code={e.code} data-variable={e.variable} data-line={e.line}>
          <strong>{where(e)}:</strong> {sentence(e)}
          {e.known ? (
            <span className="field-errors-known">
              {' '}
              Known variables: {e.known.map((k) => `{${k}}`).join(', ')}.
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * The three fields of a text — subject, body (the Markdown subset, said in its hint), SMS text — each with its hint,
 * its length against the limit and the check's errors for it (aria-invalid, described by them). Read-only for a role
 * that cannot change texts. The field last typed or clicked in is the editor's `target` (variables are inserted there).
 */
export function TextFields({ editor, readOnly }: { editor: TextEditorState; readOnly: boolean }) {
  const id = useId();
  const dir = languageDir(editor.locale);
  return (
    <div className="text-fields">
      {staffTextFields.map((field) => {
        const errors = editor.errors.filter((e) => e.field === field);
        const errorId = `${id}-${field}-errors`;
        const hintId = `${id}-${field}-hint`;
        const common = {
          id: `${id}-${field}`,
          name: field,
          value: editor.fields[field],
          dir,
          readOnly,
          spellCheck: true,
          'aria-invalid': errors.length > 0 || undefined,
          'aria-describedby': errors.length > 0 ? `${errorId} ${hintId}` : hintId,
          ref: (el: HTMLInputElement | HTMLTextAreaElement | null) => {
            editor.refs.current[field] = el;
          },
          // Typing, a caret key or a click makes this the field variables go into; Tab only passes through.
          onKeyDown: (e: { key: string }) => {
            if (e.key !== 'Tab' && e.key !== 'Shift') editor.setTarget(field);
          },
          onMouseDown: () => editor.setTarget(field),
          onChange: (e: { target: { value: string } }) => {
            editor.setTarget(field);
            editor.setField(field, e.target.value);
          },
        };
        return (
          <div key={field} className="field text-field" data-field={field}>
            <label htmlFor={common.id}>{fieldLabels[field]}</label>
            {field === 'subject' ? <input type="text" {...common} /> : <textarea rows={field === 'body' ? 10 : 3} {...common} />}
            <span className="field-hint" id={hintId}>
              {hints[field]} {editor.fields[field].length}/{limits[field]} characters.
            </span>
            <FieldErrors id={errorId} errors={errors} />
          </div>
        );
      })}
    </div>
  );
}
