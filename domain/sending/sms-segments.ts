/**
 * SMS segment counting (issue #9 §4): how many message parts a text costs, before it is sent. Pure.
 *
 * Encoding (3GPP TS 23.038, "GSM 03.38", §6.2.1 default alphabet and §6.2.1.1 extension table):
 *  - GSM-7 when every character is in the basic character set (1 septet each) or the extension table
 *    (`^ { } \ [ ~ ] | €` and form feed: 2 septets each — ESC plus the character);
 *  - otherwise UCS-2, counting UTF-16 code units (a character outside the Basic Multilingual Plane, such as
 *    an emoji, is a surrogate pair: 2 units). One character outside GSM-7 switches the whole message.
 *
 * Limits (3GPP TS 23.040 §9.2.3.24.1: a concatenated message spends 6 octets of each part on the user data
 * header, i.e. 7 septets or 3 UCS-2 characters): GSM-7 160 units in a single message, 153 per part when
 * concatenated; UCS-2 70 single, 67 per part.
 *
 * Part boundaries: a 2-septet escape sequence and a surrogate pair are never split across two parts (a phone
 * would show garbage), so a part that has 1 unit left when such a character comes is closed short and the
 * character starts the next part. `segments` can therefore exceed `ceil(units / perSegment)`.
 */

type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegmentCount {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) of the whole text. */
  units: number;
  /** Message parts the text is sent as; 0 for the empty string (nothing to send). */
  segments: number;
  /** Units one part can hold: 160/70 for a single message (and for the empty string), 153/67 when concatenated. */
  perSegment: number;
}

/**
 * GSM 03.38 basic character set, in code-point order of the table (0x00–0x7F). 0x1B (ESC) is absent: it
 * introduces the extension table and is not a character a text can contain. 0x09 is 'Ç' as the standard
 * prints it (some phones show 'ç'; the lowercase letter is not in the table).
 */
const gsmBasic =
  '@£$¥èéùìòÇ\nØø\rÅå' +
  'Δ_ΦΓΛΩΠΨΣΘΞ' + 'ÆæßÉ' +
  ' !"#¤%&\'()*+,-./' +
  '0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§' +
  '¿abcdefghijklmnopqrstuvwxyzäöñüà';

/** GSM 03.38 extension table: each costs 2 septets (ESC + code). */
const gsmExtension = '\f^{}\\[~]|€';

const basicSet = new Set(gsmBasic);
const extensionSet = new Set(gsmExtension);

/** GSM-7 single-message and per-part capacity, in septets. */
const gsm7Limits = { single: 160, perPart: 153 } as const;
/** UCS-2 single-message and per-part capacity, in UTF-16 code units. */
const ucs2Limits = { single: 70, perPart: 67 } as const;

/** Septets one character costs in GSM-7: 1 (basic), 2 (extension), or null (not representable). */
export function gsm7Septets(ch: string): 1 | 2 | null {
  if (basicSet.has(ch)) return 1;
  if (extensionSet.has(ch)) return 2;
  return null;
}

/** Packs indivisible costs into parts of `perPart` units; a cost never straddles two parts. */
function packParts(costs: number[], perPart: number): number {
  let parts = 1;
  let used = 0;
  for (const c of costs) {
    if (used + c > perPart) {
      parts += 1;
      used = 0;
    }
    used += c;
  }
  return parts;
}

/**
 * Counts the encoding, units and message parts of an SMS body (module doc for the rules and sources).
 * The empty string is `{ encoding: 'GSM-7', units: 0, segments: 0, perSegment: 160 }`: nothing to send.
 * Never throws; a lone surrogate counts as one UCS-2 unit.
 */
export function countSmsSegments(text: string): SmsSegmentCount {
  // Iterating a string yields code points: a surrogate pair is one item of length 2.
  const chars = [...text];
  const septets = chars.map(gsm7Septets);
  const gsm = septets.every((s) => s !== null);
  const costs = gsm ? (septets as number[]) : chars.map((ch) => ch.length);
  const limits = gsm ? gsm7Limits : ucs2Limits;
  const units = costs.reduce((a, b) => a + b, 0);
  const encoding: SmsEncoding = gsm ? 'GSM-7' : 'UCS-2';
  if (units === 0) return { encoding, units: 0, segments: 0, perSegment: limits.single };
  if (units <= limits.single) return { encoding, units, segments: 1, perSegment: limits.single };
  return { encoding, units, segments: packParts(costs, limits.perPart), perSegment: limits.perPart };
}
