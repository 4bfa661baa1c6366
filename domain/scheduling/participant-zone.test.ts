import { describe, expect, it } from 'vitest';
import { participantZone } from './participant-zone';

describe('participantZone (the zone line of a participant card)', () => {
  const start = '2027-06-15T08:00:00.000Z';
  it.each([
    ['none on file', null, 'Europe/Amsterdam', start, { kind: 'none' }],
    ['blank', '  ', 'Europe/Amsterdam', start, { kind: 'none' }],
    ['the event’s own zone', 'Europe/Amsterdam', 'Europe/Amsterdam', start, { kind: 'same', zone: 'Europe/Amsterdam' }],
    ['another name, same clock at the start', 'Europe/Berlin', 'Europe/Amsterdam', start, { kind: 'same', zone: 'Europe/Berlin' }],
    ['an old spelling of the event’s zone', 'Europe/Kiev', 'Europe/Kyiv', start, { kind: 'same', zone: 'Europe/Kiev' }],
    ['another clock', 'Asia/Tokyo', 'Europe/Amsterdam', start, { kind: 'differs', zone: 'Asia/Tokyo' }],
    ['DST weeks apart: London vs Lisbon in winter agree', 'Europe/Lisbon', 'Europe/London', '2027-01-10T10:00:00Z', { kind: 'same', zone: 'Europe/Lisbon' }],
    ['Phoenix and Denver agree in winter …', 'America/Phoenix', 'America/Denver', '2027-01-10T18:00:00Z', { kind: 'same', zone: 'America/Phoenix' }],
    ['… but not in summer (Phoenix keeps standard time)', 'America/Phoenix', 'America/Denver', '2027-07-10T18:00:00Z', { kind: 'differs', zone: 'America/Phoenix' }],
    ['a stored value that is not a zone', 'Mars/Olympus', 'Europe/Amsterdam', start, { kind: 'unknown', zone: 'Mars/Olympus' }],
  ] as const)('%s', (_name, own, eventZone, at, expected) => {
    expect(participantZone(own, eventZone, at)).toEqual(expected);
  });

  it('takes a Date as well', () => {
    expect(participantZone('Asia/Tokyo', 'Asia/Seoul', new Date(start))).toEqual({ kind: 'same', zone: 'Asia/Tokyo' });
  });
});
