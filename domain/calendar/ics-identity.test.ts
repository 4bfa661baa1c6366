import { describe, expect, it } from 'vitest';
import { groupOfIdentity, matchSessions, noUidIdentity, repeatedUidIdentity, type RecordContent, type SessionContent } from './ics-identity';

const c = { startsAt: new Date('2027-03-01T10:00:00Z'), title: 'Talk', location: 'Room 1' };

describe('identities', () => {
  it('are derived from content only, and differ when any part differs', () => {
    expect(repeatedUidIdentity('u', c)).toBe(repeatedUidIdentity('u', { ...c }));
    expect(repeatedUidIdentity('u', c)).toMatch(/^u#c-[0-9a-f]{12}$/);
    expect(repeatedUidIdentity('u', { ...c, location: null })).not.toBe(repeatedUidIdentity('u', c));
    expect(noUidIdentity(c)).toMatch(/^nouid:[0-9a-f]{16}$/);
  });

  it.each<[string, string | null]>([
    ['u#c-0123456789ab', 'u'],
    ['u#2', 'u'],
    ['a#b#c-0123456789ab', 'a#b'],
    ['u', null],
    ['u#2027-03-01T10:00:00Z', null],
    ['u#2027-03-01', null],
    ['nouid:0123456789abcdef', null],
  ])('groupOfIdentity(%s) → %s', (id, want) => {
    expect(groupOfIdentity(id)).toBe(want);
  });
});

const T = (h: number) => Date.UTC(2027, 2, 1, h);
const s = (key: string, h: number, title: string, location: string | null = 'R1'): SessionContent => ({ key, startsAt: T(h), title, location });
const r = (id: string, h: number, title: string, location: string | null = 'R1'): RecordContent => ({ id, startsAt: T(h), title, location });

describe('matchSessions', () => {
  it.each<[string, SessionContent[], RecordContent[], Record<string, string>, string[], string[]]>([
    ['legacy records, exact content', [s('a', 10, 'A'), s('b', 11, 'B')], [r('1', 11, 'B'), r('2', 10, 'A')], { a: '2', b: '1' }, [], []],
    ['a moved session (same title and room)', [s('a', 12, 'A')], [r('1', 10, 'A'), r('2', 11, 'B')], { a: '1' }, [], []],
    ['a renamed session (same start)', [s('a', 10, 'A2', 'R9')], [r('1', 10, 'A'), r('2', 11, 'B')], { a: '1' }, [], []],
    ['two records with the same title and room: ambiguous', [s('a', 12, 'Open Space')], [r('1', 10, 'Open Space'), r('2', 11, 'Open Space')], {}, [], ['a']],
    ['two sessions wanting one record: both ambiguous', [s('a', 12, 'A'), s('b', 13, 'A')], [r('1', 10, 'A')], {}, [], ['a', 'b']],
    ['nothing alike: a new session', [s('a', 15, 'New')], [r('1', 10, 'A')], {}, ['a'], []],
    ['no records at all', [s('a', 10, 'A')], [], {}, ['a'], []],
  ])('%s', (_n, sessions, records, matched, create, ambiguous) => {
    const m = matchSessions(sessions, records);
    expect(Object.fromEntries(m.matched)).toEqual(matched);
    expect(m.create).toEqual(create);
    expect(m.ambiguous.map((a) => a.key)).toEqual(ambiguous);
  });
});
