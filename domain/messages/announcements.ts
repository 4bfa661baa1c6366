/**
 * Announcements (docs/architecture.md "How a reminder travels"): a message staff write to the people of one event — who it is for, what
 * it says (per language), when it goes — and who, of the event's people, gets it on which channel. Pure: no I/O, no
 * clock (the caller passes `now` and zones).
 *
 * Rules:
 * - Audience: booking roles × booking statuses × personal channels, each a non-empty list of known values
 *   ({@link audienceSchema}; an unknown value is refused naming the field and listing the known ones).
 * - Texts: per catalog language (`en`, `nl`, …; one entry = one text for everyone) a subject, a Markdown body and an
 *   optional SMS text (without one, SMS recipients get the subject), each checked like the organisation's own message
 *   text (domain/messages/staff-text.ts: safe Markdown subset, no raw HTML, http(s) links only, the announcement's
 *   variables only, the SMS segment limit) — {@link checkAnnouncementTexts}.
 * - Send time: none = now; an ISO instant with an offset, or a local `YYYY-MM-DDTHH:mm` read in the organisation's
 *   zone (a nonexistent local time moves forward, as luxon resolves it); never in the past ({@link resolveSendAt}).
 * - Recipients ({@link announcementRecipients}): each booking in the audience gets one message per channel of the
 *   audience that they accept for announcements (their preferences, domain/notifications/preferences.ts) and have an
 *   address for. A person who accepts none of them but can be reached on one still gets ONE planned message on the
 *   first such channel (email before SMS): the send path ends it `suppressed` with the reason ("opted out of
 *   announcements by email"), so staff see who did not hear it and why. Nobody reachable: not planned, counted.
 * - Language of each message ({@link announcementLocale}): the person's language among the announcement's languages,
 *   else its base language, else the organisation's default, else English, else the announcement's first language.
 */
import { z } from 'zod';
import { DateTime } from 'luxon';
import { readPreferences } from '@/domain/notifications/preferences';
import { bookingRoles, bookingStatuses, personalChannels, type BookingRole, type BookingStatus, type PersonalChannel } from '@/domain/vocabulary';
import { chooseMessageLocale, type MessageLocaleChoice } from './locale-fallback';
import { checkStaffText, limits } from './staff-text';

/** A list of distinct known values; refuses an unknown one naming it and listing the known ones. */
function knownList<T extends string>(values: readonly T[], noun: string) {
  return z
    .array(z.unknown(), { error: `must be a list such as ${JSON.stringify([values[0]])}` })
    .superRefine((list, ctx) => {
      if (list.length === 0) ctx.addIssue({ code: 'custom', message: `choose at least one ${noun}` });
      for (const v of list) {
        if (!(values as readonly unknown[]).includes(v)) {
          ctx.addIssue({ code: 'custom', message: `unknown ${noun} ${JSON.stringify(v) ?? String(v)} (expected ${values.join(', ')})` });
          return;
        }
      }
    })
    .transform((list) => values.filter((v) => list.includes(v)));
}

/** Who an announcement is for: `{ roles, statuses, channels }` (module comment). Stored as the `audience` jsonb. */
export const audienceSchema = z.strictObject(
  {
    roles: knownList(bookingRoles, 'role'),
    statuses: knownList(bookingStatuses, 'booking status'),
    channels: knownList(personalChannels, 'channel'),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `unknown ${iss.keys.map((k) => JSON.stringify(k)).join(', ')} (expected roles, statuses and channels)` : 'must be an object with roles, statuses and channels') },
);
export type Audience = z.infer<typeof audienceSchema>;

/** One language's words of an announcement: subject, Markdown body, SMS text ('' = the subject goes by SMS). */
export interface AnnouncementText {
  subject: string;
  body: string;
  sms: string;
}
/** The texts of an announcement by language (catalog tags). Stored as the `texts` jsonb. */
export type AnnouncementTexts = Record<string, AnnouncementText>;

/** Field-named refusal (the HTTP layer answers 400 with it). */
export type AnnouncementRefusal = { ok: false; field: string; message: string };

/** The SMS words of `t`: its SMS text, or its subject when it has none. */
export function smsWordsOf(t: AnnouncementText): string {
  return t.sms.trim() !== '' ? t.sms : t.subject;
}

/**
 * Checks the texts of an announcement (module comment). `languages`: the catalog languages a text may be in;
 * `smsSegmentLimit`: most SMS segments one text may take. Returns the texts trimmed, or the first refusal, its field
 * `texts.<language>.<subject|body|sms>` (or `texts`).
 */
export function checkAnnouncementTexts(input: unknown, languages: readonly string[], smsSegmentLimit: number): { ok: true; texts: AnnouncementTexts } | AnnouncementRefusal {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return { ok: false, field: 'texts', message: 'texts: must be an object with one text per language, such as { "en": { "subject": "…", "body": "…" } }' };
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length === 0) return { ok: false, field: 'texts', message: 'texts: write the announcement in at least one language' };
  const out: AnnouncementTexts = {};
  for (const [language, raw] of entries) {
    if (!languages.includes(language)) return { ok: false, field: 'texts', message: `texts: unknown language "${language.slice(0, 20)}" (expected one of ${languages.join(', ')})` };
    const t = (raw ?? {}) as Record<string, unknown>;
    const text: AnnouncementText = { subject: '', body: '', sms: '' };
    for (const f of ['subject', 'body', 'sms'] as const) {
      const v = t[f] ?? '';
      if (typeof v !== 'string') return { ok: false, field: `texts.${language}.${f}`, message: `texts.${language}.${f}: must be text` };
      text[f] = v.trim();
    }
    if (text.subject === '') return { ok: false, field: `texts.${language}.subject`, message: `texts.${language}.subject: write a subject` };
    if (text.body === '') return { ok: false, field: `texts.${language}.body`, message: `texts.${language}.body: write the text of the announcement` };
    const check = checkStaffText({ kind: 'announcement', locale: language, draft: { subject: text.subject, body: text.body, sms: smsWordsOf(text) }, smsSegmentLimit });
    if (!check.ok) {
      const e = check.errors[0];
      const field = e.field === 'sms' && text.sms === '' ? 'subject' : e.field;
      return { ok: false, field: `texts.${language}.${field}`, message: `texts.${language}.${field}: ${e.message}` };
    }
    out[language] = text;
  }
  return { ok: true, texts: out };
}

/** Longest subject, body and SMS text of one language (the staff-text limits). */
export const announcementLimits = limits;

/**
 * The send instant of an announcement (module comment): `value` null/undefined/'' = `now`; else an ISO instant with
 * `Z` or an offset, or a local `YYYY-MM-DDTHH:mm[:ss]` in `zone`. Refused (field `sendAt`) when unreadable or before `now`.
 */
export function resolveSendAt(value: unknown, now: Date, zone: string): { ok: true; at: Date; now: boolean } | AnnouncementRefusal {
  if (value === null || value === undefined || value === '') return { ok: true, at: now, now: true };
  if (typeof value !== 'string') return { ok: false, field: 'sendAt', message: 'sendAt: must be a date and time such as 2027-06-01T18:00' };
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(value);
  const dt = hasZone ? DateTime.fromISO(value, { setZone: true }) : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? DateTime.fromISO(value, { zone }) : null;
  if (!dt || !dt.isValid) return { ok: false, field: 'sendAt', message: `sendAt: "${value.slice(0, 40)}" is not a date and time such as 2027-06-01T18:00` };
  const at = dt.toJSDate();
  if (at.getTime() < now.getTime()) {
    const local = DateTime.fromJSDate(now, { zone }).toFormat('ccc d LLL yyyy, HH:mm ZZZZ');
    return { ok: false, field: 'sendAt', message: `sendAt: ${dt.setZone(zone).toFormat('ccc d LLL yyyy, HH:mm ZZZZ')} is in the past (it is now ${local}) — choose a later time, or send now` };
  }
  return { ok: true, at, now: false };
}

/** One of the event's people, as the recipient choice needs them. */
export interface AnnouncementPerson {
  booking: { id: string; role: BookingRole; status: BookingStatus };
  contact: { id: string; name: string; email: string | null; phone: string | null; preferences: unknown };
}

/** What one person of the audience gets: the channels planned, and whether the one planned is only to record an opt-out. */
export interface AnnouncementRecipient {
  bookingId: string;
  contactId: string;
  name: string;
  channels: PersonalChannel[];
  /** True when the person accepts none of the audience's channels for announcements: the one message planned ends `suppressed`. */
  optedOut: boolean;
}

/** The audience's recipients among `people` (module comment) and the people in the audience nobody can reach. */
export function announcementRecipients(people: readonly AnnouncementPerson[], audience: Audience): { recipients: AnnouncementRecipient[]; unreachable: number } {
  const recipients: AnnouncementRecipient[] = [];
  let unreachable = 0;
  for (const p of people) {
    if (!audience.roles.includes(p.booking.role) || !audience.statuses.includes(p.booking.status)) continue;
    const reachable = audience.channels.filter((c) => (c === 'email' ? !!p.contact.email : !!p.contact.phone));
    const accepted = readPreferences(p.contact.preferences).announcements.filter((c) => reachable.includes(c));
    const base = { bookingId: p.booking.id, contactId: p.contact.id, name: p.contact.name };
    if (accepted.length > 0) recipients.push({ ...base, channels: accepted, optedOut: false });
    else if (reachable.length > 0) recipients.push({ ...base, channels: [reachable[0]], optedOut: true });
    else unreachable++;
  }
  return { recipients, unreachable };
}

/** Counts for the confirm dialog: people in the audience, messages per channel, opted out, unreachable. */
export interface AudienceCount {
  people: number;
  email: number;
  sms: number;
  optedOut: number;
  unreachable: number;
}

/** {@link AudienceCount} of a recipient choice (an opted-out person's one message is counted as opted out, not sent). */
export function countAudience(r: { recipients: AnnouncementRecipient[]; unreachable: number }): AudienceCount {
  const sending = r.recipients.filter((x) => !x.optedOut);
  return {
    people: r.recipients.length + r.unreachable,
    email: sending.filter((x) => x.channels.includes('email')).length,
    sms: sending.filter((x) => x.channels.includes('sms')).length,
    optedOut: r.recipients.length - sending.length,
    unreachable: r.unreachable,
  };
}

/**
 * The language one person's message is written in (module comment). `texts`' languages are the available ones.
 */
export function announcementLocale(languages: readonly string[], contactLocale: string | null, organisationLocale: string | null): MessageLocaleChoice {
  const choice = chooseMessageLocale({ contactLocale, organisationLocale, available: languages });
  if (languages.includes(choice.locale)) return choice;
  const first = languages[0] ?? 'en';
  return { locale: first, formatLocale: first, reason: 'organisation_default' };
}

/** How late an announcement's message may still go out after its send instant (its late-send window), ms: 12 hours. */
export const ANNOUNCEMENT_LATE_SEND_MS = 12 * 3600_000;
