/**
 * No lost updates (DESIGN.md invariant 11): the pure parts of an edit conflict. Pure: no I/O, no clock.
 *
 * Every stored record a person edits (event, booking, reminder rule, suppression, staff account) has a row
 * `version` that a database trigger bumps on every change (migration 0006). An edit carries the version the
 * editor saw; when the stored one differs the save is refused with a 409 whose message comes from
 * `conflictMessage`, and the form offers to re-apply the person's own edits onto the latest record
 * (`mergeEdits`) — a three-way merge per field, the same idea as `git merge` on one line per field:
 *
 * | field is …                           | merged value |
 * | ------------------------------------ | ------------ |
 * | untouched by me                      | theirs (the latest) |
 * | touched by me, untouched by them     | mine |
 * | touched by both                      | mine (listed in `overlapping`, so the form can say so) |
 */
import { DateTime } from 'luxon';

/**
 * Value equality for form fields: primitives by `===` (so `''` and `null` differ only if the form keeps
 * them apart — forms here use `''`), arrays as sets of primitives (an audience `['host', 'attendee']` equals
 * `['attendee', 'host']`).
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const sa = [...a].map(String).sort();
    const sb = [...b].map(String).sort();
    return sa.every((v, i) => v === sb[i]);
  }
  return a === b;
}

interface MergeResult<T> {
  /** The latest record with the editor's own changes applied on top. */
  merged: T;
  /** Fields someone else changed since the editor opened the form (opened → latest differs). */
  theirs: (keyof T)[];
  /** Fields the editor changed (opened → mine differs). */
  mine: (keyof T)[];
  /** Fields both changed, to different values: the editor's value is kept, and the form says so. */
  overlapping: (keyof T)[];
}

/**
 * Three-way merge of one form: `opened` (what the editor was shown), `mine` (what the editor has typed now)
 * and `latest` (the stored record now). Fields the editor did not touch take the latest values; fields the
 * editor touched keep the editor's values. Only the keys of `latest` are considered, in its order.
 */
export function mergeEdits<T extends { [K in keyof T]: unknown }>(opened: T, mine: T, latest: T): MergeResult<T> {
  const merged = { ...latest };
  const theirs: (keyof T)[] = [];
  const mineChanged: (keyof T)[] = [];
  const overlapping: (keyof T)[] = [];
  for (const key of Object.keys(latest) as (keyof T)[]) {
    const touchedByMe = !sameValue(opened[key], mine[key]);
    const touchedByThem = !sameValue(opened[key], latest[key]);
    if (touchedByThem) theirs.push(key);
    if (touchedByMe) {
      mineChanged.push(key);
      merged[key] = mine[key];
      if (touchedByThem && !sameValue(mine[key], latest[key])) overlapping.push(key);
    }
  }
  return { merged, theirs, mine: mineChanged, overlapping };
}

/** One line of the "what changed" panel: `label: from → to`. */
export interface FieldChange {
  field: string;
  label: string;
  /** The value the editor opened, formatted for reading ("—" when empty). */
  from: string;
  /** The value stored now. */
  to: string;
}

/**
 * The fields that differ between `opened` and `latest`, in the order of `fields`, formatted with each
 * field's `format` (default: the value as text; empty → "—").
 */
export function describeChanges<T extends { [K in keyof T]: unknown }>(
  opened: T,
  latest: T,
  fields: { key: keyof T & string; label: string; format?: (value: T[keyof T], other: T[keyof T]) => string }[],
): FieldChange[] {
  const text = (v: unknown) => (v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0) ? '—' : Array.isArray(v) ? v.join(', ') : String(v));
  return fields
    .filter((f) => !sameValue(opened[f.key], latest[f.key]))
    .map((f) => ({
      field: f.key,
      label: f.label,
      from: f.format ? f.format(opened[f.key], latest[f.key]) : text(opened[f.key]),
      to: f.format ? f.format(latest[f.key], opened[f.key]) : text(latest[f.key]),
    }));
}

/**
 * A wall-clock value of the event form, for reading: `2027-06-15T10:00` → "Tue 15 Jun 10:00",
 * `2027-06-15` → "Tue 15 Jun". The year is added when `other` (the value it is compared with) lies in
 * another year. Anything else is returned as it is ("—" when empty).
 */
export function formatWallClock(value: unknown, other?: unknown): string {
  if (typeof value !== 'string' || value === '') return '—';
  const dt = DateTime.fromISO(value, { zone: 'UTC', locale: 'en-GB' });
  if (!dt.isValid) return value;
  const otherYear = typeof other === 'string' ? DateTime.fromISO(other, { zone: 'UTC' }).year : dt.year;
  const date = dt.toFormat(otherYear !== dt.year ? 'ccc d LLL yyyy' : 'ccc d LLL');
  return value.length <= 10 ? date : `${date} ${dt.toFormat('HH:mm')}`;
}

/** ICU names zones per locale; these together know most common abbreviations (as components/ui/format.ts). */
const abbreviationLocales = ['en-GB', 'en-US', 'en-AU', 'en-IN', 'en-SG', 'ja-JP'];

/**
 * "Wed 16 Jun 2027, 10:04 CEST": the instant `at` (UTC) as wall-clock time in the IANA `zone` with the
 * zone's abbreviation ("UTC+5:30" style when no locale has letters for it). Pure.
 */
export function formatChangeTime(at: Date, zone: string): string {
  const dt = DateTime.fromJSDate(at, { zone }).setLocale('en-GB');
  if (!dt.isValid) return at.toISOString();
  let abbr = `UTC${dt.toFormat('Z')}`;
  for (const locale of abbreviationLocales) {
    const name = dt.setLocale(locale).toFormat('ZZZZ');
    if (!/^(GMT|UTC)[+-]/.test(name)) {
      abbr = name;
      break;
    }
  }
  return `${dt.toFormat('ccc d LLL yyyy, HH:mm')} ${abbr}`;
}

/**
 * The 409 message for a stale save: "This event was changed by Bea Booker at Wed 16 Jun 2027, 10:04 CEST
 * since you opened it." `what` names the record ("This event"); `by` is the display name of whoever made the
 * last change (or the `updated_by` text itself, e.g. "import"); `at` is when, shown in `zone` — left out
 * when the record keeps no change time (suppressions have no `updated_at`).
 */
export function conflictMessage(input: { what: string; by: string; at: Date | null; zone: string }): string {
  const when = input.at ? ` at ${formatChangeTime(input.at, input.zone)}` : '';
  return `${input.what} was changed by ${input.by}${when} since you opened it.`;
}

/**
 * The 409 message for acting on a record someone already removed (a soft delete, e.g. a suppression-list entry
 * removed from another tab): "The suppression of gone@example.test was already removed by Sam Staff at Wed 16
 * Jun 2027, 10:04 CEST: “mailbox works again”." `by` is the remover's display name (or the stored actor text),
 * `at` the removal instant shown in `zone`, `reason` the reason they gave (left out when none).
 */
export function alreadyRemovedMessage(input: { what: string; by: string; at: Date; zone: string; reason: string | null }): string {
  const why = input.reason ? `: “${input.reason}”` : '';
  return `${input.what} was already removed by ${input.by} at ${formatChangeTime(input.at, input.zone)}${why}.`;
}

/**
 * The version an `If-Match` header names (RFC 9110 §13.1.1): `"7"` or `W/"7"` → 7. Absent or empty → null.
 * @returns 'malformed' for anything else (a list, `*`, a non-number), which the route answers with 400.
 */
export function versionFromIfMatch(header: string | null | undefined): number | null | 'malformed' {
  if (header === null || header === undefined || header.trim() === '') return null;
  const m = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header);
  if (!m) return 'malformed';
  const n = Number(m[1]);
  return n >= 1 ? n : 'malformed';
}

/**
 * The notice after "Apply my changes on top" of a conflict (invariant 11): `kept` are the labels of the fields where
 * the user's value replaced another person's newer one; `check` names what to look over before saving again
 * ("them", "the form", "the rule"). Pure; one wording for every form.
 */
export function onTopNotice(kept: readonly string[], check = 'them'): string {
  return `Your changes are now on top of the latest version${kept.length ? ` (your ${kept.join(', ')} replaced theirs)` : ''}. Check ${check} and save again.`;
}
