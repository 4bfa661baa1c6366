/**
 * Phone number validation for SMS recipients and senders (issue #9 §4): any human spelling in, one E.164
 * string out ("+31612345678", ITU-T E.164 as Twilio's `To`/`From` expect it). Pure: no I/O, no clock.
 *
 * Uses libphonenumber-js with its `max` metadata, so `isValid()` checks the digits against the country's
 * numbering plan (the default `min` metadata only checks length, i.e. `isPossible()`): a number of the right
 * length that no operator can have ("+31 99 1234567") is refused. The metadata is as current as the pinned
 * package version; a newly allocated number range is refused until the package is upgraded.
 *
 * A valid landline number is accepted: whether a number can receive SMS is the provider's answer (Twilio
 * 21614 → rejected, suppressed as `invalid_number`, domain/sending/sms-outcome.ts).
 */
import { parsePhoneNumberWithError, ParseError, validatePhoneNumberLength, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';

/** The example every refusal ends with. */
export const phoneFormatHint = 'must be a phone number in international form, e.g. +31612345678';

type ParsedPhone = { ok: true; e164: string } | { ok: false; message: string };

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function where(p: PhoneNumber): string {
  if (!p.country) return `with country code +${p.countryCallingCode}`;
  let name: string = p.country;
  try {
    name = regionNames.of(p.country) ?? p.country;
  } catch {
    // keep the ISO code
  }
  return `in ${name} (+${p.countryCallingCode})`;
}

function parse(s: string, defaultCountry?: CountryCode): PhoneNumber | null {
  try {
    return parsePhoneNumberWithError(s, { defaultCountry, extract: false });
  } catch {
    return null;
  }
}

/** Digits of E.164 without the '+', at most 15 (ITU-T E.164 §6.1); libphonenumber allows 17 national digits. */
const maxE164Digits = 15;

/**
 * Whether an invalid number is too short or too long: the country's possible lengths first (libphonenumber's
 * `validatePhoneNumberLength`), then — because a country's possible lengths span all its number types (NL
 * allows 5 digits) — whether it is the start of a valid number (padding with a repeated digit) or a valid one
 * with digits left over (dropping trailing digits). Bounded (≤ 150 parses).
 */
function lengthProblem(e164: string): 'too short' | 'too long' | null {
  const l = validatePhoneNumberLength(e164);
  if (l === 'TOO_SHORT') return 'too short';
  if (l === 'TOO_LONG') return 'too long';
  const digits = e164.length - 1;
  for (let k = 1; digits + k <= maxE164Digits; k++) {
    for (let d = 0; d <= 9; d++) if (parse(e164 + String(d).repeat(k))?.isValid()) return 'too short';
  }
  for (let k = 1; digits - k >= 4; k++) if (parse(e164.slice(0, -k))?.isValid()) return 'too long';
  return null;
}

/**
 * Parses a phone number as a person types it ("+31 6 12345678", "+31 (0)6-1234 5678", "0612345678" with
 * `defaultCountry` 'NL', "0031612345678") into E.164.
 *
 * Refused, each with a message that names the problem and ends with {@link phoneFormatHint}: empty input;
 * letters (also "ext. 12": a text message cannot reach an extension); characters other than digits, spaces
 * and `+ ( ) - . /`; no country code without `defaultCountry`; an unknown country calling code; too short or
 * too long for the country; a number that is not valid in the country's numbering plan (`isValid()`).
 * Never throws.
 * @param defaultCountry ISO 3166-1 alpha-2 country for numbers written without `+` (the tenant's country).
 */
export function parsePhone(input: string, defaultCountry?: CountryCode): ParsedPhone {
  const s = input.trim();
  const quoted = `"${s.length > 40 ? `${s.slice(0, 40)}…` : s}"`;
  const no = (problem: string): ParsedPhone => ({ ok: false, message: `${problem}; ${phoneFormatHint}` });
  if (s === '') return no('phone number is empty');
  const letters = s.match(/\p{L}+/u);
  if (letters) return no(`${quoted} contains letters ("${letters[0]}")`);
  const other = s.match(/[^\d\s+().\-/]/u);
  if (other) return no(`${quoted} contains "${other[0]}", which is not part of a phone number`);
  if (!/\d/.test(s)) return no(`${quoted} contains no digits`);
  if (s.indexOf('+') > 0 || (s.match(/\+/g) ?? []).length > 1) return no(`${quoted} has a "+" that is not at the start`);

  let p: PhoneNumber;
  try {
    p = parsePhoneNumberWithError(s, { defaultCountry, extract: false });
  } catch (e) {
    const reason = e instanceof ParseError ? e.message : String(e);
    switch (reason) {
      case 'INVALID_COUNTRY':
        if (s.startsWith('+')) return no(`${quoted} starts with a country calling code that does not exist`);
        return no(`${quoted} has no country code`);
      case 'TOO_SHORT':
        return no(`${quoted} is too short for a phone number`);
      case 'TOO_LONG':
        return no(`${quoted} is too long for a phone number`);
      default:
        return no(`${quoted} is not a phone number`);
    }
  }
  if (p.ext) return no(`${quoted} has an extension; a text message cannot be sent to an extension`);
  if (!p.isValid()) {
    const length = lengthProblem(p.number);
    if (length) return no(`${quoted} is ${length} for a number ${where(p)}`);
    return no(`${quoted} is not a valid number ${where(p)}`);
  }
  return { ok: true, e164: p.number };
}
