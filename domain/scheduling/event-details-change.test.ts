import { describe, expect, it } from 'vitest';
import { detailChangesOf, notifyByDefault, notifyDecision } from './event-details-change';

const before = { title: 'Summer picnic', location: 'Room A', roomUrl: null, description: 'Brign a hat.' };

describe('detailChangesOf', () => {
  it('lists each changed detail, old → new, in title, location, link, description order', () => {
    expect(detailChangesOf(before, { ...before, description: 'Bring a hat.', location: 'Garden B', roomUrl: 'https://meet.example/r' })).toEqual([
      { field: 'location', from: 'Room A', to: 'Garden B' },
      { field: 'roomUrl', from: null, to: 'https://meet.example/r' },
      { field: 'description', from: 'Brign a hat.', to: 'Bring a hat.' },
    ]);
  });
  it.each([
    ['the same words', { ...before }],
    ['only spaces around them', { ...before, title: '  Summer picnic ', location: 'Room A\n' }],
    ['an empty text for none', { ...before, roomUrl: '' }],
  ])('nothing changed: %s', (_name, after) => {
    expect(detailChangesOf(before, after)).toEqual([]);
  });
  it('a detail emptied: to null', () => {
    expect(detailChangesOf(before, { ...before, location: '   ' })).toEqual([{ field: 'location', from: 'Room A', to: null }]);
  });
});

describe('notifyByDefault: tell unless only the description changed', () => {
  it.each([
    [['location'], true],
    [['roomUrl'], true],
    [['title'], true],
    [['description'], false],
    [['description', 'location'], true],
    [[], false],
  ] as const)('%j → %s', (fields, expected) => {
    expect(notifyByDefault(fields.map((field) => ({ field })))).toBe(expected);
  });
});

describe('notifyDecision', () => {
  it('no choice: the default, recorded as the default', () => {
    expect(notifyDecision([{ field: 'location' }], undefined)).toEqual({ notify: true, byDefault: true });
    expect(notifyDecision([{ field: 'description' }], undefined)).toEqual({ notify: false, byDefault: true });
  });
  it("staff's choice wins either way", () => {
    expect(notifyDecision([{ field: 'location' }], false)).toEqual({ notify: false, byDefault: false });
    expect(notifyDecision([{ field: 'description' }], true)).toEqual({ notify: true, byDefault: false });
  });
  it('nothing changed: nobody is told, whatever was chosen', () => {
    expect(notifyDecision([], true).notify).toBe(false);
  });
});
