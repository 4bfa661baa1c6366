/**
 * An event's note for participants: short plain text per language ("Bring an apron" / "Neem een schort mee") that the
 * event's messages show where their text puts `{eventNote}` (domain/messages/message-variables.ts). Pure: no I/O; the
 * only outside dependency is the runtime's Intl (a tag's language subtag).
 *
 * Shape (stored as jsonb on `events.event_note`, sent as the `eventNote` field of the event form): an object from a
 * language key to the note in that language. A key is a language Punctual writes messages in ("en", "nl", …, the
 * caller passes them) or `""`, meaning "all languages" — the note for readers whose language has none of its own.
 * Values are plain text (line breaks allowed, no markup is read), at most {@link EVENT_NOTE_MAX} characters, without
 * text-direction controls (domain/text.ts). Blank values are dropped, so "no note" is `{}` (stored as null).
 *
 * Which note a reader gets ({@link chooseEventNote}), first match wins: the locale their message is written in
 * ("nl-BE" when their own tag matched), its base language ("nl"), the `""` note (staff wrote it for everyone else),
 * the organisation's default language (its tag, then its language: better a note in another language than none);
 * else the empty string — never null or undefined, so a text that prints `{eventNote}` prints nothing. The `""` note
 * comes before the organisation's language so that an English message does not carry a Dutch note when staff wrote
 * one for all languages.
 */
import { bidiControlProblem } from '@/domain/text';

/** Longest note per language, in UTF-16 code units (characters of ordinary text). */
export const EVENT_NOTE_MAX = 500;

/** Language key → note. `""` is the note for every language without its own. */
export type EventNote = Readonly<Record<string, string>>;

/** The language subtag of a tag ("nl-BE" → "nl"), or null when Intl cannot read it. */
function languageOf(tag: string): string | null {
  try {
    return new Intl.Locale(tag).language;
  } catch {
    return null;
  }
}

export type EventNoteCheck = { ok: true; note: EventNote } | { ok: false; message: string };

/**
 * Checks a note as it came in (any JSON value) against the rules in the module comment; `languages` are the keys
 * allowed besides `""`. null, undefined and `{}` are "no note". On success the note is normalised: values trimmed,
 * blank ones dropped, keys in `languages` order with `""` first. Never throws.
 * @returns the note, or a message for a staff member naming the language ("the note in nl is 612 characters long;
 *   at most 500").
 */
export function checkEventNote(value: unknown, languages: readonly string[]): EventNoteCheck {
  if (value === null || value === undefined) return { ok: true, note: {} };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: 'must be an object from a language to its note, e.g. {"en": "Bring an apron", "": "…"}' };
  }
  const allowed = ['', ...languages];
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(value)) {
    const what = key === '' ? 'the note for all languages ("")' : `the note in ${key}`;
    if (!allowed.includes(key)) {
      return { ok: false, message: `"${key.slice(0, 40)}" is not a language Punctual writes messages in — use one of ${languages.join(', ')}, or "" for all languages` };
    }
    if (typeof text !== 'string') return { ok: false, message: `${what} must be text` };
    const trimmed = text.trim();
    if (trimmed.length > EVENT_NOTE_MAX) return { ok: false, message: `${what} is ${trimmed.length} characters long; at most ${EVENT_NOTE_MAX}` };
    const bidi = bidiControlProblem(trimmed);
    if (bidi) return { ok: false, message: `${what} ${bidi}` };
    if (trimmed !== '') out[key] = trimmed.replace(/\r\n?/g, '\n');
  }
  return { ok: true, note: Object.fromEntries(allowed.filter((k) => k in out).map((k) => [k, out[k]!])) };
}

/** True when the note has no text in any language. */
export function isEmptyNote(note: EventNote | null | undefined): boolean {
  return !note || Object.values(note).every((v) => typeof v !== 'string' || v.trim() === '');
}

/**
 * The note one reader gets (order in the module comment); "" when there is none for them. `note` as stored (null =
 * none; values that are not text are skipped).
 * @param messageLocale the locale the message is written in (its words' language or the reader's full tag, e.g. "nl-BE").
 * @param organisationLocale the sending organisation's default language tag, or null.
 */
export function chooseEventNote(note: EventNote | null | undefined, messageLocale: string, organisationLocale: string | null): string {
  if (!note) return '';
  const text = (key: string | null) => (key !== null && typeof note[key] === 'string' && note[key].trim() !== '' ? note[key] : null);
  const order = [messageLocale, languageOf(messageLocale), '', organisationLocale, organisationLocale ? languageOf(organisationLocale) : null];
  for (const key of order) {
    const found = text(key);
    if (found !== null) return found;
  }
  return '';
}

/**
 * One stable text for a note, for comparing two notes (form fields, "what changed"): JSON with the keys sorted and
 * blank values dropped; "" for no note.
 */
export function noteKey(note: EventNote | null | undefined): string {
  if (isEmptyNote(note)) return '';
  const entries = Object.entries(note!)
    .filter(([, v]) => typeof v === 'string' && v.trim() !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(entries));
}

/** A note for reading in a staff list: "all languages: Bring an apron · nl: Neem een schort mee" ("" for none). */
export function describeNote(note: EventNote | null | undefined): string {
  if (isEmptyNote(note)) return '';
  return Object.entries(note!)
    .filter(([, v]) => v.trim() !== '')
    .map(([k, v]) => `${k === '' ? 'all languages' : k}: ${v}`)
    .join(' · ');
}

/** The note a {@link noteKey} stands for ({} for "" or text that is not such a key). Never throws. */
export function noteFromKey(key: string): EventNote {
  if (!key) return {};
  try {
    const v: unknown = JSON.parse(key);
    return v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, t]) => typeof t === 'string')) : {};
  } catch {
    return {};
  }
}
