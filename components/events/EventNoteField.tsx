'use client';

import { useId, useRef, useState } from 'react';
import { EVENT_NOTE_MAX, noteFromKey, noteKey } from '@/domain/scheduling/event-note';
import { noteLanguageName } from './event-form-fields';

/** One language's note as the form edits it. */
interface NoteRow {
  id: number;
  /** "" = all languages. */
  lang: string;
  text: string;
}

function rowsOf(key: string): NoteRow[] {
  const entries = Object.entries(noteFromKey(key));
  const rows = entries.length > 0 ? entries : [['', '']];
  return rows.map(([lang, text], id) => ({ id, lang, text }));
}

/**
 * The event form's "Note for participants" (domain/scheduling/event-note.ts): one plain-text note per language, plus
 * one for all languages, each at most 500 characters. It hands the form its value as a hidden `eventNote` input
 * holding the note's key (JSON with sorted languages, "" for none), so the form compares, merges and sends it like
 * any other field. Languages already used are not offered again.
 */
export function EventNoteField({ defaultValue, languages, invalid }: { defaultValue: string; languages: readonly string[]; invalid?: boolean }) {
  const hintId = useId();
  const [rows, setRows] = useState<NoteRow[]>(() => rowsOf(defaultValue));
  const nextId = useRef(rows.length);
  const order = ['', ...languages];
  const used = new Set(rows.map((r) => r.lang));
  const free = order.filter((l) => !used.has(l));
  const value = noteKey(Object.fromEntries(rows.filter((r) => r.text.trim() !== '').map((r) => [r.lang, r.text])));
  const change = (id: number, patch: Partial<NoteRow>) => setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  return (
    <fieldset className="field field-wide event-note-field" aria-describedby={hintId}>
      <legend>Note for participants (optional)</legend>
      <p id={hintId} className="field-hint">
        Plain text, shown in the reminders and the booking confirmation. Each person reads the note in the language of their message; without one, the note in
        your organisation’s default language, else the one for all languages.
      </p>
      {rows.map((r) => (
        <div className="event-note-row" key={r.id} data-note-lang={r.lang}>
          <label className="field">
            <span>Language</span>
            <select value={r.lang} onChange={(e) => change(r.id, { lang: e.target.value })}>
              {order
                .filter((l) => l === r.lang || free.includes(l))
                .map((l) => (
                  <option key={l} value={l}>
                    {noteLanguageName(l)}
                  </option>
                ))}
            </select>
          </label>
          <label className="field event-note-text">
            <span>Note</span>
            <textarea
              rows={2}
              maxLength={EVENT_NOTE_MAX}
              value={r.text}
              aria-invalid={invalid}
              onChange={(e) => change(r.id, { text: e.target.value })}
            />
          </label>
          {rows.length > 1 ? (
            <button type="button" className="btn btn-small" aria-label={`Remove the note in ${noteLanguageName(r.lang)}`} onClick={() => setRows((rs) => rs.filter((x) => x.id !== r.id))}>
              Remove
            </button>
          ) : null}
        </div>
      ))}
      {free.length > 0 ? (
        <p className="event-note-add">
          <button type="button" className="btn btn-small" onClick={() => setRows((rs) => [...rs, { id: nextId.current++, lang: free[0]!, text: '' }])}>
            Add a language
          </button>
        </p>
      ) : null}
      <input type="hidden" name="eventNote" value={value} />
    </fieldset>
  );
}
