import { describe, expect, it } from 'vitest';
import type { PlanningRule } from '@/domain/scheduling/planning';
import { appliedMessage, messageFromAudit } from './rule-lifecycle';
import { impactCounts, impactLines, pendingText, ruleImpact, type ImpactBooking, type ImpactEvent, type ImpactStoredReminder } from './rule-impact';

const NOW = new Date('2027-03-01T09:00:00Z');
const H = 3_600_000;

const rule = (over: Partial<PlanningRule> = {}): PlanningRule => ({
  id: 'r1',
  anchor: 'start',
  offset: '-PT2H',
  audience: ['attendee', 'external'],
  channel: 'email',
  lateSendWindowSeconds: 3600,
  active: true,
  ...over,
});

const event = (id: string, startsAt: string, over: Partial<ImpactEvent> = {}): ImpactEvent => ({
  id,
  startsAt: new Date(startsAt),
  endsAt: new Date(new Date(startsAt).getTime() + H),
  timeZone: 'Europe/Amsterdam',
  status: 'scheduled',
  roomUrl: null,
  roomOpenLeadMinutes: 30,
  scheduleVersion: 1,
  ...over,
});

const contact = { email: 'p@example.test', phone: null, timeZone: null, preferences: null, quietHours: null };
const booking = (id: string, eventId: string, over: Partial<ImpactBooking> = {}): ImpactBooking => ({ id, eventId, role: 'attendee', status: 'confirmed', contact, ...over });

const stored = (id: string, eventId: string, bookingId: string, dueAt: string, over: Partial<ImpactStoredReminder> = {}): ImpactStoredReminder => ({
  id,
  eventId,
  bookingId,
  scheduleVersion: 1,
  channel: 'email',
  status: 'scheduled',
  dueAt: new Date(dueAt),
  deferredFrom: null,
  expiresAt: new Date(new Date(dueAt).getTime() + H),
  ...over,
});

const run = (o: { rule?: PlanningRule; events: ImpactEvent[]; bookings: ImpactBooking[]; stored?: ImpactStoredReminder[]; now?: Date }) =>
  ruleImpact({ rule: o.rule ?? rule(), events: o.events, bookings: o.bookings, stored: o.stored ?? [], tenantZone: 'Europe/Amsterdam', now: o.now ?? NOW });

describe('ruleImpact — a new rule', () => {
  it('the issue scenario: "2 hours before start" on a tenant with 40 upcoming bookings → 40 pending reminders, each 2 h before its start', () => {
    const events = [event('e1', '2027-03-10T13:00:00Z'), event('e2', '2027-03-11T08:00:00Z'), event('e3', '2027-04-02T16:30:00Z'), event('e4', '2027-05-01T10:00:00Z')];
    const bookings = Array.from({ length: 40 }, (_, i) => booking(`b${i}`, events[i % 4].id));
    const i = run({ events, bookings });
    expect(i.pending).toBe(40);
    expect(i.add).toHaveLength(40);
    expect(impactCounts(i)).toEqual({ pending: 40, added: 40, moved: 0, cancelled: 0, pastDue: 0, handedOver: 0, ended: 0, unreachable: 0 });
    for (const a of i.add) {
      const e = events.find((x) => x.id === a.eventId)!;
      expect(a.dueAt.getTime()).toBe(e.startsAt.getTime() - 2 * H);
      expect(a.status).toBe('scheduled');
      expect(a.scheduleVersion).toBe(1);
    }
    expect(new Set(i.eventIds)).toEqual(new Set(['e1', 'e2', 'e3', 'e4']));
    expect(impactLines(impactCounts(i))).toEqual(['40 pending reminders: 40 new']);
  });

  it('a reminder whose due instant is already past is not planned (it would fire late), and is counted', () => {
    // Starts in 1 h: "2 hours before" was due an hour ago (still inside its 1 h window — the planner would say scheduled).
    const soon = event('soon', '2027-03-01T10:00:00Z');
    // Starts in 30 min with a 1 h window: due 1.5 h ago, expired.
    const sooner = event('sooner', '2027-03-01T09:30:00Z');
    const later = event('later', '2027-03-02T10:00:00Z');
    const i = run({ events: [soon, sooner, later], bookings: [booking('a', 'soon'), booking('b', 'sooner'), booking('c', 'later')] });
    expect(i.add.map((a) => a.bookingId)).toEqual(['c']);
    expect(i.pastDue).toBe(2);
    expect(i.pending).toBe(1);
    expect(impactLines(impactCounts(i))).toEqual(['1 pending reminder: 1 new', '2 would already be due — not planned']);
  });

  it('due exactly at now counts as already due', () => {
    const i = run({ events: [event('e', '2027-03-01T11:00:00Z')], bookings: [booking('a', 'e')] });
    expect(i.pending).toBe(0);
    expect(i.pastDue).toBe(1);
  });

  it('cancelled bookings and cancelled events plan nothing', () => {
    const i = run({
      events: [event('e1', '2027-03-10T13:00:00Z'), event('e2', '2027-03-10T13:00:00Z', { status: 'cancelled' })],
      bookings: [booking('a', 'e1', { status: 'cancelled' }), booking('b', 'e2'), booking('c', 'e1')],
    });
    expect(i.add.map((a) => a.bookingId)).toEqual(['c']);
    expect(i.pending).toBe(1);
  });

  it('the audience filter: hosts are not reminded by an attendee rule, and are by a host rule', () => {
    const e = event('e', '2027-03-10T13:00:00Z');
    const bookings = [booking('a', 'e'), booking('h', 'e', { role: 'host' }), booking('x', 'e', { role: 'external' })];
    expect(run({ events: [e], bookings, rule: rule({ audience: ['attendee'] }) }).add.map((a) => a.bookingId)).toEqual(['a']);
    expect(run({ events: [e], bookings, rule: rule({ audience: ['host'] }) }).add.map((a) => a.bookingId)).toEqual(['h']);
    expect(run({ events: [e], bookings }).add.map((a) => a.bookingId)).toEqual(['a', 'x']);
  });

  it('a contact no channel can reach (SMS only, no number; opted out) gets nothing and is counted unreachable; one with SMS and email gets two', () => {
    const e = event('e', '2027-03-10T13:00:00Z');
    const i = run({
      events: [e],
      bookings: [
        booking('smsOnly', 'e', { contact: { ...contact, preferences: { reminders: ['sms'] } } }),
        booking('optedOut', 'e', { contact: { ...contact, preferences: { reminders: [] } } }),
        booking('both', 'e', { contact: { ...contact, phone: '+31612345678', preferences: { reminders: ['email', 'sms'] } } }),
      ],
    });
    expect(i.add.map((a) => `${a.bookingId}:${a.channel}`)).toEqual(['both:email', 'both:sms']);
    expect(i.unreachable).toBe(2);
    expect(impactLines(impactCounts(i))[1]).toBe('2 participants have no channel that reaches them');
  });

  it('an inactive rule plans nothing', () => {
    const i = run({ rule: rule({ active: false }), events: [event('e', '2027-03-10T13:00:00Z')], bookings: [booking('a', 'e')] });
    expect(i.pending).toBe(0);
    expect(i.add).toEqual([]);
  });

  it('DST: "1 day before" keeps the local time across the spring change (Amsterdam, 28 Mar 2027); "24 hours before" is elapsed', () => {
    // Mon 29 Mar 2027 10:00 CEST = 08:00Z. One day before: Sun 28 Mar 10:00 CEST = 08:00Z; 24 hours before: 27 Mar 08:00Z = 09:00 CET.
    const e = event('e', '2027-03-29T08:00:00Z');
    const day = run({ rule: rule({ offset: '-P1D' }), events: [e], bookings: [booking('a', 'e')] });
    expect(day.add[0].dueAt.toISOString()).toBe('2027-03-28T08:00:00.000Z');
    const hours = run({ rule: rule({ offset: '-PT24H' }), events: [e], bookings: [booking('a', 'e')] });
    // 24 h elapsed before 08:00Z on the 29th is 08:00Z on the 28th (elapsed time ignores the wall clock).
    expect(hours.add[0].dueAt.getTime()).toBe(e.startsAt.getTime() - 24 * H);
    // In the autumn (31 Oct 2027, 25 h day) the two differ: Mon 1 Nov 10:00 CET = 09:00Z.
    const autumn = event('f', '2027-11-01T09:00:00Z');
    expect(run({ rule: rule({ offset: '-P1D' }), events: [autumn], bookings: [booking('a', 'f')] }).add[0].dueAt.toISOString()).toBe('2027-10-31T09:00:00.000Z');
    expect(run({ rule: rule({ offset: '-P2D' }), events: [autumn], bookings: [booking('a', 'f')] }).add[0].dueAt.toISOString()).toBe('2027-10-30T08:00:00.000Z');
    expect(run({ rule: rule({ offset: '-PT48H' }), events: [autumn], bookings: [booking('a', 'f')] }).add[0].dueAt.toISOString()).toBe('2027-10-30T09:00:00.000Z');
  });

  it('quiet hours move the planned instant as every planning path does', () => {
    // Due 07:00 Amsterdam (06:00Z) on 10 Mar, useful until the 08:00Z start; quiet until 08:00 local = 07:00Z → waits.
    const e = event('e', '2027-03-10T08:00:00Z');
    const i = run({ rule: rule({ lateSendWindowSeconds: 3 * 3600 }), events: [e], bookings: [booking('a', 'e', { contact: { ...contact, quietHours: { start: '22:00', end: '08:00' } } })] });
    expect(i.add[0].dueAt.toISOString()).toBe('2027-03-10T07:00:00.000Z');
    expect(i.add[0].deferredFrom?.toISOString()).toBe('2027-03-10T06:00:00.000Z');
  });

  it('a room_open rule plans nothing for an event without a room', () => {
    const i = run({ rule: rule({ anchor: 'room_open', offset: 'P0D' }), events: [event('e', '2027-03-10T13:00:00Z'), event('r', '2027-03-10T13:00:00Z', { roomUrl: 'https://meet.example/r' })], bookings: [booking('a', 'e'), booking('b', 'r')] });
    expect(i.add.map((a) => a.bookingId)).toEqual(['b']);
    expect(i.add[0].dueAt.toISOString()).toBe('2027-03-10T12:30:00.000Z');
  });
});

describe('ruleImpact — a changed rule against its stored reminders', () => {
  const e = event('e', '2027-03-10T13:00:00Z');

  it('unchanged timing: nothing pending', () => {
    const i = run({ events: [e], bookings: [booking('a', 'e')], stored: [stored('s1', 'e', 'a', '2027-03-10T11:00:00Z')] });
    expect(impactCounts(i)).toMatchObject({ pending: 0, added: 0, moved: 0, cancelled: 0 });
  });

  it('new timing moves a waiting reminder in place (same row), never one handed to a send', () => {
    const i = run({
      rule: rule({ offset: '-PT3H' }),
      events: [e],
      bookings: [booking('a', 'e'), booking('b', 'e'), booking('c', 'e')],
      stored: [
        stored('s1', 'e', 'a', '2027-03-10T11:00:00Z'),
        stored('s2', 'e', 'b', '2027-03-10T11:00:00Z', { status: 'dispatched' }),
        stored('s3', 'e', 'c', '2027-03-10T11:00:00Z', { status: 'done' }),
      ],
    });
    expect(i.move).toEqual([
      {
        id: 's1',
        eventId: 'e',
        bookingId: 'a',
        channel: 'email',
        from: { dueAt: new Date('2027-03-10T11:00:00Z'), deferredFrom: null, expiresAt: new Date('2027-03-10T12:00:00Z') },
        to: { dueAt: new Date('2027-03-10T10:00:00Z'), deferredFrom: null, expiresAt: new Date('2027-03-10T11:00:00Z') },
      },
    ]);
    expect(i.add).toEqual([]);
    expect(i.handedOver).toBe(2);
    expect(i.pending).toBe(1);
  });

  it('a move to a due instant already past keeps the reminder where it is and counts it', () => {
    const tomorrow = event('t', '2027-03-02T10:00:00Z');
    const i = run({ rule: rule({ offset: '-P2D' }), events: [tomorrow], bookings: [booking('a', 't')], stored: [stored('s1', 't', 'a', '2027-03-02T08:00:00Z')] });
    expect(i.move).toEqual([]);
    expect(i.cancel).toEqual([]);
    expect(i.pastDue).toBe(1);
    expect(i.pending).toBe(0);
  });

  it('deactivation: every waiting reminder of the rule is pending cancellation; handed-over and ended ones are not', () => {
    const i = run({
      rule: rule({ active: false }),
      events: [e],
      bookings: [booking('a', 'e'), booking('b', 'e'), booking('c', 'e')],
      stored: [
        stored('s1', 'e', 'a', '2027-03-10T11:00:00Z'),
        stored('s2', 'e', 'b', '2027-03-10T11:00:00Z', { status: 'done' }),
        stored('s3', 'e', 'c', '2027-03-10T11:00:00Z', { status: 'cancelled' }),
      ],
    });
    expect(i.cancel.map((c) => c.id)).toEqual(['s1']);
    expect(i.pending).toBe(1);
    expect(i.handedOver).toBe(1);
    expect(i.ended).toBe(0);
    expect(impactLines(impactCounts(i))[0]).toBe('1 pending reminder: 1 cancelled');
  });

  it('activation after a cancel: the ended reminder keeps its business key, so it is not planned again (counted ended); others are added', () => {
    const i = run({
      events: [e],
      bookings: [booking('a', 'e'), booking('b', 'e')],
      stored: [stored('s1', 'e', 'a', '2027-03-10T11:00:00Z', { status: 'cancelled' })],
    });
    expect(i.add.map((a) => a.bookingId)).toEqual(['b']);
    expect(i.ended).toBe(1);
  });

  it('an audience narrowed: reminders of the roles left out are cancelled', () => {
    const i = run({
      rule: rule({ audience: ['attendee'] }),
      events: [e],
      bookings: [booking('a', 'e'), booking('x', 'e', { role: 'external' })],
      stored: [stored('s1', 'e', 'a', '2027-03-10T11:00:00Z'), stored('s2', 'e', 'x', '2027-03-10T11:00:00Z')],
    });
    expect(i.cancel.map((c) => c.id)).toEqual(['s2']);
    expect(i.pending).toBe(1);
  });

  it('reminders of an older schedule version are not compared (the reschedule superseded them); the current version is planned', () => {
    const v2 = { ...e, scheduleVersion: 2 };
    const i = run({ events: [v2], bookings: [booking('a', 'e')], stored: [stored('old', 'e', 'a', '2027-03-09T11:00:00Z', { scheduleVersion: 1 })] });
    expect(i.cancel).toEqual([]);
    expect(i.add).toHaveLength(1);
    expect(i.add[0].scheduleVersion).toBe(2);
  });

  it('a waiting reminder of a booking that was cancelled (not expected: cancel ends them) is cancelled', () => {
    const i = run({ events: [e], bookings: [booking('a', 'e', { status: 'cancelled' })], stored: [stored('s1', 'e', 'a', '2027-03-10T11:00:00Z')] });
    expect(i.cancel.map((c) => c.id)).toEqual(['s1']);
  });

  it('an invalid offset throws (the caller turns it into a 400 naming the field)', () => {
    expect(() => run({ rule: rule({ offset: 'soon' }), events: [e], bookings: [booking('a', 'e')] })).toThrow(/offset/);
  });
});

describe('wording', () => {
  it('pendingText', () => {
    expect(pendingText(0)).toBe('0 pending reminders');
    expect(pendingText(1)).toBe('1 pending reminder');
    expect(pendingText(40)).toBe('40 pending reminders');
  });
});

describe('appliedMessage', () => {
  const counts = (o: Partial<ReturnType<typeof impactCounts>>) => ({ pending: 0, added: 0, moved: 0, cancelled: 0, pastDue: 0, handedOver: 0, ended: 0, unreachable: 0, ...o });
  it('says the applied number, and both when the preview differed', () => {
    expect(appliedMessage({ verb: 'Created', name: '2 hours before', choice: 'replan', deactivated: false, previewPending: 40, applied: counts({ pending: 40, added: 40 }) })).toBe(
      'Created “2 hours before”. Re-planned 40 pending reminders: 40 new.',
    );
    expect(appliedMessage({ verb: 'Created', name: 'R', choice: 'replan', deactivated: false, previewPending: 40, applied: counts({ pending: 41, added: 41, pastDue: 2 }) })).toBe(
      'Created “R”. Re-planned 41 pending reminders (the preview said 40: bookings changed meanwhile): 41 new. 2 would already be due — not planned.',
    );
  });
  it('deactivation: cancel or let them go out', () => {
    expect(appliedMessage({ verb: 'Saved', name: 'R', choice: 'replan', deactivated: true, previewPending: 3, applied: counts({ pending: 3, cancelled: 3 }) })).toBe('Saved “R”: inactive. Cancelled 3 pending reminders.');
    expect(appliedMessage({ verb: 'Saved', name: 'R', choice: 'new_only', deactivated: true, previewPending: 3, applied: null })).toBe('Saved “R”: inactive. Its pending reminders still go out; nothing new is planned from it.');
  });
  it('new bookings only', () => {
    expect(appliedMessage({ verb: 'Created', name: 'R', choice: 'new_only', deactivated: false, previewPending: 40, applied: null })).toBe('Created “R”. Reminders already planned are unchanged; bookings from now on get it.');
  });
});

describe('messageFromAudit', () => {
  it('reads back what server/rules/rules.ts recorded', () => {
    expect(messageFromAudit('rule_create', { ruleId: 'x', name: '2 hours before', choice: 'replan', pendingPreviewed: 40, pendingApplied: 40, remindersAdded: 40, remindersMoved: 0, remindersCancelled: 0, alreadyDueNotPlanned: 0 })).toBe(
      'Created “2 hours before”. Re-planned 40 pending reminders: 40 new.',
    );
    expect(messageFromAudit('rule_update', { ruleId: 'x', to: { name: 'R' }, choice: 'new_only', pendingReminders: 'let go out', pendingPreviewed: 3, pendingApplied: 0 })).toBe(
      'Saved “R”: inactive. Its pending reminders still go out; nothing new is planned from it.',
    );
    expect(messageFromAudit('rule_update', { ruleId: 'x', from: {}, to: {} })).toBeNull();
  });
});
