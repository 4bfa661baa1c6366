/**
 * A tenant's SMS sender as staff type it (issue #9 §4, "a per-tenant sender"). Pure: no I/O, no clock.
 *
 * Two kinds are accepted, as a Twilio-compatible `From` takes them:
 * - a phone number the tenant owns, in E.164 (validated with {@link parsePhone}, no default country: a sender
 *   is typed in international form, "+31 6 12345678" → "+31612345678");
 * - an alphanumeric sender id ("Punctual", "ACME2"): 1–11 ASCII letters and digits with at least one letter
 *   (Twilio, "Alphanumeric Sender ID": up to 11 characters; an all-digit value would read as a short code or
 *   number, so it is treated as a phone number). Spaces are refused here although some carriers take them:
 *   they are dropped or refused differently per country, so the sender shown to staff would not be the one a
 *   person sees.
 *
 * Input that consists only of digits and phone punctuation (`+ ( ) - . /`, spaces) is read as a phone number;
 * anything with a letter as a sender id. Empty (after trimming) means "no sender of our own" (null: the
 * worker's default `SMS_FROM`).
 */
import { parsePhone, phoneFormatHint } from '@/domain/phone';

type SmsSenderResult = { ok: true; sender: string | null } | { ok: false; message: string };

/** Longest alphanumeric sender id, in characters (Twilio: 11). */
const maxSenderIdLength = 11;

const phoneLike = /^[\d\s+().\-/]+$/;
const senderId = /^[A-Za-z0-9]+$/;

/** Validates an SMS sender (module rules); never throws. Messages read after "smsSender: ". */
export function parseSmsSender(input: string): SmsSenderResult {
  const s = input.trim();
  if (s === '') return { ok: true, sender: null };
  if (phoneLike.test(s)) {
    const p = parsePhone(s);
    if (p.ok) return { ok: true, sender: p.e164 };
    return { ok: false, message: p.message };
  }
  if (!senderId.test(s)) {
    const bad = [...s].find((c) => !/[A-Za-z0-9]/.test(c)) ?? '';
    const what = /\s/.test(bad) ? 'a space' : `"${bad}"`;
    return {
      ok: false,
      message: `a sender name may only contain letters A–Z and digits (it contains ${what}); or use a phone number in international form, e.g. +31612345678`,
    };
  }
  if (s.length > maxSenderIdLength) {
    return { ok: false, message: `a sender name has at most ${maxSenderIdLength} letters and digits (this one has ${s.length})` };
  }
  return { ok: true, sender: s };
}

/** The hint shown under the sender field. */
export const smsSenderHint = `A phone number in international form (${phoneFormatHint.replace(/^must be a phone number in international form, /, '')}) or a sender name of 1–${maxSenderIdLength} letters and digits. Empty: the default sender.`;
