import { describe, expect, it } from 'vitest';
import { schemaBehindLine, schemaStatus, SCHEMA_BEHIND_MESSAGE } from './schema-version';

const journal = [
  { tag: '0000_init', when: 1000 },
  { tag: '0002_b', when: 3000 },
  { tag: '0001_a', when: 2000 },
];

describe('schemaStatus', () => {
  it.each([
    ['never migrated: everything pending, oldest first', null, { state: 'behind', pending: ['0000_init', '0001_a', '0002_b'] }],
    ['one migration missing', 2000, { state: 'behind', pending: ['0002_b'] }],
    ['all applied', 3000, { state: 'current' }],
    ['a newer version migrated it (old web during a deploy): fine', 4000, { state: 'ahead' }],
  ] as const)('%s', (_, last, expected) => {
    expect(schemaStatus(journal, last)).toEqual(expected);
  });

  it('uses drizzle’s rule: only entries later than the newest applied one are pending', () => {
    // An entry older than the newest applied one is not re-applied by drizzle either.
    expect(schemaStatus(journal, 2500)).toEqual({ state: 'behind', pending: ['0002_b'] });
  });
});

describe('schemaBehindLine', () => {
  it('names the fix and the pending migrations', () => {
    expect(schemaBehindLine(['0019_x', '0020_y'])).toBe(`${SCHEMA_BEHIND_MESSAGE} (pending: 0019_x, 0020_y)`);
    expect(schemaBehindLine(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toContain('… 2 more');
  });
});
