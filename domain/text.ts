/**
 * Text that can and cannot be stored (pure): what PostgreSQL cannot hold, and the text-direction controls that typed
 * text must not contain.
 */
import { z } from 'zod';

/**
 * The dotted path of the first string in `value` that PostgreSQL text/JSON cannot hold — a NUL character or
 * a lone UTF-16 surrogate — or null when every string is storable.
 */
export function unstorableText(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value) ? path || 'body' : null;
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const hit = unstorableText(v, path ? `${path}.${k}` : k);
      if (hit) return hit;
    }
  }
  return null;
}


// ------------------------------------------------------------------------------ text-direction controls

/**
 * The nine Unicode bidirectional formatting characters that open or close an embedding, an override or an isolate
 * (Unicode Standard Annex #9 "Unicode Bidirectional Algorithm", TR9 §2.1–§2.4), by code point:
 * U+202A LRE, U+202B RLE, U+202C PDF, U+202D LRO, U+202E RLO, U+2066 LRI, U+2067 RLI, U+2068 FSI, U+2069 PDI.
 * With them, text shows in another order than it is stored — "a\u202Egpj.exe" reads "aexe.jpg" — which is the
 * "Trojan Source" attack (CVE-2021-42574) and the spoofing of Unicode TR #36 §2.1.
 */
export const BIDI_CONTROL_NAMES: Readonly<Record<string, string>> = {
  '\u202a': 'LEFT-TO-RIGHT EMBEDDING',
  '\u202b': 'RIGHT-TO-LEFT EMBEDDING',
  '\u202c': 'POP DIRECTIONAL FORMATTING',
  '\u202d': 'LEFT-TO-RIGHT OVERRIDE',
  '\u202e': 'RIGHT-TO-LEFT OVERRIDE',
  '\u2066': 'LEFT-TO-RIGHT ISOLATE',
  '\u2067': 'RIGHT-TO-LEFT ISOLATE',
  '\u2068': 'FIRST STRONG ISOLATE',
  '\u2069': 'POP DIRECTIONAL ISOLATE',
};

/**
 * The {@link BIDI_CONTROL_NAMES} characters as the inside of a regular-expression character class
 * (`[${BIDI_CONTROL_CLASS}]`), for patterns that refuse more than these (domain/organisations/org-settings.ts).
 */
export const BIDI_CONTROL_CLASS = '\\u202a-\\u202e\\u2066-\\u2069';
const BIDI_CONTROL = new RegExp(`[${BIDI_CONTROL_CLASS}]`);
const BIDI_CONTROLS = new RegExp(`[${BIDI_CONTROL_CLASS}]`, 'g');

/**
 * Why typed text may not be stored as it is: the first text-direction control in it, as
 * `must not contain U+202E RIGHT-TO-LEFT OVERRIDE (text-direction controls U+202A–U+202E and U+2066–U+2069 can make
 * text show in another order than it was typed)`; null when there is none.
 *
 * The rule of every text a person types that reaches a message or a page (titles, places, descriptions, names,
 * reasons, notes; the organisation's name): these nine characters are refused, never stripped, so what is stored is
 * what was typed. Allowed, because they reorder nothing beyond themselves: right-to-left letters (Hebrew, Arabic …),
 * which the messages isolate themselves (domain/text-direction.ts), and the zero-width direction MARKS U+200E LRM,
 * U+200F RLM and U+061C ALM, which behave as one strong letter (UAX #9 §2.6) and which keyboards and word processors
 * insert into right-to-left text. The messages' own isolates (domain/text-direction.ts `isolateTyped`) are added
 * when a message is made, after this check, and never stored.
 */
export function bidiControlProblem(text: string): string | null {
  const m = BIDI_CONTROL.exec(text);
  if (!m) return null;
  const ch = m[0];
  return `must not contain ${codePointName(ch)} (text-direction controls U+202A–U+202E and U+2066–U+2069 can make text show in another order than it was typed)`;
}

/** `U+202E RIGHT-TO-LEFT OVERRIDE` for one of the nine characters. */
function codePointName(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} ${BIDI_CONTROL_NAMES[ch]}`;
}

/**
 * The zod check of typed text: `z.string().trim().max(200).check(refuseBidiControls)` fails with the
 * {@link bidiControlProblem} message, so a route's 400 reads `title: must not contain U+202E RIGHT-TO-LEFT OVERRIDE …`
 * and names the field (server/platform/errors.ts fromZodError).
 */
export const refuseBidiControls = z.superRefine<string>((value, ctx) => {
  const problem = bidiControlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
});

/**
 * `text` with each text-direction control replaced by a visible `<U+202E>`, for echoing a refused value in a message
 * (the value must not reorder the message that quotes it).
 */
export function showBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (ch) => `<U+${ch.codePointAt(0)!.toString(16).toUpperCase()}>`);
}
