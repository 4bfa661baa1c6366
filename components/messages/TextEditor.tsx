'use client';

import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { StaffDraft } from '@/domain/messages/staff-text';
import type { MessageTextView, TextVersionView } from '@/server/messages/message-texts';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { FormFeedback } from '@/components/ui/FormFeedback';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { TextFields } from './TextFields';
import { TextHistory } from './TextHistory';
import { TextPreview, type ParticipantChoice } from './TextPreview';
import { fieldLabels } from './text-labels';
import { VariableList } from './VariableList';
import { useTextEditor, type TextConflict } from './useTextEditor';

/** A stale save (409): who changed the text and when, and the two ways on. Focused when it appears. */
function TextConflictPanel({ conflict, onReload, onKeep }: { conflict: TextConflict; onReload: () => void; onKeep: () => void }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <section ref={ref} tabIndex={-1} className="conflict-panel" role="alert" aria-labelledby="text-conflict-title" data-testid="conflict-panel">
      <h2 id="text-conflict-title">Changed by someone else</h2>
      <p>{conflict.message}</p>
      <p className="small">Nothing was saved. Your words are still in the form.</p>
      <div className="actions">
        <button type="button" className="btn btn-primary" onClick={onReload}>
          Reload the latest text
        </button>
        <button type="button" className="btn" onClick={onKeep}>
          Keep my words
        </button>
      </div>
    </section>
  );
}

/** What is sent now, and the draft waiting, in a line. */
function StateLine({ view, zone }: { view: MessageTextView; zone: string }) {
  return (
    <p className="text-state" data-testid="text-state">
      {view.published ? <strong>In use: your text, version {view.published.version}.</strong> : <strong>In use: Punctual’s text.</strong>}{' '}
      {view.draft ? (
        <span className="small">
          A draft saved by {view.draft.savedBy} <ZonedTime instant={view.draft.savedAt} zone={zone} /> waits to be published.
        </span>
      ) : null}
    </p>
  );
}

/**
 * The editor of one message kind in one language (app/(staff)/templates/[kind]/[locale]): the fields, the kind's
 * variables (click to insert), save draft / publish / reset for admins (read-only for other roles), the history with
 * roll back, and beside it the live preview. State and requests: ./useTextEditor.ts.
 */
export function TextEditor({
  view,
  history,
  builtIn,
  choices,
  canEdit,
  zone,
}: {
  view: MessageTextView;
  history: TextVersionView[];
  builtIn: StaffDraft;
  choices: ParticipantChoice[];
  canEdit: boolean;
  zone: string;
}) {
  const editor = useTextEditor({ view, history, builtIn });
  const [confirmReset, setConfirmReset] = useState(false);
  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void editor.saveDraft();
  }
  const url = `/api/message-texts/${editor.kind}/${editor.locale}`;
  return (
    <div className="text-editor">
      <div className="text-editor-main">
        <section className="card" aria-labelledby="text-words-title">
          <h2 id="text-words-title" className="section-title">
            Words
          </h2>
          <StateLine view={editor.view} zone={zone} />
          {!editor.view.draft && !editor.view.published ? <p className="small muted">The fields start from Punctual’s text.</p> : null}
          {canEdit ? null : <p className="notice notice-warn">Your role can read message texts; only an admin can change them.</p>}
          {editor.conflict ? <TextConflictPanel conflict={editor.conflict} onReload={editor.reloadLatest} onKeep={editor.keepMine} /> : null}
          <form onSubmit={onSubmit} noValidate aria-label="Message text">
            <TextFields editor={editor} readOnly={!canEdit} />
            {canEdit ? (
              <div className="actions text-actions">
                <button type="submit" className="btn" disabled={editor.busy}>
                  Save draft
                </button>
                <button type="button" className="btn btn-primary" disabled={editor.busy} onClick={() => void editor.publish()}>
                  Publish
                </button>
                {editor.view.published ? (
                  <button type="button" className="btn btn-ghost" disabled={editor.busy} onClick={() => setConfirmReset(true)}>
                    Reset to Punctual’s text
                  </button>
                ) : null}
              </div>
            ) : null}
            <FormFeedback error={editor.failure ? { message: editor.failure } : null} notice={editor.notice} />
          </form>
        </section>
        <VariableList variables={editor.view.variables} onInsert={editor.insertVariable} readOnly={!canEdit} targetLabel={fieldLabels[editor.target]} />
        <TextHistory versions={editor.history} current={editor.view.published?.version ?? null} zone={zone} canEdit={canEdit} busy={editor.busy} onRollback={(v) => void editor.rollback(v)} />
      </div>
      <div className="text-editor-preview">
        <TextPreview url={url} draft={editor.fields} choices={choices} onErrors={editor.setErrors} canSendTest={canEdit} />
      </div>
      <ConfirmDialog open={confirmReset} title="Reset to Punctual’s text?" confirmLabel="Reset to Punctual’s text" tone="danger" onConfirm={editor.reset} onClose={() => setConfirmReset(false)}>
        <p>
          From now on, messages of this kind in this language use Punctual’s text again. Your versions stay in the history, and you can roll back to any of them.
        </p>
      </ConfirmDialog>
    </div>
  );
}
