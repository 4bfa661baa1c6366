import { describe, expect, it } from 'vitest';
import { applyParticipantFilter, noParticipantFilter, parseParticipantFilter, participantFilterParams, participantSearchTerms } from './participant-filter';

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

describe('applying the participant filter', () => {
  const b = (name: string, role: 'attendee' | 'host' | 'external', status: 'confirmed' | 'cancelled', bookedAt: string, problem = false, phone: string | null = null) => ({
    role,
    status,
    bookedAt,
    contact: { name, email: `${name.toLowerCase()}@example.test`, phone },
    summary: { problem },
  });
  const all = [
    b('Ann', 'attendee', 'confirmed', '2026-12-01T10:00:00Z', false, '+31 6 1234 5678'),
    b('Bob', 'attendee', 'cancelled', '2026-12-03T10:00:00Z', true),
    b('Cem', 'attendee', 'confirmed', '2026-12-02T10:00:00Z', true),
    b('Dora', 'host', 'confirmed', '2026-11-30T10:00:00Z'),
  ];
  const names = (r: { items: { contact: { name: string } | null }[] }) => r.items.map((x) => x.contact!.name);
  it.each<[Partial<typeof noParticipantFilter>, string[], number]>([
    [{}, ['Ann', 'Bob', 'Cem', 'Dora'], 4],
    [{ q: 'ce' }, ['Cem'], 1],
    [{ q: 'DORA@EXAMPLE' }, ['Dora'], 1],
    [{ q: '06 1234 5678' }, [], 0], // a national spelling is not the stored international number
    [{ q: '+316 1234' }, ['Ann'], 1], // spaces ignored on both sides
    [{ q: '612345678' }, ['Ann'], 1],
    [{ role: 'host' }, ['Dora'], 1],
    [{ state: 'cancelled' }, ['Bob'], 1],
    [{ problem: true }, ['Bob', 'Cem'], 2],
    [{ problem: true, state: 'confirmed' }, ['Cem'], 1],
    [{ sort: 'booked' }, ['Bob', 'Cem', 'Ann', 'Dora'], 4],
    [{ page: 2 }, ['Cem', 'Dora'], 4],
    [{ page: 3 }, [], 4],
  ])('%j', (f, expected, matching) => {
    const r = applyParticipantFilter(all, { ...noParticipantFilter, ...f }, 2 + (f.page ? 0 : 10));
    expect(names(r)).toEqual(expected);
    expect(r.matching).toBe(matching);
  });
});

describe('search terms', () => {
  it('lower-cases the text and strips phone separators for the digits', () => {
    expect(participantSearchTerms(null)).toBeNull();
    expect(participantSearchTerms('')).toBeNull();
    expect(participantSearchTerms('Ann B')).toEqual({ text: 'ann b', digits: 'annb' });
    expect(participantSearchTerms('+31 (6) 12-34.56')).toEqual({ text: '+31 (6) 12-34.56', digits: '+316123456' });
    expect(participantSearchTerms('()')).toEqual({ text: '()', digits: '' });
  });
});
