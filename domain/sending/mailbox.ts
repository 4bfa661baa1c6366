/**
 * One mailbox as header text (RFC 5322 §3.4 `mailbox = name-addr / addr-spec`), for providers that take a From line
 * as a string (the HTTP email API, channels/http-email.ts). The SMTP channel hands nodemailer address objects,
 * which quote the same way (nodemailer mime-node `_encodeAddressName`). Pure.
 */
import { encodeWord } from 'nodemailer/lib/mime-funcs';

/** RFC 5322 §3.2.3 atext, plus the space that separates the atoms of a phrase. */
const PHRASE_OF_ATOMS = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]+$/;
/** Printable US-ASCII (what a quoted-string may hold once `\` and `"` are escaped, RFC 5322 §3.2.4). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * The display name as an RFC 5322 phrase (§3.2.5): as it is when it is atoms separated by single spaces; a
 * quoted-string (§3.2.4) with `\` and `"` escaped when it holds any other printable ASCII (`,` `(` `"` `.` `@` …);
 * RFC 2047 encoded-words (UTF-8, base64) when it holds anything beyond ASCII. Line breaks and other controls are
 * replaced by a space first (they cannot be in a header, and the settings refuse them anyway).
 * `Atelier "De Klei", Gent (Oost)` → `"Atelier \"De Klei\", Gent (Oost)"`.
 */
export function encodeDisplayName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const n = name.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/ {2,}/g, ' ').trim();
  if (n === '') return '';
  if (PHRASE_OF_ATOMS.test(n)) return n;
  if (PRINTABLE_ASCII.test(n)) return `"${n.replace(/[\\"]/g, '\\$&')}"`;
  return encodeWord(n, 'B', 52);
}

/**
 * `name <address>` with the name encoded by {@link encodeDisplayName}; just the address when the name is empty.
 * The address is used as given (it was validated where it was set: domain/organisations/org-settings.ts isEmailAddress).
 */
export function formatMailbox(name: string | null | undefined, address: string): string {
  const phrase = encodeDisplayName(name ?? '');
  return phrase ? `${phrase} <${address}>` : address;
}
