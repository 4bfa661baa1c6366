'use client';

import { useCallback, useRef, useState } from 'react';
import type { StaffDraft, StaffTextError, StaffTextField } from '@/domain/messages/staff-text';
import type { MessageTextView, TextVersionView } from '@/server/messages/message-texts';
import { ApiError, apiCall } from '@/components/ui/api';

/** The editor's state and actions, as TextEditor and its parts read them. */
export type TextEditorState = ReturnType<typeof useTextEditor>;

/** A 409 on a stale row version: the server's sentence (who changed it, when) and the text as stored now. */
export interface TextConflict {
  message: string;
  current: MessageTextView;
}

/** The words a view would put in the form: its draft, else its published version, else `fallback` (Punctual's). */
export function textOf(view: MessageTextView, fallback: StaffDraft): StaffDraft {
  if (view.draft) return { subject: view.draft.subject, body: view.draft.body, sms: view.draft.sms };
  if (view.published) return { subject: view.published.subject ?? '', body: view.published.body ?? '', sms: view.published.sms ?? '' };
  return fallback;
}

/** The check's errors of a 400 answer (server/messages/message-texts.ts: `errors`), else null. */
export function checkErrors(err: unknown): StaffTextError[] | null {
  if (!(err instanceof ApiError) || err.status !== 400) return null;
  const errors = err.details?.errors;
  return Array.isArray(errors) ? (errors as StaffTextError[]) : null;
}

/**
 * The state and requests of the text editor (components/messages/TextEditor.tsx) for one (kind, locale) at
 * /api/message-texts/:kind/:locale: the three fields, the row version they are based on, the check's errors (from a
 * save or from the preview; a save moves focus to the first error's field), the stale-save conflict (409 with the
 * text as stored now: reload it, or keep these words and save over it), and save draft, publish (saving first when
 * the fields differ from the stored draft), roll back, reset — each refreshing the history. The field last typed or
 * clicked in is the `target`: a variable clicked in the list is inserted at its caret (a keyboard user tabbing from
 * the body to the list past the SMS field still inserts into the body).
 */
export function useTextEditor(initial: { view: MessageTextView; history: TextVersionView[]; builtIn: StaffDraft }) {
  const { kind, locale } = initial.view;
  const url = `/api/message-texts/${kind}/${locale}`;
  const [view, setView] = useState(initial.view);
  const [history, setHistory] = useState(initial.history);
  const [fields, setFields] = useState<StaffDraft>(() => textOf(initial.view, initial.builtIn));
  const [errors, setErrors] = useState<StaffTextError[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [conflict, setConflict] = useState<TextConflict | null>(null);
  const [busy, setBusy] = useState(false);
  const refs = useRef<Partial<Record<StaffTextField, HTMLInputElement | HTMLTextAreaElement | null>>>({});
  /** Where a clicked variable goes: the field last typed or clicked in (tabbing through a field does not count). */
  const [target, setTarget] = useState<StaffTextField>('body');

  const stored = view.draft ? { subject: view.draft.subject, body: view.draft.body, sms: view.draft.sms } : null;
  const dirty = !stored || stored.subject !== fields.subject || stored.body !== fields.body || stored.sms !== fields.sms;

  const setField = useCallback((field: StaffTextField, value: string) => {
    setFields((f) => ({ ...f, [field]: value }));
    setNotice(null);
  }, []);

  /** Inserts `{name}` at the caret (or over the selection) of the last focused field, then puts the caret after it. */
  function insertVariable(name: string) {
    const field = target;
    const el = refs.current[field];
    const token = `{${name}}`;
    const value = fields[field];
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? start;
    setField(field, value.slice(0, start) + token + value.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  }

  async function refreshHistory() {
    const h = await apiCall<{ versions: TextVersionView[] }>(`${url}/history`, 'GET').catch(() => null);
    if (h) setHistory(h.versions);
  }

  /** Runs one request; a 400 of the check shows its errors (focusing the first), a 409 the conflict, the rest `failure`. */
  async function run(what: () => Promise<MessageTextView>, done: string, opts: { focusErrors?: boolean } = {}): Promise<MessageTextView | null> {
    setBusy(true);
    setFailure(null);
    setNotice(null);
    try {
      const v = await what();
      setView(v);
      setConflict(null);
      setErrors([]);
      setNotice(done);
      await refreshHistory();
      return v;
    } catch (err) {
      const found = checkErrors(err);
      if (found) {
        setErrors(found);
        if (opts.focusErrors !== false) refs.current[found[0].field]?.focus();
      } else if (err instanceof ApiError && err.status === 409 && err.details?.current) {
        setConflict({ message: err.message, current: err.details.current as MessageTextView });
      } else {
        setFailure(err instanceof Error ? err.message : String(err));
      }
      return null;
    } finally {
      setBusy(false);
    }
  }

  const saveDraft = () => run(() => apiCall<MessageTextView>(url, 'PUT', { ...fields, rowVersion: view.rowVersion }), 'Draft saved. Nobody gets it until you publish it.');

  async function publish() {
    let rowVersion = view.rowVersion;
    if (dirty) {
      const saved = await saveDraft();
      if (!saved) return;
      rowVersion = saved.rowVersion;
    }
    const v = await run(() => apiCall<MessageTextView>(`${url}/publish`, 'POST', { rowVersion }), 'Published. Messages not yet on their way use these words from now on.');
    if (v?.published) setNotice(`Published as version ${v.published.version}. Messages not yet on their way use these words from now on.`);
  }

  async function rollback(toVersion: number) {
    const v = await run(() => apiCall<MessageTextView>(`${url}/rollback`, 'POST', { toVersion, rowVersion: view.rowVersion }), `Version ${toVersion} is published again.`);
    if (v?.published) setNotice(`Version ${toVersion} is published again, as version ${v.published.version}.`);
  }

  /** Reset to Punctual's text; throws on a refusal, so the confirm dialog shows it. */
  async function reset() {
    const v = await apiCall<MessageTextView>(`${url}/reset`, 'POST', { rowVersion: view.rowVersion });
    setView(v);
    setConflict(null);
    setNotice('Punctual’s text is used again from now on. Your versions stay in the history.');
    if (!v.draft) setFields(initial.builtIn);
    await refreshHistory();
  }

  /** The conflict's "reload": the text as stored now, in the form. */
  function reloadLatest() {
    if (!conflict) return;
    setView(conflict.current);
    setFields(textOf(conflict.current, initial.builtIn));
    setConflict(null);
    setErrors([]);
    setNotice('The form now shows the latest text.');
    void refreshHistory();
  }

  /** The conflict's "keep mine": these words stay, based on the latest row version (the next save replaces theirs). */
  function keepMine() {
    if (!conflict) return;
    setView(conflict.current);
    setConflict(null);
    setNotice('Your words are still in the form; saving now replaces the latest draft.');
    void refreshHistory();
  }

  return {
    kind,
    locale,
    view,
    history,
    fields,
    errors,
    setErrors,
    failure,
    notice,
    conflict,
    busy,
    dirty,
    refs,
    target,
    setTarget,
    setField,
    insertVariable,
    saveDraft,
    publish,
    rollback,
    reset,
    reloadLatest,
    keepMine,
  };
}
