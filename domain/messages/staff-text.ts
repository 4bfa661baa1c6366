/**
 * The check of message text staff write (issue #22 §2, DESIGN invariant 5: message text is validated when it is
 * saved): a draft of one message kind in one language — subject, body, SMS text — is either fine or a list of
 * errors, each naming the field, the 1-based line (and column) in that field and, where it is about one, the
 * variable. Pure: no I/O, no clock; the ICU parser and formatter are packages (intl-messageformat and its parser,
 * with `ignoreTag` as in emails/messages/index.ts).
 *
 * What a draft is:
 * - `subject` — one line of plain text in ICU MessageFormat (at most {@link limits}.subject characters).
 * - `body` — ICU MessageFormat whose literal text is a small, safe Markdown subset: paragraphs (blank line between),
 *   `**bold**`, `*italic*`, `[text](https://…)` links (or `[text]({url})` with a link variable of the kind), and
 *   lists of lines starting "- ". No raw HTML (a `<` that starts a tag, comment or `<!…>`/`<?…>`), no images.
 * - `sms` — plain ICU text; its segments (domain/sending/sms-segments.ts) counted with the kind's sample values
 *   (domain/messages/message-variables.ts) must not exceed the limit the caller passes.
 *
 * Errors (`code`):
 * - `required` — the field is empty (only spaces); `too_long` — over {@link limits}; `multiline` — a subject with a
 *   line break.
 * - `syntax` — ICU MessageFormat syntax error (the parser's kind, e.g. EXPECT_ARGUMENT_CLOSING_BRACE) where it is.
 * - `unknown_variable` — `{x}` that is not a variable of this kind: names `variable`, lists `known` (every
 *   variable of the kind) and, when one is close (same letters in another case, or at most 2 edits), `suggestion`.
 * - `variable_use` — a known variable used the wrong way (`{eventTitle, plural, …}`, `{allDay}` without select), or
 *   one that may be empty (`{eventNote}`) not on a line of its own in the body;
 *   `option` — a select option a choice never takes (`{allDay, select, ja {…} other {…}}`).
 * - `raw_placeholder` — quoting (`'{eventTitle}'`) that would print braces as they are in the reader's message.
 * - `link` — a Markdown link whose target is neither an http(s) URL nor a link variable; `image` — Markdown image;
 *   `html` — raw HTML in the body.
 * - `sms_segments` — the SMS would take more segments than `smsSegmentLimit`.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { countSmsSegments } from '@/domain/sending/sms-segments';
import type { MessageKind } from '@/domain/vocabulary';
import { variableUses, type VariableUse } from './message-syntax';
import { messageVariables, sampleValues, type MessageVariable } from './message-variables';

/** The three texts of one message kind in one language, as staff write them. */
export interface StaffDraft {
  subject: string;
  body: string;
  sms: string;
}
export type StaffTextField = keyof StaffDraft;
export const staffTextFields: readonly StaffTextField[] = ['subject', 'body', 'sms'];

/** Longest text each field may hold, in UTF-16 code units (characters of ordinary text). */
export const limits: Readonly<Record<StaffTextField, number>> = { subject: 200, body: 20_000, sms: 1_600 };

export type StaffTextErrorCode =
  | 'required'
  | 'too_long'
  | 'multiline'
  | 'syntax'
  | 'unknown_variable'
  | 'variable_use'
  | 'option'
  | 'raw_placeholder'
  | 'link'
  | 'image'
  | 'html'
  | 'sms_segments';

export interface StaffTextError {
  field: StaffTextField;
  /** 1-based line in the field's text. */
  line: number;
  /** 1-based column, when the error is at one place. */
  column?: number;
  code: StaffTextErrorCode;
  /** The variable the error is about (unknown_variable, variable_use, option). */
  variable?: string;
  /** unknown_variable: every variable of the kind, in the editor's order. */
  known?: string[];
  /** unknown_variable: the known variable it most likely meant. */
  suggestion?: string;
  /** One sentence for a staff member, naming field, line and variable. */
  message: string;
}

export type StaffTextCheck = { ok: true } | { ok: false; errors: StaffTextError[] };

export interface StaffTextInput {
  kind: MessageKind;
  /** The language of the text (BCP 47, e.g. "de"): plural rules of the SMS estimate. */
  locale: string;
  draft: StaffDraft;
  /** Most SMS segments the text may take with the sample values (a positive whole number). */
  smsSegmentLimit: number;
}

const fieldLabel: Record<StaffTextField, string> = { subject: 'Subject', body: 'Body', sms: 'SMS text' };

/** 1-based line and column of offset `i` in `text`. */
function position(text: string, i: number): { line: number; column: number } {
  const before = text.slice(0, i);
  const line = before.split('\n').length;
  return { line, column: i - before.lastIndexOf('\n') };
}

/** Levenshtein distance, stopping early above `max` (returns max + 1 then). */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...cur) > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** The known name `name` most likely meant: same letters in another case, else the nearest within 2 edits. */
function suggest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameCase = known.find((k) => k.toLowerCase() === lower);
  if (sameCase) return sameCase;
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = distance(lower, k.toLowerCase(), 2);
    if (d <= 2 && (!best || d < best.d)) best = { name: k, d };
  }
  return best?.name;
}

/** Errors of one use of a variable against the kind's variables. */
function checkUse(field: StaffTextField, use: VariableUse, vars: readonly MessageVariable[]): StaffTextError[] {
  const at = { field, line: use.line, column: use.column, variable: use.name };
  const where = `${fieldLabel[field]}, line ${use.line}`;
  const v = vars.find((x) => x.name === use.name);
  if (!v) {
    const known = vars.map((x) => x.name);
    const suggestion = suggest(use.name, known);
    return [
      {
        ...at,
        code: 'unknown_variable',
        known,
        ...(suggestion ? { suggestion } : {}),
        message: `${where}: {${use.name}} is not a variable of this message${suggestion ? ` — did you mean {${suggestion}}?` : '.'} This message can use: ${known.map((k) => `{${k}}`).join(', ')}.`,
      },
    ];
  }
  const allowed: Record<MessageVariable['type'], readonly string[]> = {
    text: ['text'],
    link: ['text'],
    choice: ['select'],
    number: ['text', 'number', 'plural', 'selectordinal'],
  };
  if (!allowed[v.type].includes(use.kind)) {
    const how =
      v.type === 'choice'
        ? `it is one of ${v.values?.join(', ')}: use it as {${v.name}, select, ${v.values?.[0]} {…} other {…}}`
        : v.type === 'number'
          ? `it is a number: write {${v.name}} or {${v.name}, plural, one {…} other {…}}`
          : `it is text: write it as {${v.name}}`;
    return [{ ...at, code: 'variable_use', message: `${where}: {${use.name}} cannot be used with ${use.kind} — ${how}.` }];
  }
  if (v.type === 'choice' && use.options) {
    const values = v.values ?? [];
    return use.options
      .filter((o) => o !== 'other' && !values.includes(o))
      .map((o) => ({ ...at, code: 'option' as const, message: `${where}: {${v.name}} is never "${o}" — its values are ${values.join(', ')} (and "other" for the rest).` }));
  }
  return [];
}

/**
 * A variable that may be empty (`ownLine`, the event's note) used in the body anywhere but on a line of its own: alone,
 * as a "- " list item, possibly wrapped in `*` or `**` (the renderer leaves such a line out when the value is empty).
 */
function checkOwnLines(body: string, uses: readonly VariableUse[], vars: readonly MessageVariable[]): StaffTextError[] {
  const lines = body.split('\n');
  return uses
    .filter((u) => vars.some((v) => v.name === u.name && v.ownLine))
    .filter((u) => !new RegExp(`^\\s*(?:- )?(\\*{0,2})\\{\\s*${u.name}\\s*\\}\\1\\s*$`).test(lines[u.line - 1] ?? ''))
    .map((u) => ({
      field: 'body' as const,
      line: u.line,
      column: u.column,
      variable: u.name,
      code: 'variable_use' as const,
      message: `Body, line ${u.line}: put {${u.name}} on a line of its own — it is empty when the event has no note for the reader, and such a line is then left out.`,
    }));
}

/** Raw HTML: a "<" that starts a tag (`<b`, `</p`), a comment or declaration (`<!`), or a processing instruction (`<?`). */
const htmlStart = /<(?:\/?[A-Za-z]|!|\?)/g;
/** A Markdown link or image: `[text](target)` / `![alt](target)`; the target up to the first ")" or white space. */
const markdownLink = /(!?)\[[^\]\n]*\]\(([^)\s]*)\)/g;
const httpUrl = /^https?:\/\/[^\s/?#]+\S*$/i;
const variableOnly = /^\{\s*([^\s{},]+)\s*\}$/;

/** The Markdown-subset errors of a body: raw HTML, images, links that are not http(s). */
function checkMarkdown(body: string, vars: readonly MessageVariable[]): StaffTextError[] {
  const errors: StaffTextError[] = [];
  for (const m of body.matchAll(htmlStart)) {
    const p = position(body, m.index);
    errors.push({ field: 'body', ...p, code: 'html', message: `Body, line ${p.line}: raw HTML ("${body.slice(m.index, m.index + 12).split('\n')[0]}…") is not allowed — use **bold**, *italic*, [text](https://…) and "- " lists.` });
  }
  for (const m of body.matchAll(markdownLink)) {
    const p = position(body, m.index);
    if (m[1] === '!') {
      errors.push({ field: 'body', ...p, code: 'image', message: `Body, line ${p.line}: images are not supported — link to it with [text](https://…) instead.` });
      continue;
    }
    const target = m[2];
    const variable = variableOnly.exec(target)?.[1];
    const isLinkVariable = variable !== undefined && vars.some((v) => v.name === variable && v.type === 'link');
    // An unknown variable as the target is reported once, as unknown_variable, by the ICU check.
    const unknownVariable = variable !== undefined && !vars.some((v) => v.name === variable);
    if (!httpUrl.test(target) && !isLinkVariable && !unknownVariable) {
      const links = vars.filter((v) => v.type === 'link').map((v) => `{${v.name}}`);
      errors.push({
        field: 'body',
        ...p,
        code: 'link',
        ...(variable ? { variable } : {}),
        message: `Body, line ${p.line}: the link target "${target}" is not an http(s) address — write https://…${links.length ? ` or ${links.join(', ')}` : ''}.`,
      });
    }
  }
  return errors;
}

/** Quoted braces: an apostrophe right before "{" or "}" prints the brace itself (ICU quoting). */
const quotedBrace = /(?<!')'[{}]/g;

/**
 * Checks a staff member's draft of message kind `kind` in language `locale` (module comment for every rule).
 * Never throws. Errors are ordered by field (subject, body, SMS), then line and column.
 */
export function checkStaffText(input: StaffTextInput): StaffTextCheck {
  const vars = messageVariables[input.kind];
  const errors: StaffTextError[] = [];
  const formatted: Partial<Record<StaffTextField, string>> = {};
  for (const field of staffTextFields) {
    const text = input.draft[field];
    const label = fieldLabel[field];
    if (text.trim() === '') {
      errors.push({ field, line: 1, code: 'required', message: `${label} is empty: write the text, or reset this message to Punctual's text.` });
      continue;
    }
    if (text.length > limits[field]) {
      errors.push({ field, line: position(text, limits[field]).line, code: 'too_long', message: `${label} is ${text.length} characters long; at most ${limits[field]}.` });
      continue;
    }
    if (field === 'subject' && /[\r\n]/.test(text)) {
      errors.push({ field, line: 2, code: 'multiline', message: 'Subject must be one line.' });
    }
    const read = variableUses(text);
    if (!read.ok) {
      errors.push({ field, line: read.line, column: read.column, code: 'syntax', message: `${label}, line ${read.line}, column ${read.column}: ${describeSyntaxError(read.error)} (${read.error}).` });
    } else {
      const before = errors.length;
      for (const use of read.uses) errors.push(...checkUse(field, use, vars));
      if (field === 'body' && errors.length === before) errors.push(...checkOwnLines(text, read.uses, vars));
      if (errors.length === before) {
        for (const m of text.matchAll(quotedBrace)) {
          const p = position(text, m.index);
          errors.push({ field, ...p, code: 'raw_placeholder', message: `${label}, line ${p.line}: the apostrophe before "${m[0][1]}" makes it print as a brace (ICU quoting) — for an apostrophe before a variable write ’ or two apostrophes ('').` });
        }
        if (errors.length === before) formatted[field] = format(text, input.locale, input.kind);
      }
    }
    if (field === 'body') errors.push(...checkMarkdown(text, vars));
  }
  const sms = formatted.sms;
  if (sms !== undefined) {
    const count = countSmsSegments(sms);
    if (count.segments > input.smsSegmentLimit) {
      errors.push({
        field: 'sms',
        line: 1,
        code: 'sms_segments',
        message: `SMS text takes ${count.segments} segments (${count.units} ${count.encoding === 'GSM-7' ? 'GSM-7 characters' : 'UCS-2 characters'} with example values); the limit is ${input.smsSegmentLimit}.`,
      });
    }
  }
  if (errors.length === 0) return { ok: true };
  const order = (f: StaffTextField) => staffTextFields.indexOf(f);
  errors.sort((a, b) => order(a.field) - order(b.field) || a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
  return { ok: false, errors };
}

/** The text formatted with the kind's sample values (only called on text whose variables all checked out). */
function format(text: string, locale: string, kind: MessageKind): string {
  let lang = 'en';
  try {
    lang = Intl.getCanonicalLocales(locale)[0] ?? 'en';
  } catch {
    // a malformed tag: English plural rules for the estimate
  }
  return String(new IntlMessageFormat(text, lang, undefined, { ignoreTag: true }).format(sampleValues(kind)));
}

/** A staff member's words for the ICU parser's error kinds (the kind itself is kept in the message). */
function describeSyntaxError(kind: string): string {
  if (kind.startsWith('EXPECT_ARGUMENT_CLOSING_BRACE') || kind === 'MALFORMED_ARGUMENT') return 'a "{" is not closed with "}"';
  if (kind === 'EMPTY_ARGUMENT') return '"{}" names no variable';
  if (kind === 'MISSING_OTHER_CLAUSE') return 'a select or plural needs an "other {…}" choice';
  if (kind.includes('UNMATCHED') || kind.includes('CLOSING_BRACE')) return 'a "}" has no "{"';
  return 'this is not valid message syntax';
}
