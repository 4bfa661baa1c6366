import { describe, expect, it } from 'vitest';
import { planReminders, reminderWindow, type PlanningEvent, type PlanningRule } from './planning';

const rule = (over: Partial<PlanningRule> = {}): PlanningRule => ({
  id: 'r1',
  anchor: 'start',
  offset: '-PT1H',
  audience: ['attendee', 'external'],
  channel: 'email',
  lateSendWindowSeconds: 3600,
  active: true,
  ...over,
});
const vienna: PlanningEvent = {
  startsAt: new Date('2027-06-05T17:00:00Z'),
  endsAt: new Date('2027-06-05T19:00:00Z'),
  timeZone: 'Europe/Vienna',
  status: 'scheduled',
  roomUrl: null,
  roomOpenLeadMinutes: 30,
};
const booking = { id: 'b1', role: 'attendee' as const, status: 'confirmed' as const };

describe('planReminders: late booking (Vienna 2027-06-05T19:00)', () => {
  const rules = [rule({ id: 'day', offset: '-P1D' }), rule({ id: 'hour', offset: '-PT1H' })];

  it('booked at 08:00Z on the day: the 1-day reminder is expired with a reason, the 1-hour one is due 16:00Z', () => {
    const planned = planReminders({ event: vienna, bookings: [booking], rules, now: new Date('2027-06-05T08:00:00Z') });
    expect(planned).toHaveLength(2);
    const [day, hour] = planned;
    expect(day.status).toBe('expired');
    expect(day.statusReason).toBe('planned after its expiry instant: due Fri 4 Jun, 19:00 CEST, useful until Fri 4 Jun, 20:00 CEST, planned Sat 5 Jun, 10:00 CEST');
    expect(hour.status).toBe('scheduled');
    expect(hour.dueAt.toISOString()).toBe('2027-06-05T16:00:00.000Z');
  });

  it('booked three days ahead: both scheduled at their due instants', () => {
    const planned = planReminders({ event: vienna, bookings: [booking], rules, now: new Date('2027-06-02T08:00:00Z') });
    expect(planned.map((p) => [p.status, p.dueAt.toISOString()])).toEqual([
      ['scheduled', '2027-06-04T17:00:00.000Z'],
      ['scheduled', '2027-06-05T16:00:00.000Z'],
    ]);
  });

  it('booked after due but within the window: scheduled (sent at once)', () => {
    const planned = planReminders({ event: vienna, bookings: [booking], rules: [rules[1]], now: new Date('2027-06-05T16:30:00Z') });
    expect(planned[0].status).toBe('scheduled');
  });
});

describe('reminderWindow', () => {
  it('caps the expiry at the event start for reminders due before it', () => {
    const w = reminderWindow(vienna, rule({ offset: '-PT10M', lateSendWindowSeconds: 7200 }))!;
    expect(w.expiresAt.toISOString()).toBe('2027-06-05T17:00:00.000Z');
  });
  it('does not cap reminders anchored after the start', () => {
    const w = reminderWindow(vienna, rule({ anchor: 'end', offset: 'PT0S', lateSendWindowSeconds: 7200 }))!;
    expect(w.expiresAt.toISOString()).toBe('2027-06-05T21:00:00.000Z');
  });
  it('room_open anchors on start minus the lead, and needs a room', () => {
    expect(reminderWindow(vienna, rule({ anchor: 'room_open', offset: 'PT0S' }))).toBeNull();
    const w = reminderWindow({ ...vienna, roomUrl: 'https://room.example/x', roomOpenLeadMinutes: 15 }, rule({ anchor: 'room_open', offset: 'PT0S' }))!;
    expect(w.dueAt.toISOString()).toBe('2027-06-05T16:45:00.000Z');
  });
});

describe('ruleApplies via planReminders', () => {
  const now = new Date('2027-06-01T00:00:00Z');
  it.each([
    ['role outside audience', { ...booking, role: 'host' as const }, vienna, rule()],
    ['cancelled booking', { ...booking, status: 'cancelled' as const }, vienna, rule()],
    ['cancelled event', booking, { ...vienna, status: 'cancelled' as const }, rule()],
    ['inactive rule', booking, vienna, rule({ active: false })],
  ])('%s plans nothing', (_n, b, e, r) => {
    expect(planReminders({ event: e, bookings: [b], rules: [r], now })).toEqual([]);
  });
});
