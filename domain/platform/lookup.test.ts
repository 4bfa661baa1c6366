import { describe, expect, it } from 'vitest';
import { ownEntry } from './lookup';
import { formParams } from '@/domain/reports/twilio-signature';

/** The names that reach `Object.prototype` through a plain object: what a table lookup must refuse. */
const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__defineGetter__', '__lookupGetter__'] as const;

describe('ownEntry', () => {
  const table = { replay: 1, discard: 2 } as const;
  it('finds own entries', () => {
    expect(ownEntry(table, 'replay')).toBe(1);
    expect(ownEntry(table, 'discard')).toBe(2);
    expect(ownEntry(table, 'nope')).toBeUndefined();
  });
  it.each(PROTOTYPE_NAMES)('never answers the inherited %s', (name) => {
    // Plain indexing would: that is the bug this guards against.
    expect((table as Record<string, unknown>)[name]).toBeDefined();
    expect(ownEntry(table, name)).toBeUndefined();
  });
});

describe('formParams with names that exist on Object.prototype', () => {
  it('keeps them as ordinary parameters and never touches a prototype', () => {
    const p = formParams('constructor=a&toString=b&__proto__=c&valueOf=d&hasOwnProperty=e&MessageSid=SM1');
    expect(Object.getPrototypeOf(p)).toBeNull();
    expect(Object.entries(p).sort()).toEqual([
      ['MessageSid', 'SM1'],
      ['__proto__', 'c'],
      ['constructor', 'a'],
      ['hasOwnProperty', 'e'],
      ['toString', 'b'],
      ['valueOf', 'd'],
    ]);
    expect(Object.keys(p).sort()).toEqual(['MessageSid', '__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
