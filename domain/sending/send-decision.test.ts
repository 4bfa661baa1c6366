import { describe, expect, it } from 'vitest';
import { decideSend, type SendSnapshot } from './send-decision';

const base: SendSnapshot = {
  reminder: { status: 'dispatched', scheduleVersion: 2, expiresAt: new Date('2027-01-20T09:00:00Z') },
  event: { status: 'scheduled', scheduleVersion: 2 },
  booking: { status: 'confirmed' },
  rule: { active: true },
};
const now = new Date('2027-01-20T08:50:00Z');

describe('decideSend', () => {
  it.each<[string, SendSnapshot, Date, string]>([
    ['fresh work sends', base, now, 'send'],
    ['scheduled (sweep-claimed) sends', { ...base, reminder: { ...base.reminder, status: 'scheduled' } }, now, 'send'],
    ['already done is skipped', { ...base, reminder: { ...base.reminder, status: 'done' } }, now, 'skip'],
    ['cancelled reminder is skipped', { ...base, reminder: { ...base.reminder, status: 'cancelled' } }, now, 'skip'],
    ['cancelled event', { ...base, event: { ...base.event, status: 'cancelled' } }, now, 'cancelled'],
    ['cancelled booking', { ...base, booking: { status: 'cancelled' } }, now, 'cancelled'],
    ['deleted rule', { ...base, rule: null }, now, 'cancelled'],
    ['inactive rule', { ...base, rule: { active: false } }, now, 'cancelled'],
    ['inactive rule, pending reminders cancelled on deactivation', { ...base, rule: { active: false, pendingGoOut: false } }, now, 'cancelled'],
    ['inactive rule deactivated with "let them go out"', { ...base, rule: { active: false, pendingGoOut: true } }, now, 'send'],
    ['"let them go out" does not save an expired one', { ...base, rule: { active: false, pendingGoOut: true } }, new Date('2027-01-20T09:00:00Z'), 'expired'],
    ['older schedule version', { ...base, event: { ...base.event, scheduleVersion: 3 } }, now, 'superseded'],
    ['exactly at expiry', base, new Date('2027-01-20T09:00:00Z'), 'expired'],
    ['one ms before expiry', base, new Date('2027-01-20T08:59:59.999Z'), 'send'],
    ['cancellation wins over expiry', { ...base, booking: { status: 'cancelled' } }, new Date('2027-01-20T12:00:00Z'), 'cancelled'],
  ])('%s', (_n, snap, at, expected) => {
    const d = decideSend(snap, at);
    expect(d.action === 'terminate' ? d.status : d.action).toBe(expected);
  });

  it('names the new version in the superseded reason', () => {
    const d = decideSend({ ...base, event: { ...base.event, scheduleVersion: 3 } }, now);
    expect(d).toEqual({ action: 'terminate', status: 'superseded', reason: 'superseded by schedule version 3' });
  });
});

describe('decideSend for notifications', () => {
  const now = new Date('2027-07-01T08:00:00Z');
  const base = {
    reminder: { status: 'scheduled' as const, scheduleVersion: 1, expiresAt: new Date('2027-07-02T08:00:00Z'), kind: 'notification' as const },
    event: { status: 'scheduled' as const, scheduleVersion: 3 },
    booking: { status: 'confirmed' as const },
    rule: null,
  };
  it('needs no rule; a confirmation is not superseded by a newer schedule version', () => {
    expect(decideSend({ ...base, reminder: { ...base.reminder, notificationType: 'booking_confirmed' } }, now)).toEqual({ action: 'send' });
  });
  it('a reschedule notice still waiting when the event moved again is superseded by the newer notice', () => {
    expect(decideSend({ ...base, reminder: { ...base.reminder, notificationType: 'event_rescheduled' } }, now)).toMatchObject({ action: 'terminate', status: 'superseded' });
    expect(decideSend({ ...base, reminder: { ...base.reminder, scheduleVersion: 3, notificationType: 'event_rescheduled' } }, now)).toEqual({ action: 'send' });
  });
  it('a waiting confirmation ends cancelled once the booking or event is cancelled', () => {
    const r = { ...base.reminder, notificationType: 'booking_confirmed' as const };
    expect(decideSend({ ...base, reminder: r, booking: { status: 'cancelled' } }, now)).toMatchObject({ action: 'terminate', status: 'cancelled' });
    expect(decideSend({ ...base, reminder: r, event: { status: 'cancelled', scheduleVersion: 3 } }, now)).toMatchObject({ action: 'terminate', status: 'cancelled' });
  });
  it('cancellation notices go although the booking or event is cancelled', () => {
    expect(decideSend({ ...base, reminder: { ...base.reminder, notificationType: 'booking_cancelled' }, booking: { status: 'cancelled' } }, now)).toEqual({ action: 'send' });
    expect(decideSend({ ...base, reminder: { ...base.reminder, notificationType: 'event_cancelled' }, event: { status: 'cancelled', scheduleVersion: 3 } }, now)).toEqual({ action: 'send' });
  });
  it('expires like a reminder', () => {
    expect(decideSend({ ...base, reminder: { ...base.reminder, notificationType: 'event_cancelled' } }, new Date('2027-07-02T08:00:00Z'))).toMatchObject({ action: 'terminate', status: 'expired' });
  });
});
