import { describe, expect, it } from 'vitest';
import { noParticipantFilter, parseParticipantFilter, participantFilterParams } from './participant-filter';

describe('participant filter', () => {
  it.each<[Record<string, string>, unknown]>([
    [{}, noParticipantFilter],
    [{ q: '  Ann ', role: 'host', state: 'confirmed', problem: '1', sort: 'booked', page: '3' }, { q: 'Ann', role: 'host', state: 'confirmed', problem: true, sort: 'booked', page: 3 }],
    [{ role: '' }, noParticipantFilter],
    [{ role: 'guest' }, { field: 'role', error: 'role: one of attendee, external, host' }],
    [{ state: 'done' }, { field: 'state', error: 'state: one of confirmed, cancelled' }],
    [{ sort: 'age' }, { field: 'sort', error: 'sort: one of name, booked' }],
    [{ page: '0' }, { field: 'page', error: 'page: a whole number from 1' }],
    [{ page: 'x' }, { field: 'page', error: 'page: a whole number from 1' }],
    [{ problem: 'yes' }, { field: 'problem', error: 'problem: 1 or 0' }],
    [{ q: 'x'.repeat(201) }, { field: 'q', error: 'q: at most 200 characters' }],
  ])('%j', (params, expected) => {
    expect(parseParticipantFilter(params)).toEqual(expected);
    expect(parseParticipantFilter(new URLSearchParams(params))).toEqual(expected);
  });
  it('writes only what differs from the defaults', () => {
    expect(participantFilterParams(noParticipantFilter)).toEqual({});
    expect(participantFilterParams({ ...noParticipantFilter, q: 'a', problem: true }, { page: 2 })).toEqual({ q: 'a', problem: '1', page: '2' });
  });
});
