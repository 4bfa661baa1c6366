/**
 * The check of a language's catalog against the English one (emails/messages/en.ts): the same message kinds and
 * keys, every message valid ICU MessageFormat, and every message using exactly the English message's variables,
 * each in the same way (text, select with the same options, plural with the same exact-number cases). Pure; run
 * by test/unit/message-catalog.test.ts for every shipped language.
 */
import { readMessage, type MessageArgument } from '@/domain/messages/message-syntax';

/** A catalog as plain data: kind → key → ICU message. */
export type CatalogShape = Readonly<Record<string, Readonly<Record<string, string>>>>;

function describeArgument(a: MessageArgument): string {
  if (a.kind === 'select') return `${a.name} (select: ${(a.options ?? []).join(', ')})`;
  // Plural categories differ by language (Hebrew has "two"); the exact-number cases ("=0") must match.
  if (a.kind === 'plural' || a.kind === 'selectordinal') return `${a.name} (${a.kind}: ${(a.options ?? []).filter((o) => o.startsWith('=')).join(', ')})`;
  return `${a.name} (${a.kind})`;
}

/**
 * Every difference between `catalog` and the reference `english` catalog, one line each ("nl common.greeting: uses
 * {naam} (text), which the English text lacks"); empty when the catalog is complete and consistent. A syntax error
 * in either names the parser's error and line:column.
 */
export function catalogProblems(language: string, english: CatalogShape, catalog: CatalogShape): string[] {
  const problems: string[] = [];
  for (const kind of Object.keys(english)) {
    if (!Object.hasOwn(catalog, kind)) {
      problems.push(`${language} ${kind}: missing`);
      continue;
    }
    for (const key of Object.keys(english[kind]!)) {
      const where = `${language} ${kind}.${key}`;
      const source = catalog[kind]![key];
      if (typeof source !== 'string') {
        problems.push(`${where}: missing`);
        continue;
      }
      const theirs = readMessage(source);
      if (!theirs.ok) {
        problems.push(`${where}: ICU syntax error ${theirs.error} at ${theirs.line}:${theirs.column}`);
        continue;
      }
      const ours = readMessage(english[kind]![key]!);
      if (!ours.ok) {
        problems.push(`en ${kind}.${key}: ICU syntax error ${ours.error} at ${ours.line}:${ours.column}`);
        continue;
      }
      const expected = new Set(ours.arguments.map(describeArgument));
      const got = new Set(theirs.arguments.map(describeArgument));
      for (const a of got) if (!expected.has(a)) problems.push(`${where}: uses {${a}}, which the English text lacks`);
      for (const a of expected) if (!got.has(a)) problems.push(`${where}: misses {${a}}, which the English text has`);
    }
    for (const key of Object.keys(catalog[kind]!)) {
      if (!Object.hasOwn(english[kind]!, key)) problems.push(`${language} ${kind}.${key}: not in the English text`);
    }
  }
  for (const kind of Object.keys(catalog)) {
    if (!Object.hasOwn(english, kind)) problems.push(`${language} ${kind}: not in the English text`);
  }
  return problems;
}
