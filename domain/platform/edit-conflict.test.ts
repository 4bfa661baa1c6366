import { describe, expect, it } from 'vitest';
import { alreadyRemovedMessage, conflictMessage, describeChanges, formatChangeTime, formatWallClock, mergeEdits, onTopNotice, sameValue, versionFromIfMatch } from './edit-conflict';

// The scenario as event-form values: A opened 15 June in Room A; B moved it to 16 June, Room B.
const opened = { title: 'Pottery', description: '', location: 'Room A', roomUrl: '', timeZone: 'Europe/Amsterdam', allDay: false, start: '2027-06-15T10:00', end: '2027-06-15T11:00' };
const latest = { ...opened, location: 'Room B', start: '2027-06-16T10:00', end: '2027-06-16T11:00' };

describe('mergeEdits (three-way, per field)', () => {
  it.each([
    {
      name: 'the issue: A changed only the title → title is A’s, date and room are B’s',
      mine: { ...opened, title: 'Pottery for beginners' },
      merged: { ...latest, title: 'Pottery for beginners' },
      theirs: ['location', 'start', 'end'],
      mineKeys: ['title'],
      overlapping: [],
    },
    {
      name: 'A touched nothing → the latest record as it is',
      mine: opened,
      merged: latest,
      theirs: ['location', 'start', 'end'],
      mineKeys: [],
      overlapping: [],
    },
    {
      name: 'both changed the room to different values → A’s value is kept and reported as overlapping',
      mine: { ...opened, location: 'Room C' },
      merged: { ...latest, location: 'Room C' },
      theirs: ['location', 'start', 'end'],
      mineKeys: ['location'],
      overlapping: ['location'],
    },
    {
      name: 'both made the same change → not an overlap',
      mine: { ...opened, location: 'Room B' },
      merged: latest,
      theirs: ['location', 'start', 'end'],
      mineKeys: ['location'],
      overlapping: [],
    },
    {
      name: 'A moved the start too → A’s start, B’s end',
      mine: { ...opened, start: '2027-06-15T09:00' },
      merged: { ...latest, start: '2027-06-15T09:00' },
      theirs: ['location', 'start', 'end'],
      mineKeys: ['start'],
      overlapping: ['start'],
    },
    {
      name: 'A cleared a field (empty string is a value, not "untouched")',
      mine: { ...opened, location: '' },
      merged: { ...latest, location: '' },
      theirs: ['location', 'start', 'end'],
      mineKeys: ['location'],
      overlapping: ['location'],
    },
    {
      name: 'a boolean: A ticked all-day, B did not touch it',
      mine: { ...opened, allDay: true },
      merged: { ...latest, allDay: true },
      theirs: ['location', 'start', 'end'],
      mineKeys: ['allDay'],
      overlapping: [],
    },
  ])('$name', ({ mine, merged, theirs, mineKeys, overlapping }) => {
    const r = mergeEdits(opened, mine, latest);
    expect(r.merged).toEqual(merged);
    expect(r.theirs).toEqual(theirs);
    expect(r.mine).toEqual(mineKeys);
    expect(r.overlapping).toEqual(overlapping);
  });

  it('arrays compare as sets (a rule audience in another order is not a change)', () => {
    const o = { name: 'r', audience: ['attendee', 'host'], offset: '-P1D' };
    const r = mergeEdits(o, { ...o, audience: ['host', 'attendee'] }, { ...o, offset: '-PT2H' });
    expect(r.mine).toEqual([]);
    expect(r.merged).toEqual({ name: 'r', audience: ['attendee', 'host'], offset: '-PT2H' });
    const r2 = mergeEdits(o, { ...o, audience: ['attendee'] }, { ...o, audience: ['attendee', 'host', 'external'] });
    expect(r2.merged.audience).toEqual(['attendee']);
    expect(r2.overlapping).toEqual(['audience']);
  });
});

describe('sameValue', () => {
  it.each([
    ['a', 'a', true],
    ['', null, false],
    [1, 1, true],
    [1, '1', false],
    [['a', 'b'], ['b', 'a'], true],
    [['a'], ['a', 'a'], false],
    [[], [], true],
  ])('%o vs %o → %s', (a, b, same) => expect(sameValue(a, b)).toBe(same));
});

describe('describeChanges (the panel lines)', () => {
  it('the issue: "Start: Tue 15 Jun 10:00 → Wed 16 Jun 10:00", "Location: Room A → Room B"', () => {
    const lines = describeChanges(opened, latest, [
      { key: 'title', label: 'Title' },
      { key: 'start', label: 'Start', format: formatWallClock },
      { key: 'end', label: 'End', format: formatWallClock },
      { key: 'location', label: 'Location' },
    ]);
    expect(lines.map((l) => `${l.label}: ${l.from} → ${l.to}`)).toEqual(['Start: Tue 15 Jun 10:00 → Wed 16 Jun 10:00', 'End: Tue 15 Jun 11:00 → Wed 16 Jun 11:00', 'Location: Room A → Room B']);
  });
  it('empty values read "—"', () => {
    expect(describeChanges({ location: '' }, { location: 'Room B' }, [{ key: 'location', label: 'Location' }])).toEqual([{ field: 'location', label: 'Location', from: '—', to: 'Room B' }]);
  });
});

describe('formatWallClock', () => {
  it.each([
    ['2027-06-15T10:00', undefined, 'Tue 15 Jun 10:00'],
    ['2027-06-15', undefined, 'Tue 15 Jun'],
    ['2027-12-31T23:30', '2028-01-01T00:30', 'Fri 31 Dec 2027 23:30'],
    // A DST-gap wall-clock time is shown as typed: the form's values are wall-clock text, not instants.
    ['2027-03-28T02:30', undefined, 'Sun 28 Mar 02:30'],
    ['', undefined, '—'],
    ['tomorrow', undefined, 'tomorrow'],
  ])('%s (vs %s) → %s', (v, other, out) => expect(formatWallClock(v, other)).toBe(out));
});

describe('conflictMessage / formatChangeTime', () => {
  it.each([
    [new Date('2027-06-10T12:34:00Z'), 'Europe/Amsterdam', 'Thu 10 Jun 2027, 14:34 CEST'],
    [new Date('2027-01-10T12:34:00Z'), 'Europe/Amsterdam', 'Sun 10 Jan 2027, 13:34 CET'],
    [new Date('2027-03-14T07:30:00Z'), 'America/New_York', 'Sun 14 Mar 2027, 03:30 EDT'],
    [new Date('2027-06-10T12:34:00Z'), 'Asia/Kolkata', 'Thu 10 Jun 2027, 18:04 IST'],
    [new Date('2027-06-10T12:34:00Z'), 'UTC', 'Thu 10 Jun 2027, 12:34 UTC'],
  ])('%s in %s → %s', (at, zone, text) => expect(formatChangeTime(at, zone)).toBe(text));

  it('names who and when', () => {
    expect(conflictMessage({ what: 'This event', by: 'Bea Booker', at: new Date('2027-06-10T12:34:00Z'), zone: 'Europe/Amsterdam' })).toBe(
      'This event was changed by Bea Booker at Thu 10 Jun 2027, 14:34 CEST since you opened it.',
    );
    expect(conflictMessage({ what: 'This suppression', by: 'import', at: new Date('2027-06-10T12:34:00Z'), zone: 'UTC' })).toBe('This suppression was changed by import at Thu 10 Jun 2027, 12:34 UTC since you opened it.');
    expect(conflictMessage({ what: 'This suppression', by: 'import', at: null, zone: 'UTC' })).toBe('This suppression was changed by import since you opened it.');
  });
});

describe('alreadyRemovedMessage', () => {
  it('names who removed it, when (in the zone) and why', () => {
    const at = new Date('2027-06-16T08:04:00Z');
    expect(alreadyRemovedMessage({ what: 'The suppression of gone@example.test', by: 'Sam Staff', at, zone: 'Europe/Amsterdam', reason: 'mailbox works again' })).toBe(
      'The suppression of gone@example.test was already removed by Sam Staff at Wed 16 Jun 2027, 10:04 CEST: “mailbox works again”.',
    );
    expect(alreadyRemovedMessage({ what: 'The suppression of gone@example.test', by: 'import', at, zone: 'UTC', reason: null })).toBe(
      'The suppression of gone@example.test was already removed by import at Wed 16 Jun 2027, 08:04 UTC.',
    );
  });
});

describe('versionFromIfMatch (RFC 9110 §13.1.1)', () => {
  it.each([
    [null, null],
    ['', null],
    ['"7"', 7],
    ['W/"12"', 12],
    [' "3" ', 3],
    ['7', 'malformed'],
    ['*', 'malformed'],
    ['"1", "2"', 'malformed'],
    ['"0"', 'malformed'],
    ['"abc"', 'malformed'],
  ])('%o → %o', (h, v) => expect(versionFromIfMatch(h)).toBe(v));
});

describe('onTopNotice', () => {
  it('names the fields where the user replaced a newer value, and what to check', () => {
    expect(onTopNotice([])).toBe('Your changes are now on top of the latest version. Check them and save again.');
    expect(onTopNotice(['time zone', 'name'], 'the form')).toBe('Your changes are now on top of the latest version (your time zone, name replaced theirs). Check the form and save again.');
  });
});
