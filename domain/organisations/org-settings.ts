/**
 * The organisation settings page (issue #13): validation of what an admin saves, the audit diff, the sender name
 * of outgoing mail, the test message's rate limit and how its provider outcome reads. Pure: no I/O, no clock.
 *
 * Fields (the form's names; a message always starts with the field name, e.g. "senderEmail: must be an email address"):
 * - `name` — the organisation's name, 1–200 characters.
 * - `timeZone` — the default IANA zone (domain/zones.ts isValidZone; a typed city or old name gets a suggestion).
 * - `senderName` — the display name of its mail, ≤ 200 characters, no line breaks; empty = the organisation's name.
 * - `senderEmail` — the From address (required); `replyTo` — the Reply-To address (optional, empty = none).
 * - `locale` — BCP 47 tag (domain/locales.ts canonicalLocale), the default of contacts added without one, and the
 *   organisation's default language in the locale fallback of messages (domain/messages/locale-fallback.ts).
 * - `emailProvider` — `smtp` or `http_api` (credentials live in the worker's environment, never here).
 * - `smsSegmentLimit` — most SMS segments one of the organisation's own SMS texts may take (templates, announcements),
 *   a whole number 1–10 ({@link SMS_SEGMENT_LIMIT_RANGE}); absent or null = keep the current limit ("" is refused).
 */
import { z } from 'zod';
import { canonicalLocale } from '@/domain/locales';
import { BIDI_CONTROL_CLASS, bidiControlProblem } from '@/domain/text';
import type { Outcome } from '@/domain/sending/outcome';
import { emailProviders, type EmailProvider } from '@/domain/vocabulary';
import { isValidZone, suggestZone } from '@/domain/zones';

/** The settings as stored and shown (null = not set). */
export interface OrgSettings {
  name: string;
  timeZone: string;
  /** Null = the organisation's name. */
  senderName: string | null;
  senderEmail: string;
  /** Null = no Reply-To header. */
  replyTo: string | null;
  locale: string;
  emailProvider: EmailProvider;
  /** Most SMS segments one of its own SMS texts may take (1–10). */
  smsSegmentLimit: number;
  /** Today alerts for an event within 24 h with more unconfirmed participants than this; null = off. */
  unconfirmedAlertThreshold: number | null;
}

/** The range of `unconfirmedAlertThreshold` (people). */
export const UNCONFIRMED_ALERT_RANGE = { min: 0, max: 10_000 } as const;

/**
 * The range of `smsSegmentLimit`. One segment is 160 GSM-7 characters (153 per part of a longer text, 67 in UCS-2),
 * each billed as one message; ten parts (1,530 characters) is far past what any provider advises for one text
 * (Twilio recommends at most 10 segments; 3GPP TS 23.040 allows 255).
 */
export const SMS_SEGMENT_LIMIT_RANGE = { min: 1, max: 10 } as const;

const textFields = ['name', 'timeZone', 'senderName', 'senderEmail', 'replyTo', 'locale', 'emailProvider'] as const;
const orgSettingsFields = [...textFields, 'smsSegmentLimit', 'unconfirmedAlertThreshold'] as const;
type OrgSettingsField = (typeof orgSettingsFields)[number];

/** A checked save: `smsSegmentLimit` null when the body did not send one (keep the current limit). */
export type OrgSettingsInput = Omit<OrgSettings, 'smsSegmentLimit' | 'unconfirmedAlertThreshold'> & {
  smsSegmentLimit: number | null;
  /** `undefined`: the body did not send it (keep the current one); null: off. */
  unconfirmedAlertThreshold: number | null | undefined;
};

type OrgSettingsCheck = { ok: true; value: OrgSettingsInput } | { ok: false; field: OrgSettingsField | 'body'; message: string };

const MAX_NAME = 200;
/** RFC 5321 §4.5.3.1.3: a path is at most 256 octets including the angle brackets. */
const MAX_ADDRESS = 254;
/**
 * Characters a name shown in a From line or a page must not hold: C0 controls and DEL, and the bidi embedding /
 * override / isolate controls (U+202A–U+202E, U+2066–U+2069; domain/text.ts, the rule of all typed text), with which
 * "a\u202eb" displays reversed — a spoofing tool (Unicode TR #36 §2.1). Names in right-to-left scripts need none of them.
 */
export const UNSAFE_NAME_CHARS = new RegExp(`[\\u0000-\\u001f\\u007f${BIDI_CONTROL_CLASS}]`);
const CONTROL = UNSAFE_NAME_CHARS;

/** True when `v` is one email address (zod's pattern, ≤ 254 characters, no display name, no list). */
export function isEmailAddress(v: string): boolean {
  return v.length <= MAX_ADDRESS && z.email().safeParse(v).success;
}

function text(input: Record<string, unknown>, field: (typeof textFields)[number]): string | undefined | { bad: string } {
  const v = input[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') return { bad: `${field}: must be text` };
  return v.trim();
}

/**
 * Checks a settings save: `input` is the body (`{ name, timeZone, senderName, senderEmail, replyTo, locale,
 * emailProvider }`, strings; `null` or "" for the optional `senderName` / `replyTo` = none); every field is
 * required except those two. Returns the value to store (trimmed; `locale` canonical, e.g. `en-gb` → `en-GB`) or
 * the first problem, `message` starting with the field's name.
 */
export function checkOrgSettings(input: unknown): OrgSettingsCheck {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return { ok: false, field: 'body', message: 'request body: must be a JSON object' };
  const b = input as Record<string, unknown>;
  const got: Partial<Record<(typeof textFields)[number], string | undefined>> = {};
  for (const f of textFields) {
    const t = text(b, f);
    if (t && typeof t === 'object') return { ok: false, field: f, message: t.bad };
    got[f] = t;
  }
  const fail = (field: OrgSettingsField, message: string): OrgSettingsCheck => ({ ok: false, field, message: `${field}: ${message}` });

  const name = got.name ?? '';
  if (!name) return fail('name', 'required: the organisation’s name');
  if (name.length > MAX_NAME) return fail('name', `at most ${MAX_NAME} characters`);
  const nameBidi = bidiControlProblem(name);
  if (nameBidi) return fail('name', nameBidi);
  if (CONTROL.test(name)) return fail('name', 'must be one line without control characters');
  // It is the display name of the organisation's mail: "=?" would read as an RFC 2047 encoded word to many mail
  // programs (which decode one even inside quotes), showing another name than the one typed.
  if (name.includes('=?')) return fail('name', 'must not contain “=?” (mail programs would read it as an encoded name)');

  const zone = got.timeZone ?? '';
  if (!zone) return fail('timeZone', 'required: an IANA time zone such as Europe/Amsterdam');
  if (!isValidZone(zone)) {
    const s = suggestZone(zone);
    return fail('timeZone', `“${zone.slice(0, 60)}” is not a time zone${s ? ` — did you mean ${s}?` : ': use an IANA name such as Europe/Amsterdam'}`);
  }

  const senderName = got.senderName || null;
  if (senderName && senderName.length > MAX_NAME) return fail('senderName', `at most ${MAX_NAME} characters`);
  const senderBidi = senderName && bidiControlProblem(senderName);
  if (senderBidi) return fail('senderName', senderBidi);
  if (senderName && CONTROL.test(senderName)) return fail('senderName', 'must be one line without control characters');
  if (senderName && senderName.includes('=?')) return fail('senderName', 'must not contain “=?” (mail programs would read it as an encoded name)');

  const senderEmail = got.senderEmail ?? '';
  if (!senderEmail) return fail('senderEmail', 'required: the address your mail comes from');
  if (!isEmailAddress(senderEmail)) return fail('senderEmail', `“${senderEmail.slice(0, 80)}” is not an email address such as reminders@example.com`);

  const replyTo = got.replyTo || null;
  if (replyTo && !isEmailAddress(replyTo)) return fail('replyTo', `“${replyTo.slice(0, 80)}” is not an email address (leave it empty for none)`);

  const typedLocale = got.locale ?? '';
  if (!typedLocale) return fail('locale', 'required: a language tag such as en, nl or pt-BR');
  const locale = canonicalLocale(typedLocale);
  if (!locale) return fail('locale', `“${typedLocale.slice(0, 40)}” is not a BCP 47 language tag such as en, nl or pt-BR`);

  const provider = got.emailProvider ?? '';
  if (!(emailProviders as readonly string[]).includes(provider)) return fail('emailProvider', `must be one of ${emailProviders.join(', ')}`);

  const limit = smsSegmentLimitOf(b.smsSegmentLimit);
  if (typeof limit === 'string') return fail('smsSegmentLimit', limit);

  const threshold = unconfirmedAlertThresholdOf(b.unconfirmedAlertThreshold);
  if (typeof threshold === 'string') return fail('unconfirmedAlertThreshold', threshold);

  return {
    ok: true,
    value: { name, timeZone: zone, senderName, senderEmail, replyTo, locale, emailProvider: provider as EmailProvider, smsSegmentLimit: limit, unconfirmedAlertThreshold: threshold },
  };
}

/**
 * `unconfirmedAlertThreshold` as sent: absent → undefined (keep), null or "" → null (off), a whole number of people
 * from 0 to 10000 (a number, or digits from a plain form) → that number; anything else → what is wrong.
 */
function unconfirmedAlertThresholdOf(v: unknown): number | null | undefined | string {
  if (v === undefined) return undefined;
  if (v === null || (typeof v === 'string' && v.trim() === '')) return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  const { min, max } = UNCONFIRMED_ALERT_RANGE;
  if (!Number.isInteger(n) || n < min || n > max) return `must be a whole number of people from ${min} to ${max}, or empty for no alert`;
  return n;
}

/**
 * `smsSegmentLimit` as sent (a number, or digits from a plain form): the number, null when absent (a client that does
 * not know the field: keep the limit), or what is wrong — an emptied field ("") is a mistake to name, not "keep".
 */
function smsSegmentLimitOf(v: unknown): number | null | string {
  if (v === undefined || v === null) return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  const { min, max } = SMS_SEGMENT_LIMIT_RANGE;
  if (!Number.isInteger(n) || n < min || n > max) return `must be a whole number of segments from ${min} to ${max}`;
  return n;
}

/** The fields that differ, each `{ from, to }` (the audit entry's details); empty when nothing changed. */
export function changedSettings(before: OrgSettings, after: OrgSettings): Partial<Record<OrgSettingsField, { from: string | number | null; to: string | number | null }>> {
  const out: Partial<Record<OrgSettingsField, { from: string | number | null; to: string | number | null }>> = {};
  for (const f of orgSettingsFields) if (before[f] !== after[f]) out[f] = { from: before[f], to: after[f] };
  return out;
}

/** The display name of the organisation's mail: its sender name, or its name when none is set. */
export function senderNameOf(t: { name: string; senderName: string | null }): string {
  return t.senderName?.trim() || t.name;
}

// ------------------------------------------------------------------------------------------ test messages

export const testMessageStatuses = ['pending', 'sent', 'failed', 'unknown'] as const;
export type TestMessageStatus = (typeof testMessageStatuses)[number];

/** At most one test message per organisation in this many ms. */
const TEST_MESSAGE_INTERVAL_MS = 10_000;
/** After this many ms without an answer the page says "no answer yet — is a worker running?". */
export const TEST_MESSAGE_PATIENCE_MS = 20_000;

/**
 * How long (ms) until another test message may be asked for, given when the last one was (`last`, UTC instant,
 * or null for none) and `now` (the database clock): 0 = now.
 */
export function testMessageWaitMs(last: Date | null, now: Date): number {
  if (!last) return 0;
  return Math.max(0, last.getTime() + TEST_MESSAGE_INTERVAL_MS - now.getTime());
}

/** The refusal of a test message asked for too soon: "… try again in N s." (N ≥ 1, whole seconds). */
export function testMessageTooSoon(waitMs: number): string {
  return `One test message per 10 seconds: the last one was asked for moments ago — try again in ${Math.max(1, Math.ceil(waitMs / 1000))} s.`;
}

/**
 * What a provider's outcome (channels/*, classified by domain/sending/smtp-outcome.ts / domain/sending/http-outcome.ts) means for a
 * test message: `accepted` → `sent`; `ambiguous` → `unknown` (it may or may not have gone out); anything else →
 * `failed`. `answer` is the provider's own answer verbatim (`250 2.0.0 Ok: queued as …`, `550 5.1.1 …`, an HTTP
 * body) when it gave one, else what happened (`ECONNREFUSED: connect ECONNREFUSED …`).
 */
export function testMessageResult(o: Outcome): { status: Exclude<TestMessageStatus, 'pending'>; answer: string } {
  if (o.class === 'accepted') return { status: 'sent', answer: o.response?.trim() || `accepted (message id ${o.providerId})` };
  const answer = o.response?.trim() || (o.message && o.message !== o.code ? `${o.code}: ${o.message}` : o.code);
  return { status: o.class === 'ambiguous' ? 'unknown' : 'failed', answer };
}
