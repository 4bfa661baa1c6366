/**
 * The pure parts of the preference forms (issue #9 §3, §7): the staff dialog on the event page and the
 * person's own page behind a signed link. Pure: no I/O, no clock.
 *
 * - {@link quietHoursFromForm}: two `<input type="time">` values → quiet hours, none, or the field to fix.
 * - {@link quietHoursZone}: quiet hours are read in the person's IANA zone, else the tenant's (quiet-hours.ts);
 *   the form says which.
 * - {@link describeContactPreferences}: the read-back under the form, built from describePreferences and
 *   describeQuietHours, with {@link describeUnsubscribed} for a category the person left by a one-click link.
 * - {@link maskPhone}: the number on file as the person's own page shows it (no sign-in there: whoever holds
 *   the link sees the page, so the full number is not shown).
 */
import { DateTime } from 'luxon';
import { categoryPhrase, describePreferences, type ChannelPreferences, type UnsubscribeMarkers } from './preferences';
import { preferenceCategories, type PreferenceCategory } from '@/domain/vocabulary';
import { describeQuietHours, type QuietHours } from './quiet-hours';

type QuietHoursForm = { ok: true; quietHours: QuietHours | null } | { ok: false; field: 'quietHours.start' | 'quietHours.end'; message: string };

/**
 * Quiet hours from a form's "from" and "to" fields ('HH:MM' or empty): both empty → null (no quiet hours);
 * exactly one empty → an error naming the empty one; both given → `{ start, end }` as typed (trimmed), to be
 * checked by quietHoursSchema (format, start ≠ end).
 */
export function quietHoursFromForm(start: string | null | undefined, end: string | null | undefined): QuietHoursForm {
  const s = (start ?? '').trim();
  const e = (end ?? '').trim();
  if (s === '' && e === '') return { ok: true, quietHours: null };
  if (s === '') return { ok: false, field: 'quietHours.start', message: 'enter when quiet hours start (or clear both times for none)' };
  if (e === '') return { ok: false, field: 'quietHours.end', message: 'enter when quiet hours end (or clear both times for none)' };
  return { ok: true, quietHours: { start: s, end: e } };
}

/** The zone quiet hours are read in, and whose it is (`contact`: the person's own; `tenant`: the organisation's). */
interface QuietHoursZone {
  zone: string;
  source: 'contact' | 'tenant';
}

/** The person's zone when known, else the tenant's (the rule of domain/notifications/quiet-hours.ts). */
export function quietHoursZone(contactZone: string | null | undefined, tenantZone: string): QuietHoursZone {
  return contactZone ? { zone: contactZone, source: 'contact' } : { zone: tenantZone, source: 'tenant' };
}

/**
 * Which zone the times are in, in words, for a form label's hint: "in Europe/Berlin, the participant's own time
 * zone" or "in Europe/Amsterdam, the organisation's time zone (the participant's own is not known)". `person`
 * names the person ("the participant", "your").
 */
export function quietHoursZoneText(z: QuietHoursZone, person: 'participant' | 'you'): string {
  if (z.source === 'contact') return person === 'you' ? `in ${z.zone}, your time zone` : `in ${z.zone}, the participant's own time zone`;
  return person === 'you'
    ? `in ${z.zone}, the organisation's time zone (we do not know yours)`
    : `in ${z.zone}, the organisation's time zone (the participant's own is not known)`;
}

/** The calendar date of the instant `at` (ISO-8601 UTC) in the IANA `zone`: "Tue 3 Aug 2027" (the ISO text itself when unreadable). */
export function dateInZone(at: string, zone: string): string {
  const dt = DateTime.fromISO(at, { zone: 'utc' }).setZone(zone).setLocale('en-GB');
  return dt.isValid ? dt.toFormat('ccc d LLL yyyy') : at;
}

/**
 * Why a category is empty when the person left it by a one-click unsubscribe link (issue #10 §5), for staff:
 * "Unsubscribed from booking updates by the recipient on Tue 3 Aug 2027 (one-click link)." — the date of `at`
 * (ISO-8601 UTC) in `zone`.
 */
export function describeUnsubscribed(category: PreferenceCategory, at: string, zone: string): string {
  return `Unsubscribed from ${categoryPhrase(category)} by the recipient on ${dateInZone(at, zone)} (one-click link).`;
}

/**
 * The preferences read back, one sentence a line: describePreferences' sentences — each followed, for a
 * category that is empty because of a one-click unsubscribe in `unsubscribed` (staff views pass the markers;
 * a marker whose category has a channel ticked is ignored), by {@link describeUnsubscribed} — then the quiet
 * hours ("Quiet hours 21:00–08:00 (Europe/Berlin) — reminders, booking updates and announcements due then wait until
 * they end, if they can." or "No quiet hours."), then — when SMS is chosen but no number is on file — "No mobile
 * number is on file, so nothing goes by SMS."
 */
export function describeContactPreferences(input: {
  prefs: ChannelPreferences;
  quietHours: QuietHours | null;
  zone: string;
  hasPhone: boolean;
  unsubscribed?: UnsubscribeMarkers;
}): string[] {
  const byCategory = describePreferences(input.prefs);
  const out: string[] = [];
  preferenceCategories.forEach((category, i) => {
    out.push(byCategory[i]);
    const at = input.unsubscribed?.[category];
    if (at && (input.prefs[category] ?? []).length === 0) out.push(describeUnsubscribed(category, at, input.zone));
  });
  out.push(
    input.quietHours
      ? `Quiet hours ${describeQuietHours(input.quietHours, input.zone).replace(/^quiet /, '')} — reminders, booking updates and announcements due then wait until they end, if they can (event cancellations do not wait).`
      : 'No quiet hours.',
  );
  const wantsSms = Object.values(input.prefs).some((list) => list.includes('sms'));
  if (wantsSms && !input.hasPhone) out.push('No mobile number is on file, so nothing goes by SMS.');
  return out;
}

/**
 * An E.164 number with its middle hidden: the "+" and the first two digits, then "•" for every digit but the
 * last three — "+31612345678" → "+31••••••678". Shorter input keeps only its last two characters visible.
 */
export function maskPhone(e164: string): string {
  const s = e164.trim();
  if (s.length < 8) return `${'•'.repeat(Math.max(0, s.length - 2))}${s.slice(-2)}`;
  return `${s.slice(0, 3)}${'•'.repeat(s.length - 6)}${s.slice(-3)}`;
}

/** The page messages {@link describeOwnPreferences} writes with (emails/messages/en.ts `pages.summary*`). */
export type OwnPreferenceSentence = 'summaryChannels' | 'summaryNone' | 'summaryQuiet' | 'summaryNoQuiet' | 'summaryNoPhone';

/**
 * The person's own preferences read back on their page, in their language: one sentence per category ("Reminders by
 * email and SMS." / "No announcements."), then quiet hours, then "no mobile number" when a category wants SMS and
 * none is on file — the same facts as {@link describeContactPreferences}, written by `format` (the page's catalog
 * messages, emails/messages/page-text.ts pageText) so this stays pure. `zone`: IANA zone quiet hours are read in.
 */
export function describeOwnPreferences(
  format: (key: OwnPreferenceSentence, values?: Record<string, string>) => string,
  input: { prefs: ChannelPreferences; quietHours: QuietHours | null; zone: string; hasPhone: boolean },
): string[] {
  const out = preferenceCategories.map((category) => {
    const list = input.prefs[category] ?? [];
    if (list.length === 0) return format('summaryNone', { category });
    const channels = list.includes('email') && list.includes('sms') ? 'both' : list.includes('sms') ? 'sms' : 'email';
    return format('summaryChannels', { category, channels });
  });
  out.push(input.quietHours ? format('summaryQuiet', { start: input.quietHours.start, end: input.quietHours.end, zone: input.zone }) : format('summaryNoQuiet'));
  const wantsSms = Object.values(input.prefs).some((list) => list.includes('sms'));
  if (wantsSms && !input.hasPhone) out.push(format('summaryNoPhone'));
  return out;
}

/**
 * The option of the page message `pages.notSaved` (emails/messages/en.ts) for a refused save's field as the server
 * names it (`preferences.reminders`, `quietHours.start`, …): `reminders` | `booking_updates` | `announcements` |
 * `quietStart` | `quietEnd` | `quietHours`, and `other` for anything else — never text taken from the request.
 */
export function notSavedFieldOption(field: string | null | undefined): string {
  const option: Record<string, string> = {
    'preferences.reminders': 'reminders',
    'preferences.booking_updates': 'booking_updates',
    'preferences.announcements': 'announcements',
    'quietHours.start': 'quietStart',
    'quietHours.end': 'quietEnd',
    quietHours: 'quietHours',
  };
  return (field && Object.hasOwn(option, field) && option[field]) || 'other';
}
