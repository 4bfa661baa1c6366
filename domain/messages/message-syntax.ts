/**
 * Reading a message written in ICU MessageFormat (DESIGN §3 "Message text"): is it valid, and which variables does
 * it use, how. Pure: the parser is the one `intl-messageformat` formats with (@formatjs/icu-messageformat-parser,
 * with `ignoreTag`, as the formatter is configured in emails/messages/index.ts: "<" is text, never markup).
 *
 * Used by the check of the built-in text (test/unit/message-catalog.test.ts: every language's message has exactly
 * the English message's variables, used the same way) and meant for the check of text staff write before it is
 * saved (an unknown variable or a syntax error is an error naming the line and the variable, invariant 5).
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/** How a message uses a variable. */
export type ArgumentKind = 'text' | 'number' | 'date' | 'time' | 'select' | 'plural' | 'selectordinal';

export interface MessageArgument {
  name: string;
  kind: ArgumentKind;
  /** For `select` / `plural` / `selectordinal`: the option keys (e.g. ["yes", "other"], ["=0", "one", "other"]), sorted. */
  options?: string[];
}

export type MessageSyntax =
  | { ok: true; arguments: MessageArgument[] }
  /** `error` is the parser's kind (e.g. "EXPECT_ARGUMENT_CLOSING_BRACE", "MISSING_OTHER_CLAUSE"); line and column 1-based. */
  | { ok: false; error: string; line: number; column: number };

const KIND: Partial<Record<TYPE, ArgumentKind>> = {
  [TYPE.argument]: 'text',
  [TYPE.number]: 'number',
  [TYPE.date]: 'date',
  [TYPE.time]: 'time',
  [TYPE.select]: 'select',
};

function collect(elements: MessageFormatElement[], into: Map<string, MessageArgument>): void {
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    if (el.type === TYPE.tag) {
      collect(el.children, into);
      continue;
    }
    const kind: ArgumentKind = el.type === TYPE.plural ? (el.pluralType === 'ordinal' ? 'selectordinal' : 'plural') : (KIND[el.type] ?? 'text');
    const options = el.type === TYPE.select || el.type === TYPE.plural ? Object.keys(el.options).sort() : undefined;
    if (!into.has(el.value)) into.set(el.value, options ? { name: el.value, kind, options } : { name: el.value, kind });
    if (el.type === TYPE.select || el.type === TYPE.plural) {
      for (const option of Object.values(el.options)) collect(option.value, into);
    }
  }
}

/**
 * Parses `source` and lists the variables it uses (in order of first use; a variable used twice is listed once,
 * as first used). Never throws: a syntax error is `{ ok: false }` with where it is.
 */
export function readMessage(source: string): MessageSyntax {
  let ast: MessageFormatElement[];
  try {
    ast = parse(source, { ignoreTag: true });
  } catch (e) {
    const location = (e as { location?: { start?: { line?: number; column?: number } } }).location?.start;
    return { ok: false, error: e instanceof Error ? e.message : String(e), line: location?.line ?? 1, column: location?.column ?? 1 };
  }
  const found = new Map<string, MessageArgument>();
  collect(ast, found);
  return { ok: true, arguments: [...found.values()] };
}

/** One use of a variable in a message, with where it is (1-based line and column of its opening brace). */
export interface VariableUse extends MessageArgument {
  line: number;
  column: number;
}

function collectUses(elements: MessageFormatElement[], into: VariableUse[]): void {
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    if (el.type === TYPE.tag) {
      collectUses(el.children, into);
      continue;
    }
    const kind: ArgumentKind = el.type === TYPE.plural ? (el.pluralType === 'ordinal' ? 'selectordinal' : 'plural') : (KIND[el.type] ?? 'text');
    const options = el.type === TYPE.select || el.type === TYPE.plural ? Object.keys(el.options).sort() : undefined;
    const start = el.location?.start;
    const at = { line: start?.line ?? 1, column: start?.column ?? 1 };
    into.push(options ? { name: el.value, kind, options, ...at } : { name: el.value, kind, ...at });
    if (el.type === TYPE.select || el.type === TYPE.plural) {
      for (const option of Object.values(el.options)) collectUses(option.value, into);
    }
  }
}

/**
 * Every use of a variable in `source`, in order of appearance (a variable used twice is listed twice), each with its
 * line and column — for naming where an unknown or misused variable is. Same parser options as {@link readMessage}.
 * Never throws: a syntax error is `{ ok: false }` as from {@link readMessage}.
 */
export function variableUses(source: string): { ok: true; uses: VariableUse[] } | Extract<MessageSyntax, { ok: false }> {
  let ast: MessageFormatElement[];
  try {
    ast = parse(source, { ignoreTag: true, captureLocation: true });
  } catch (e) {
    const location = (e as { location?: { start?: { line?: number; column?: number } } }).location?.start;
    return { ok: false, error: e instanceof Error ? e.message : String(e), line: location?.line ?? 1, column: location?.column ?? 1 };
  }
  const uses: VariableUse[] = [];
  collectUses(ast, uses);
  return { ok: true, uses };
}
