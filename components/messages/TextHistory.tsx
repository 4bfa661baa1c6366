'use client';

import { changedFields, lineDiff, type VersionText } from '@/domain/messages/text-diff';
import type { TextVersionView } from '@/server/messages/message-texts';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { fieldLabels } from './text-labels';

const textOf = (v: TextVersionView): VersionText => ({ subject: v.subject, body: v.body, sms: v.sms });

/** What a version did, in a sentence. */
function what(v: TextVersionView): string {
  if (v.status === 'reset') return 'Reset to Punctual’s text';
  return v.copiedFrom !== null ? `Rolled back to version ${v.copiedFrom}` : 'Published';
}

/** The line diff of one field, removed lines marked −, added ones +. */
function FieldDiff({ before, after }: { before: string | null; after: string | null }) {
  return (
    <pre className="text-diff">
      {lineDiff(before, after).map((l, i) => (
        <span key={i} className={`text-diff-${l.op}`}>
          {l.op === 'del' ? '− ' : l.op === 'add' ? '+ ' : '  '}
          {l.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

/**
 * Every version of the text, newest first: number, what happened (published, rolled back, reset), who and when (in
 * the organisation's zone), the fields changed against the version before it with a line diff of each, and — for a
 * published version not in effect now — "Roll back to this version" (admins).
 */
export function TextHistory({
  versions,
  current,
  zone,
  canEdit,
  busy,
  onRollback,
}: {
  versions: TextVersionView[];
  /** The version in effect now (null: Punctual's text). */
  current: number | null;
  zone: string;
  canEdit: boolean;
  busy: boolean;
  onRollback: (version: number) => void;
}) {
  return (
    <section className="card text-history" aria-labelledby="text-history-title">
      <h2 id="text-history-title" className="section-title">
        History
      </h2>
      {versions.length === 0 ? <p className="small muted">Nothing published yet: Punctual’s text is used.</p> : null}
      <ol className="text-versions">
        {versions.map((v, i) => {
          const before = versions[i + 1] ? textOf(versions[i + 1]) : null;
          const changed = changedFields(before, textOf(v));
          return (
            <li key={v.version} data-version={v.version} data-status={v.status}>
              <p>
                <strong>Version {v.version}</strong> · {what(v)} by {v.publishedBy} · <ZonedTime instant={v.publishedAt} zone={zone} />
                {v.version === current ? <span className="tag">in use</span> : null}
              </p>
              {v.status === 'published' ? (
                <details>
                  <summary data-testid="changed-fields">{changed.length === 0 ? 'No words changed' : `Changed: ${changed.map((f) => fieldLabels[f]).join(', ')}`}</summary>
                  {changed.map((f) => (
                    <div key={f} className="text-diff-field">
                      <p className="small muted">{fieldLabels[f]}</p>
                      <FieldDiff before={before?.[f] ?? null} after={v[f]} />
                    </div>
                  ))}
                </details>
              ) : null}
              {canEdit && v.status === 'published' && v.version !== current ? (
                <button type="button" className="btn btn-small" disabled={busy} onClick={() => onRollback(v.version)}>
                  Roll back to this version <span className="visually-hidden">(version {v.version})</span>
                </button>
              ) : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
