import addrs from 'email-addresses';
import { describe, expect, it } from 'vitest';
import { encodeDisplayName, formatMailbox } from './mailbox';

/** A strict RFC 5322 parse (no obsolete syntax) of one mailbox: its display name and address, or null. */
function strict(s: string): { name: string | null; address: string } | null {
  const r = addrs.parseOneAddress({ input: s, strict: true, rfc6532: false, rejectTLD: false } as never);
  if (!r || r.type !== 'mailbox') return null;
  return { name: r.name, address: r.address };
}

describe('formatMailbox (RFC 5322 §3.4 mailbox)', () => {
  it.each([
    ['plain atoms', 'Punctual Demo Studio', 'Punctual Demo Studio <r@demo.test>'],
    ['comma, quotes and parentheses', 'Atelier "De Klei", Gent (Oost)', '"Atelier \\"De Klei\\", Gent (Oost)" <r@demo.test>'],
    ['a backslash', 'A\\B', '"A\\\\B" <r@demo.test>'],
    ['a dot and an at sign', 'J. Doe @ Home', '"J. Doe @ Home" <r@demo.test>'],
    ['angle brackets', 'Evil <x@y.test>', '"Evil <x@y.test>" <r@demo.test>'],
    ['no name', '', 'r@demo.test'],
    ['a line break becomes a space', 'Two\r\nLines', 'Two Lines <r@demo.test>'],
  ])('%s', (_, name, want) => {
    expect(formatMailbox(name, 'r@demo.test')).toBe(want);
  });

  it.each([
    'Punctual Demo Studio',
    'Atelier "De Klei", Gent (Oost)',
    'A\\B "quoted" \\"',
    'Studio; Group: x',
    "O'Brien & Co.",
    'Évora Cerâmica — “De Klei”',
    'Ω'.repeat(80),
  ])('a strict RFC 5322 parser reads exactly one mailbox with the name %j', (name) => {
    const got = strict(formatMailbox(name, 'r@demo.test'));
    expect(got?.address).toBe('r@demo.test');
    // Non-ASCII names travel as RFC 2047 encoded-words: the parser sees atoms; decoding them gives the name back.
    const decoded = /=\?UTF-8\?B\?/.test(got!.name!) ? got!.name!.split(' ').map((w) => Buffer.from(w.replace(/^=\?UTF-8\?B\?|\?=$/g, ''), 'base64').toString('utf8')).join('') : got!.name;
    expect(decoded).toBe(name);
  });

  it('encodes nothing it does not need to', () => {
    expect(encodeDisplayName('Front Desk')).toBe('Front Desk');
    expect(encodeDisplayName('  ')).toBe('');
  });
});
