'use client';

import Link from 'next/link';
import { useRef, useState, type ChangeEvent } from 'react';
import type { ImportAnswer, ImportAnswerRow, ImportResult } from '@/server/people/participant-import';
import { newIdempotencyKey } from '@/components/ui/api';
import { FormFeedback } from '@/components/ui/FormFeedback';

/** Problem rows drawn at once; the rest are counted (a 5,000-row file with a wrong column would be 5,000 cards). */
const SHOWN_PROBLEM_ROWS = 200;

const FIELD_NAME: Record<string, string> = { name: 'name', email: 'email', phone: 'phone', role: 'role', timeZone: 'time zone', locale: 'locale' };

interface Failure {
  message: string;
  /** A refused commit's fresh preview (rows that have problems now). */
  preview?: ImportAnswer;
}

/** Sends the file's text to the import route; the answer's JSON, or a Failure with the server's words. */
async function send<T>(eventId: string, query: string, text: string, key?: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api/events/${encodeURIComponent(eventId)}/import-csv?${query}`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv; charset=utf-8', ...(key ? { 'idempotency-key': key } : {}) },
      body: text,
      cache: 'no-store',
    });
  } catch {
    throw { message: 'Could not reach the server — check the connection and try again.' } satisfies Failure;
  }
  const data = (await res.json().catch(() => null)) as (T & { error?: string; preview?: ImportAnswer }) | null;
  if (!res.ok) {
    const message = res.status === 401 ? 'Your session ended — sign in again.' : res.status === 413 ? 'The file is larger than 5 MiB: split it into smaller files.' : (data?.error ?? `The server answered HTTP ${res.status}.`);
    throw { message, preview: data?.preview } satisfies Failure;
  }
  return data as T;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** "Row 18" (the spreadsheet's row: the header is row 1), plus the file line when it differs (after a value over several lines). */
function rowLabel(r: ImportAnswerRow): string {
  return r.line === r.row ? `Row ${r.row}` : `Row ${r.row} · line ${r.line} of the file`;
}

function who(r: ImportAnswerRow): string {
  const name = r.values.name.replace(/\s+/g, ' ');
  if (name && r.values.email) return `${name} <${r.values.email}>`;
  return name || r.values.email || '(no name or email)';
}

/**
 * The import: a file chooser and the template download; after choosing, the preview (server side, nothing written):
 * counts, the columns understood and ignored, each row with a problem as a card with its problems; "Import N
 * participants" only when no row has a problem (all or nothing), or "Import the N good rows, skip the M with
 * problems" (the skipped rows are listed in the answer and the audit log). The commit sends the same text with the preview's
 * digest and an idempotency key made for that preview (a double click imports once); a refusal shows the fresh
 * problems.
 */
export function ParticipantImport({ eventId, eventTitle }: { eventId: string; eventTitle: string }) {
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [preview, setPreview] = useState<ImportAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'reading' | 'importing' | null>(null);
  const [done, setDone] = useState<ImportResult | null>(null);
  const key = useRef<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  async function onChoose(e: ChangeEvent<HTMLInputElement>) {
    const chosen = e.currentTarget.files?.[0];
    setPreview(null);
    setError(null);
    setDone(null);
    setFile(null);
    if (!chosen) return;
    setBusy('reading');
    try {
      const text = await chosen.text();
      setFile({ name: chosen.name, text });
      const p = await send<ImportAnswer>(eventId, 'mode=preview', text);
      setPreview(p);
      key.current = newIdempotencyKey();
    } catch (err) {
      setError((err as Failure).message ?? String(err));
    } finally {
      setBusy(null);
    }
  }

  async function onImport(skipProblems: boolean) {
    if (!file || !preview) return;
    setBusy('importing');
    setError(null);
    key.current ??= newIdempotencyKey();
    try {
      const query = `mode=commit&digest=${preview.digest}&file=${encodeURIComponent(file.name)}${skipProblems ? '&skip=problems' : ''}`;
      const r = await send<ImportResult>(eventId, query, file.text, key.current);
      setDone(r);
      setPreview(null);
      setFile(null);
      key.current = null;
      if (inputRef.current) inputRef.current.value = '';
    } catch (err) {
      const f = err as Failure;
      setError(f.message ?? String(err));
      if (f.preview) {
        setPreview(f.preview);
        key.current = newIdempotencyKey();
      }
    } finally {
      setBusy(null);
    }
  }

  const ready = preview && preview.withProblems === 0 && preview.ready > 0;
  const partly = preview && preview.withProblems > 0 && preview.ready > 0;
  return (
    <div className="participant-import">
      <section className="card import-choose" aria-labelledby="import-choose-title">
        <h2 id="import-choose-title">Choose a CSV file</h2>
        <p className="muted">
          Columns (first line): <code>name</code>, <code>email</code> (required), <code>phone</code>, <code>role</code> (attendee or host), <code>time zone</code>,{' '}
          <code>locale</code>. Comma or semicolon separated, UTF-8. Other columns are ignored. People already in your contacts keep their stored details.
        </p>
        <div className="import-actions">
          <label className="field import-file">
            <span>CSV file</span>
            <input ref={inputRef} type="file" name="file" accept=".csv,text/csv,text/plain" onChange={onChoose} disabled={busy !== null} aria-describedby="import-template-hint" />
          </label>
          <a className="btn" href={`/api/events/${encodeURIComponent(eventId)}/import-csv/template`} download="participants-template.csv" id="import-template-hint">
            Download a template CSV
          </a>
        </div>
        {busy === 'reading' ? (
          <p className="muted" role="status">
            Checking the file…
          </p>
        ) : null}
      </section>

      <FormFeedback error={error ? { message: error } : null} />

      {done ? (
        <div className="notice" role="status">
          <p>
            Imported {plural(done.bookings, 'participant')} into “{eventTitle}”; {plural(done.reminders, 'reminder')} planned.
            {done.known > 0
              ? ` ${plural(done.known, 'person was', 'people were')} already in your contacts and kept their stored details${done.keptDiffering > 0 ? ` (${done.keptDiffering} differ from the file — edit the participant to change them)` : ''}.`
              : ''}
            {done.skipped.length > 0 ? ` Skipped ${plural(done.skipped.length, 'row')} with problems: ${done.skipped.map((x) => x.row).join(', ')}.` : ''}
          </p>
          <p>
            <Link href={`/events/${eventId}`}>See the participants on the event page</Link>
          </p>
        </div>
      ) : null}

      {preview && file ? (
        <section className="card import-preview" aria-labelledby="import-preview-title">
          <h2 id="import-preview-title">Preview of {file.name}</h2>
          <p className="import-counts" role="status">
            {plural(preview.total, 'participant')} in the file: <strong>{preview.ready.toLocaleString('en')} ready</strong>
            {preview.withProblems > 0 ? (
              <>
                , <strong className="import-bad">{preview.withProblems.toLocaleString('en')} with problems</strong>
              </>
            ) : null}
            {preview.cancelledRows.length > 0 ? `, and ${plural(preview.cancelledRows.length, 'cancelled booking')} left out` : ''}
            .
          </p>
          <p className="muted small">
            Columns used: {preview.columns.map((c) => `${c.header} → ${FIELD_NAME[c.field]}`).join(', ')}.
            {preview.ignored.length > 0 ? ` Ignored: ${preview.ignored.join(', ')}.` : ''} Row numbers are the spreadsheet&apos;s: the header is row 1.
          </p>
          {preview.cancelledRows.length > 0 ? (
            <p className="muted small" data-testid="import-cancelled-rows">
              {plural(preview.cancelledRows.length, 'cancelled booking is', 'cancelled bookings are')} left out (the file&apos;s booking status says
              cancelled): {preview.cancelledRows.length === 1 ? 'row' : 'rows'} {preview.cancelledRows.slice(0, 20).join(', ')}
              {preview.cancelledRows.length > 20 ? ', …' : ''}.
            </p>
          ) : null}
          {preview.known > 0 ? (
            <p className="muted small">
              {plural(preview.known, 'person is', 'people are')} already in your contacts: they are booked with their stored details
              {preview.keptDiffering > 0 ? ` (${preview.keptDiffering} differ from the file and are kept as they are)` : ''}.
            </p>
          ) : null}

          {preview.withProblems > 0 ? (
            <>
              <h3>Rows with problems</h3>
              <ol className="import-rows" aria-label="Rows with problems">
                {preview.problemRows.slice(0, SHOWN_PROBLEM_ROWS).map((r) => (
                  <li key={r.row} className="import-row" data-row={r.row}>
                    <p className="import-row-head">
                      <strong>{rowLabel(r)}</strong> <span className="wrap-anywhere">{who(r)}</span>
                    </p>
                    <ul className="import-problems">
                      {r.problems.map((p, i) => (
                        <li key={i} className="wrap-anywhere">
                          {p.message}
                        </li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ol>
              {preview.problemRows.length > SHOWN_PROBLEM_ROWS ? <p className="muted">…and {plural(preview.problemRows.length - SHOWN_PROBLEM_ROWS, 'more row')} with problems.</p> : null}
              <p className="notice-warn">
                {partly
                  ? `Fix these rows in your file and choose it again to import everyone — or import the ${plural(preview.ready, 'good row')} now and skip the ${plural(preview.withProblems, 'row')} listed here.`
                  : 'No row is ready. Fix these rows in your file and choose it again.'}
              </p>
            </>
          ) : null}

          {preview.sample.length > 0 ? (
            <>
              <h3>{preview.withProblems > 0 ? 'Some rows that are ready' : 'First rows'}</h3>
              <ul className="import-sample">
                {preview.sample.map((r) => (
                  <li key={r.row} className="wrap-anywhere">
                    <span className="muted">{rowLabel(r)}</span> {who(r)}
                    {r.values.role ? ` · ${r.values.role.toLowerCase()}` : ''}
                    {r.values.timeZone ? ` · ${r.values.timeZone}` : ''}
                  </li>
                ))}
              </ul>
            </>
          ) : null}

          <div className="actions">
            {partly ? (
              <button type="button" className="btn" onClick={() => onImport(true)} disabled={busy !== null}>
                {busy === 'importing' ? 'Importing…' : `Import the ${plural(preview.ready, 'good row')}, skip the ${plural(preview.withProblems, 'row')} with problems`}
              </button>
            ) : (
              <button type="button" className="btn btn-primary" onClick={() => onImport(false)} disabled={!ready || busy !== null} aria-describedby={ready ? undefined : 'import-blocked'}>
                {busy === 'importing' ? 'Importing…' : `Import ${plural(preview.ready, 'participant')}`}
              </button>
            )}
            {!ready && !partly ? (
              <span id="import-blocked" className="muted small">
                {preview.ready === 0 && preview.withProblems === 0 ? 'No participants to import.' : 'Enabled when every row is ready.'}
              </span>
            ) : null}
          </div>
        </section>
      ) : null}
    </div>
  );
}
