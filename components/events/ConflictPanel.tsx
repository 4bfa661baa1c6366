'use client';

import { useEffect, useId, useRef } from 'react';
import type { FieldChange } from '@/domain/platform/edit-conflict';
import { ApiError } from '@/components/ui/api';

/** A 409 "changed since you opened it" answer (server/platform/versions.ts): the message and the current record. */
interface StaleSave<T> {
  message: string;
  /** The record as stored now, in the form's own shape, with its row `version`. */
  current: T & { version: number };
}

/** The stale-save part of an API refusal, or null when `err` is anything else. */
export function staleSave<T>(err: unknown): StaleSave<T> | null {
  if (!(err instanceof ApiError) || err.status !== 409 || err.field !== 'version') return null;
  const current = err.details?.current as (T & { version: number }) | undefined;
  if (!current || typeof current.version !== 'number') return null;
  return { message: err.message, current };
}

/**
 * "Someone else changed this since you opened it": the server's message, one line per changed field (the
 * value you opened → the value stored now), and the way on. The person's own edits stay in the form below;
 * "Apply my changes to the latest version" (`onApply`) puts them on top of the latest record, which they
 * then save again. Focus moves to the panel when it appears, so a screen reader reads it at once.
 */
export function ConflictPanel({
  message,
  changes,
  onApply,
  onDiscard,
  blocked,
}: {
  message: string;
  changes: FieldChange[];
  onApply: () => void;
  onDiscard: () => void;
  /** When set, the record can no longer be edited (e.g. cancelled): this sentence replaces the apply button. */
  blocked?: string | null;
}) {
  const id = useId();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <section ref={ref} tabIndex={-1} className="conflict-panel" role="alert" aria-labelledby={`${id}-title`} data-testid="conflict-panel">
      <h2 id={`${id}-title`}>Changed by someone else</h2>
      <p>{message}</p>
      {changes.length > 0 ? (
        <>
          <p className="small muted">What changed (the value you opened → the value now):</p>
          <ul className="conflict-changes">
            {changes.map((c) => (
              <li key={c.field} data-field={c.field}>
                <span className="conflict-label">{c.label}:</span> <span className="conflict-from">{c.from}</span> → <span className="conflict-to">{c.to}</span>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="small muted">None of the fields in this form differ; only its version moved on.</p>
      )}
      {blocked ? (
        <p className="conflict-blocked">{blocked}</p>
      ) : (
        <>
          <p className="small">Nothing was saved. Your edits are still in the form below.</p>
          <div className="actions">
            <button type="button" className="btn btn-primary" onClick={onApply}>
              Apply my changes to the latest version
            </button>
            <button type="button" className="btn" onClick={onDiscard}>
              Discard my changes
            </button>
          </div>
        </>
      )}
    </section>
  );
}
