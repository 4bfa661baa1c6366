/**
 * Bulk actions on an event's participants (issue #13) against real PostgreSQL: "Cancel selected" in ONE
 * transaction (each cancellation exactly the single cancel: reminders cancelled, a `booking_cancelled` domain
 * event for the notification policy, its own audit entry), a stale version → 409 listing who changed and nothing
 * cancelled; "Nudge selected" = the single nudge per participant, each with its own key, a repeated request
 * sending nothing twice, and the one-per-minute rule refusing only the participant it applies to.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, bookings, domainEvents, reminders } from '@/db/schema';
import { cancelSelectedAction, nudgeSelectedAction } from '@/server/people/bulk-participants';
import { AppError } from '@/server/platform/errors';
import { nudgeParticipant } from '@/server/sending/nudge';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { cancelBookingAction } from '@/server/scheduling/staff-actions';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { tenantWithRules } from '@/test/support/fixtures';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.close());
beforeEach(async () => tdb.reset());
const db = () => tdb.db;

const NOW = new Date('2027-06-10T09:00:00.000Z');

async function world() {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }, { offset: '-P1D', audience: ['attendee', 'external', 'host'] }], 'Europe/Amsterdam');
  const ctx = { tenantId: tenant.id, actor: 'staff@x.test', now: NOW };
  const event = await createEvent(db(), tenant.id, { title: 'Pottery', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T10:00:00Z', timeZone: 'Europe/Amsterdam', allDay: false, roomUrl: null });
  const book = (name: string, email: string, role: 'attendee' | 'host' = 'attendee') => addBooking(db(), tenant.id, { eventId: event.id, role, contact: { email, name } }, new Date('2027-06-01T00:00:00Z'));
  const zoe = await book('Zoë Brontë', 'zoe@x.test');
  const jan = await book('Jan z Łodzi', 'jan@x.test');
  const hana = await book('Hana Host', 'hana@x.test', 'host');
  return { tenant, ctx, event, zoe, jan, hana };
}

const statusOf = async (ids: string[]) => Object.fromEntries((await db().select().from(bookings).where(inArray(bookings.id, ids))).map((b) => [b.id, b.status]));
const scheduledOf = async (bookingId: string) => (await db().select().from(reminders).where(and(eq(reminders.bookingId, bookingId), eq(reminders.status, 'scheduled')))).length;

describe('cancel selected', () => {
  it('cancels every selected booking in one request, each as the single cancel does; the others stay', async () => {
    const w = await world();
    const waiting = await scheduledOf(w.hana.id);
    expect(await scheduledOf(w.zoe.id)).toBeGreaterThan(0);
    expect(waiting).toBeGreaterThan(0);
    const r = await cancelSelectedAction(db(), w.ctx, w.event.id, { reason: 'room flooded', bookings: [{ id: w.zoe.id, version: w.zoe.version }, { id: w.jan.id, version: w.jan.version }] });
    expect(r).toEqual({ cancelled: [{ id: w.zoe.id, name: 'Zoë Brontë' }, { id: w.jan.id, name: 'Jan z Łodzi' }], alreadyCancelled: [] });
    expect(await statusOf([w.zoe.id, w.jan.id, w.hana.id])).toEqual({ [w.zoe.id]: 'cancelled', [w.jan.id]: 'cancelled', [w.hana.id]: 'confirmed' });
    // Reminders cancelled (with the reason), as the single cancel does.
    expect(await scheduledOf(w.zoe.id)).toBe(0);
    expect(await scheduledOf(w.jan.id)).toBe(0);
    expect(await scheduledOf(w.hana.id)).toBe(waiting);
    const zr = await db().select().from(reminders).where(eq(reminders.bookingId, w.zoe.id));
    expect(zr.filter((x) => x.kind === 'rule').every((x) => x.status === 'cancelled' && x.statusReason === 'booking cancelled: room flooded')).toBe(true);
    // One booking_cancelled domain event each (the notification policy decides who hears of it), one audit entry each.
    const facts = await db().select().from(domainEvents).where(and(eq(domainEvents.tenantId, w.tenant.id), eq(domainEvents.type, 'booking_cancelled')));
    expect(facts.map((f) => f.bookingId).sort()).toEqual([w.zoe.id, w.jan.id].sort());
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, w.tenant.id), eq(auditLog.action, 'booking_cancel')));
    expect(audits.map((a) => [(a.details as { bookingId: string }).bookingId, a.reason]).sort()).toEqual([[w.zoe.id, 'room flooded'], [w.jan.id, 'room flooded']].sort());
  });

  it('a stale version → 409 naming who changed, and nothing is cancelled', async () => {
    const w = await world();
    // Someone cancels Jan from another tab after the page showed him.
    await cancelBookingAction(db(), { ...w.ctx, actor: 'sam@x.test' }, w.jan.id, { reason: 'asked by phone', version: w.jan.version });
    const before = await db().select().from(auditLog).where(eq(auditLog.tenantId, w.tenant.id));
    const err = await cancelSelectedAction(db(), w.ctx, w.event.id, {
      reason: 'room flooded',
      bookings: [w.zoe, w.jan, w.hana].map((b) => ({ id: b.id, version: b.version })),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.code).toBe('conflict');
    expect(e.httpStatus).toBe(409);
    expect(e.field).toBe('bookings');
    expect(e.message).toMatch(/^1 of the 3 selected participants changed since the page showed it, so nothing was cancelled: Jan z Łodzi \(cancelled by sam@x\.test at .* CEST\)/);
    expect(e.details?.changed).toEqual([{ id: w.jan.id, name: 'Jan z Łodzi', status: 'cancelled', version: w.jan.version + 1, changedBy: 'sam@x.test', changedAt: expect.any(String) }]);
    // Nothing cancelled: Zoë and Hana keep their bookings and reminders; no new audit entry, no new domain event.
    expect(await statusOf([w.zoe.id, w.hana.id])).toEqual({ [w.zoe.id]: 'confirmed', [w.hana.id]: 'confirmed' });
    expect(await scheduledOf(w.zoe.id)).toBeGreaterThan(0);
    expect(await db().select().from(auditLog).where(eq(auditLog.tenantId, w.tenant.id))).toHaveLength(before.length);
  });

  it('a booking of another event or tenant in the selection → 404, nothing cancelled; bad input names the field', async () => {
    const w = await world();
    const other = await world();
    await expect(
      cancelSelectedAction(db(), w.ctx, w.event.id, { reason: 'room flooded', bookings: [{ id: w.zoe.id, version: 1 }, { id: other.zoe.id, version: 1 }] }),
    ).rejects.toMatchObject({ code: 'not_found', field: 'bookings' });
    expect(await statusOf([w.zoe.id, other.zoe.id])).toEqual({ [w.zoe.id]: 'confirmed', [other.zoe.id]: 'confirmed' });
    await expect(cancelSelectedAction(db(), w.ctx, w.event.id, { reason: 'x', bookings: [{ id: w.zoe.id, version: 1 }] })).rejects.toMatchObject({ code: 'validation', field: 'reason' });
    await expect(cancelSelectedAction(db(), w.ctx, w.event.id, { reason: 'room flooded', bookings: [] })).rejects.toMatchObject({ code: 'validation', field: 'bookings' });
    await expect(cancelSelectedAction(db(), w.ctx, w.event.id, { reason: 'room flooded', bookings: [{ id: w.zoe.id }] })).rejects.toMatchObject({ code: 'validation', field: 'bookings.0.version' });
  });
});

describe('nudge selected', () => {
  it('nudges each selected participant with its own key and template; the same request again sends nothing twice', async () => {
    const w = await world();
    const input = { bookingIds: [w.zoe.id, w.hana.id], idempotencyKey: 'bulk-dialog-1' };
    const first = await nudgeSelectedAction(db(), w.ctx, w.event.id, input);
    expect(first.results.map((r) => [r.name, r.outcome, r.outcome === 'sent' && r.replayed])).toEqual([
      ['Zoë Brontë', 'sent', false],
      ['Hana Host', 'sent', false],
    ]);
    const nudges = await db().select().from(reminders).where(and(eq(reminders.tenantId, w.tenant.id), eq(reminders.kind, 'nudge')));
    expect(nudges).toHaveLength(2);
    expect(Object.fromEntries(nudges.map((n) => [n.bookingId, [n.idempotencyKey, n.template]]))).toEqual({
      [w.zoe.id]: [`bulk:bulk-dialog-1:${w.zoe.id}`, 'attendee-reminder'],
      [w.hana.id]: [`bulk:bulk-dialog-1:${w.hana.id}`, 'host-reminder'],
    });
    // A double click: the same request → the same nudges, replayed; no new reminder, no new audit entry.
    const again = await nudgeSelectedAction(db(), { ...w.ctx, now: new Date(NOW.getTime() + 400) }, w.event.id, input);
    expect(again.results.map((r) => r.outcome === 'sent' && [r.reminderId, r.replayed])).toEqual(first.results.map((r) => r.outcome === 'sent' && [r.reminderId, true]));
    expect(await db().select().from(reminders).where(and(eq(reminders.tenantId, w.tenant.id), eq(reminders.kind, 'nudge')))).toHaveLength(2);
    expect(await db().select().from(auditLog).where(and(eq(auditLog.tenantId, w.tenant.id), eq(auditLog.action, 'nudge')))).toHaveLength(2);
  });

  it('a second nudge within a minute is refused for that participant only, saying when to try again', async () => {
    const w = await world();
    // Jan was nudged on his own 20 s ago (09:59:40 Amsterdam time → retry from 10:00:40, "try again at 11:01").
    const t0 = new Date(NOW.getTime() - 20_000);
    await nudgeParticipant(db(), { ...w.ctx, now: t0 }, { bookingId: w.jan.id, template: 'attendee-reminder', idempotencyKey: 'single-key-1' });
    const r = await nudgeSelectedAction(db(), w.ctx, w.event.id, { bookingIds: [w.zoe.id, w.jan.id], idempotencyKey: 'bulk-dialog-2' });
    expect(r.results).toEqual([
      { bookingId: w.zoe.id, name: 'Zoë Brontë', outcome: 'sent', reminderId: expect.any(String), replayed: false },
      // 08:59:40Z + 60 s = 09:00:40Z = 11:00:40 CEST → the next whole minute, 11:01.
      { bookingId: w.jan.id, name: 'Jan z Łodzi', outcome: 'refused', reason: 'nudged less than a minute ago — try again at 11:01' },
    ]);
    // After the minute, the same participants in a new request: both go out, each under its own key.
    const later = await nudgeSelectedAction(db(), { ...w.ctx, now: new Date(NOW.getTime() + 61_000) }, w.event.id, { bookingIds: [w.zoe.id, w.jan.id], idempotencyKey: 'bulk-dialog-3' });
    expect(later.results.map((x) => x.outcome)).toEqual(['sent', 'sent']);
    const keys = (await db().select().from(reminders).where(and(eq(reminders.tenantId, w.tenant.id), eq(reminders.kind, 'nudge')))).map((n) => n.idempotencyKey);
    expect(new Set(keys).size).toBe(4);
  });

  it('a cancelled participant or one of another event is refused with the reason; the rest are nudged', async () => {
    const w = await world();
    const other = await world();
    await cancelBookingAction(db(), w.ctx, w.jan.id, { reason: 'moved away', version: w.jan.version });
    const r = await nudgeSelectedAction(db(), w.ctx, w.event.id, { bookingIds: [w.jan.id, other.zoe.id, w.zoe.id], idempotencyKey: 'bulk-dialog-4' });
    expect(r.results.map((x) => [x.outcome, x.outcome === 'refused' ? x.reason : null])).toEqual([
      ['refused', 'this booking is cancelled: nothing to remind'],
      ['refused', 'not a participant of this event'],
      ['sent', null],
    ]);
    await expect(nudgeSelectedAction(db(), w.ctx, w.event.id, { bookingIds: [w.zoe.id], idempotencyKey: 'short' })).rejects.toMatchObject({ code: 'validation', field: 'idempotencyKey' });
  });
});
