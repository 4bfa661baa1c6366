/**
 * "Remind participant" (issue #4 item 5) against real PostgreSQL, the real queue and the SMTP catcher:
 * idempotency key → one send; one nudge per participant per minute; the nudge's message key carries the
 * request instant and never touches the rule reminder.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, deliveries, reminders, suppressions } from '@/db/schema';
import { nudgeParticipant } from '@/server/sending/nudge';
import { markDeliverySent, replayDelivery } from '@/server/sending/operator';
import { cancelBooking } from '@/server/scheduling/bookings';
import { createHarness, type Harness } from '@/test/support/harness';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());
beforeEach(async () => h.tdb.reset());
const db = () => h.tdb.db;

async function scenario() {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
  const { event, booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam', title: 'Pottery' }, new Date('2027-06-01T00:00:00Z'));
  return { tenant, event, booking };
}

describe('nudge', () => {
  it('same idempotency key twice (a double click) → one reminder, one email; the rule reminder stays scheduled', async () => {
    const { tenant, booking } = await scenario();
    const now = new Date('2027-06-10T09:00:00.123Z');
    h.clock.set(now);
    const ctx = { tenantId: tenant.id, actor: 'staff@x.test', now };
    const [a, b] = await Promise.all([
      nudgeParticipant(db(), ctx, { bookingId: booking.id, template: 'attendee-reminder', idempotencyKey: 'dialog-key-1' }),
      nudgeParticipant(db(), ctx, { bookingId: booking.id, template: 'attendee-reminder', idempotencyKey: 'dialog-key-1' }),
    ]);
    expect(a.reminderId).toBe(b.reminderId);
    expect([a.replayed, b.replayed].sort()).toEqual([false, true]);
    expect(a.messageKey).toBe(`nudge:${tenant.id}:${booking.id}:${now.getTime()}:email`);
    await h.drain();
    const mail = await h.caught();
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toContain('Pottery');
    const ds = await db().select().from(deliveries).where(eq(deliveries.tenantId, tenant.id));
    expect(ds.map((d) => [d.messageKey, d.status])).toEqual([[a.messageKey, 'accepted']]);
    const rs = await db().select().from(reminders).where(eq(reminders.bookingId, booking.id));
    expect(rs.find((r) => r.kind === 'rule')?.status).toBe('scheduled');
    expect(rs.find((r) => r.kind === 'nudge')?.status).toBe('done');
    const audits = await db().select().from(auditLog).where(eq(auditLog.tenantId, tenant.id));
    expect(audits.map((x) => x.action)).toEqual(['nudge']);
  });

  it('a second nudge within a minute is refused with the wait; after a minute it goes out under a new key', async () => {
    const { tenant, booking } = await scenario();
    const t0 = new Date('2027-06-10T09:00:00Z');
    const ctx = (now: Date) => ({ tenantId: tenant.id, actor: 'staff@x.test', now });
    await nudgeParticipant(db(), ctx(t0), { bookingId: booking.id, template: 'attendee-reminder', idempotencyKey: 'k-aaaaaaaa' });
    await expect(
      nudgeParticipant(db(), ctx(new Date(t0.getTime() + 20_000)), { bookingId: booking.id, template: 'attendee-reminder', idempotencyKey: 'k-bbbbbbbb' }),
    ).rejects.toMatchObject({ code: 'rate_limited', message: expect.stringContaining('Try again in 40 s') });
    const later = await nudgeParticipant(db(), ctx(new Date(t0.getTime() + 60_000)), { bookingId: booking.id, template: 'attendee-reminder', idempotencyKey: 'k-cccccccc' });
    expect(later.replayed).toBe(false);
    h.clock.set(new Date(t0.getTime() + 61_000));
    await h.drain();
    expect(await h.caught()).toHaveLength(2);
  });

  it('refuses a cancelled booking, another tenant\'s booking, and bad input naming the field', async () => {
    const { tenant, booking } = await scenario();
    const other = await scenario();
    const now = new Date('2027-06-10T09:00:00Z');
    const ctx = { tenantId: tenant.id, actor: 'a', now };
    await expect(nudgeParticipant(db(), ctx, { bookingId: other.booking.id, template: 'attendee-reminder', idempotencyKey: 'k-11111111' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(nudgeParticipant(db(), ctx, { bookingId: booking.id, template: 'nope' as never, idempotencyKey: 'k-11111111' })).rejects.toMatchObject({ code: 'validation', field: 'template' });
    await cancelBooking(db(), tenant.id, booking.id, 'guest cancelled', now);
    await expect(nudgeParticipant(db(), ctx, { bookingId: booking.id, template: 'attendee-reminder', idempotencyKey: 'k-22222222' })).rejects.toMatchObject({ code: 'invalid_state' });
    expect(await db().select().from(reminders).where(eq(reminders.kind, 'nudge'))).toHaveLength(0);
  });

  it('refuses a template that cannot render for this event (room-opening without a room, host-reminder to an attendee): 400 naming template, nothing planned', async () => {
    const { tenant, booking } = await scenario(); // an attendee of an event without an online room
    const now = new Date('2027-06-10T09:00:00Z');
    const ctx = { tenantId: tenant.id, actor: 'a', now };
    const roomless = await nudgeParticipant(db(), ctx, { bookingId: booking.id, template: 'room-opening', idempotencyKey: 'k-room-0001' }).then(() => null, (e: unknown) => e);
    expect(roomless).toMatchObject({ code: 'validation', field: 'template', httpStatus: 400, message: 'template: room-opening cannot be used here — this event has no online room (roomUrl)' });
    await expect(nudgeParticipant(db(), ctx, { bookingId: booking.id, template: 'host-reminder', idempotencyKey: 'k-host-0001' })).rejects.toMatchObject({ code: 'validation', field: 'template' });
    expect(await db().select().from(reminders).where(eq(reminders.kind, 'nudge'))).toHaveLength(0);
    expect(await db().select().from(auditLog).where(eq(auditLog.tenantId, tenant.id))).toHaveLength(0);

    // With a room, the same template goes out.
    const withRoom = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam', title: 'Online pottery', roomUrl: 'https://meet.example/pottery' }, now);
    h.clock.set(now);
    await nudgeParticipant(db(), ctx, { bookingId: withRoom.booking.id, template: 'room-opening', idempotencyKey: 'k-room-0002' });
    await h.drain();
    expect((await h.caught()).map((m) => m.subject)).toEqual([expect.stringContaining('The room for Online pottery opens at')]);
  });

  it('a permission refusal (550 5.7.1) is a dead letter owned by configuration, not a suppression; replay sends exactly one', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'), { email: 'ana+deny-once@example.test' });
    const now = new Date('2027-06-10T09:00:00Z');
    h.clock.set(now);
    const ctx = { tenantId: tenant.id, actor: 'staff@x.test', now };
    await nudgeParticipant(db(), ctx, { bookingId: booking.id, template: 'attendee-reminder', idempotencyKey: 'k-deny-0001' });
    await h.drain();
    const [dead] = await db().select().from(deliveries).where(eq(deliveries.tenantId, tenant.id));
    expect([dead.status, dead.repairOwner]).toEqual(['dead', 'configuration']);
    expect(dead.lastError).toContain('5.7.1');
    expect(await db().select().from(suppressions).where(eq(suppressions.tenantId, tenant.id))).toHaveLength(0);
    expect(await h.caught()).toHaveLength(0);
    await replayDelivery(db(), ctx, dead.id);
    await h.drain();
    const [after] = await db().select().from(deliveries).where(eq(deliveries.id, dead.id));
    expect(after.status).toBe('accepted');
    expect((await h.caught()).map((m) => m.envelopeTo)).toEqual([['ana+deny-once@example.test']]);
  });

  it('a connection dropped after the message was stored is unknown (never resent by itself); mark as sent ends it', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'), { email: 'bo+drop-once@example.test' });
    const now = new Date('2027-06-10T09:00:00Z');
    h.clock.set(now);
    const ctx = { tenantId: tenant.id, actor: 'staff@x.test', now };
    await nudgeParticipant(db(), ctx, { bookingId: booking.id, template: 'attendee-reminder', idempotencyKey: 'k-drop-0001' });
    await h.drain();
    const [d] = await db().select().from(deliveries).where(eq(deliveries.tenantId, tenant.id));
    expect(d.status).toBe('unknown');
    expect(await h.caught()).toHaveLength(1);
    await h.tick('2027-06-10T10:30:00Z');
    expect(await h.caught()).toHaveLength(1);
    await markDeliverySent(db(), { ...ctx, now: new Date('2027-06-10T10:31:00Z') }, d.id, 'seen in the catcher');
    const [after] = await db().select().from(deliveries).where(eq(deliveries.id, d.id));
    expect(after.status).toBe('accepted');
    expect(await h.caught()).toHaveLength(1);
  });
});
