import { describe, expect, it } from 'vitest';
import { auditActionLabel, auditActionLabels, auditSubject, compactDetails } from './audit-view';
import { auditActions } from '@/domain/vocabulary';

const EVENT = '6f1c1f3e-4b7a-4d0e-9a55-0c2b1d2e3f40';
const DELIVERY = '0b9d5f1a-2c3d-4e5f-8a9b-1c2d3e4f5a6b';
const RULE = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';

describe('auditActionLabel', () => {
  it('words every action in the vocabulary, each differently', () => {
    for (const a of auditActions) expect(auditActionLabels[a]).toMatch(/^[A-Z][a-z]/);
    expect(new Set(auditActions.map((a) => auditActionLabels[a])).size).toBe(auditActions.length);
  });
  it('an unknown action reads as itself', () => {
    expect(auditActionLabel('tenant_rename')).toBe('tenant rename');
  });
  it.each([
    ['a first booking', 'booking_add', { eventId: EVENT, email: 'a@x.test' }, 'Added a booking'],
    ['a re-booking after a cancellation', 'booking_add', { eventId: EVENT, rebook: true, previousBookingId: RULE }, 'Booked a participant again'],
    ['rebook on another action is ignored', 'booking_cancel', { rebook: true }, 'Cancelled a booking'],
    ['a non-boolean rebook is ignored', 'booking_add', { rebook: 'yes' }, 'Added a booking'],
    ['no details', 'booking_add', undefined, 'Added a booking'],
    ['an audit-log export', 'export', { what: 'audit', filters: { action: 'nudge' } }, 'Exported the audit log (CSV)'],
    ['a participants export', 'export', { what: 'participants', eventId: EVENT }, "Exported an event's participants (CSV)"],
    ['an export of something unknown', 'export', { what: 'x' }, 'Exported a CSV file'],
  ])('%s → %s', (_name, action, details, label) => {
    expect(auditActionLabel(action, details)).toBe(label);
  });
});

describe('auditSubject', () => {
  it('an event entry links its event with the recorded title', () => {
    expect(auditSubject({ details: { eventId: EVENT, title: 'Clay & Coffee' } })).toEqual({ eventId: EVENT, eventTitle: 'Clay & Coffee' });
  });
  it('a booking entry names the person and the event', () => {
    expect(auditSubject({ details: { eventId: EVENT, bookingId: DELIVERY, email: 'ada@example.org', role: 'attendee' } })).toEqual({ eventId: EVENT, address: 'ada@example.org' });
  });
  it('a suppression entry names the address; an operator entry its delivery (column first)', () => {
    expect(auditSubject({ details: { address: 'x@example.org', suppressionReason: 'manual' } })).toEqual({ address: 'x@example.org' });
    expect(auditSubject({ deliveryId: DELIVERY, details: { fromStatus: 'dead' } })).toEqual({ deliveryId: DELIVERY });
  });
  it('a rule entry is named by its new name', () => {
    expect(auditSubject({ details: { ruleId: RULE, from: { name: 'Old' }, to: { name: 'Day before' } } })).toEqual({ ruleId: RULE, ruleName: 'Day before' });
  });
  it('never builds a link from an id that is not a UUID, nor from missing details', () => {
    expect(auditSubject({ details: { eventId: '../../admin' } })).toEqual({});
    expect(auditSubject({ details: null })).toEqual({});
    expect(auditSubject({ details: ['x'] })).toEqual({});
  });
});

describe('compactDetails', () => {
  it('an event details change: one pair per changed detail, then whether people were told and whose choice it was', () => {
    expect(
      compactDetails({
        eventId: EVENT,
        title: 'T',
        changes: [
          { field: 'location', from: 'Room A', to: 'Garden B' },
          { field: 'roomUrl', from: null, to: 'https://meet.example/r' },
        ],
        notify: true,
        notifyChoice: 'default',
      }),
    ).toEqual([
      { label: 'location', value: 'Room A → Garden B' },
      { label: 'room url', value: '— → https://meet.example/r' },
      { label: 'notify', value: 'true' },
      { label: 'notify choice', value: 'default' },
    ]);
  });
  it('leaves out the subject and words the keys', () => {
    expect(compactDetails({ eventId: EVENT, title: 'T', remindersCancelled: 3 })).toEqual([{ label: 'reminders cancelled', value: '3' }]);
  });
  it('a from/to pair becomes one line per changed key', () => {
    const items = compactDetails({
      ruleId: RULE,
      from: { name: 'Day before', offset: '-P1D', audience: ['attendee'], active: true },
      to: { name: 'Day before', offset: '-PT2H', audience: ['attendee', 'host'], active: true },
    });
    expect(items).toEqual([
      { label: 'offset', value: '-P1D → -PT2H' },
      { label: 'audience', value: 'attendee → attendee, host' },
    ]);
  });
  it('shows instants through the page’s zone formatter, and cuts long values', () => {
    const items = compactDetails(
      { from: { startsAt: '2027-06-15T08:00:00.000Z' }, to: { startsAt: '2027-06-15T09:00:00.000Z' }, note: 'x'.repeat(300) },
      (iso) => `[${iso.slice(11, 16)} UTC]`,
    );
    expect(items[0]).toEqual({ label: 'starts at', value: '[08:00 UTC] → [09:00 UTC]' });
    expect(items[1]!.value).toHaveLength(120);
    expect(items[1]!.value.endsWith('…')).toBe(true);
  });
  it('shows nested objects as compact JSON and nothing for no details', () => {
    expect(compactDetails({ extra: { a: 1 } })).toEqual([{ label: 'extra', value: '{"a":1}' }]);
    expect(compactDetails(null)).toEqual([]);
  });
});
