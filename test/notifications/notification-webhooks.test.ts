/**
 * Notification webhooks (issue #9 §5) against real PostgreSQL, the real queue and Standard Webhooks receivers that
 * verify every delivery: retries keep one webhook-id (also after an admin moves the endpoint), and a 410 makes a
 * dead letter owned by configuration and switches the endpoint off. Peers, harness and helpers:
 * ./notification-harness.ts.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deliveries, deliveryAttempts, notificationSettings } from '@/db/schema';
import { addBooking } from '@/server/scheduling/bookings';
import { db, h, hook, lisbonEvent, moved, tenant, useNotificationHarness } from './notification-harness';

useNotificationHarness();

describe('webhooks (issue #9 §5)', () => {
  it('an endpoint moved by an admin after the claim gets the retry (same webhook-id); a 410 from the old one does not switch the new one off', async () => {
    const t = await tenant({ webhook: true });
    const event = await lisbonEvent(t.id);
    hook.script('500', '410');
    h.clock.set('2027-06-01T12:00:00Z');
    await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'moved@example.test' } }, h.clock.now());
    await h.drain();
    await db().update(notificationSettings).set({ webhookUrl: moved.url }).where(eq(notificationSettings.tenantId, t.id));
    await h.tick('2027-06-01T12:00:05Z');
    const [d] = await db().select().from(deliveries).where(eq(deliveries.channel, 'webhook'));
    expect([d.status, d.address]).toEqual(['accepted', moved.url]);
    expect(moved.accepted.map((x) => x.id)).toEqual([d.messageKey]);
    expect(hook.deliveries).toHaveLength(1);
    const [s] = await db().select().from(notificationSettings).where(eq(notificationSettings.tenantId, t.id));
    expect(s.webhookEnabled).toBe(true);
  });

  it('a receiver answering 500 twice then 200 → one accepted delivery, three attempts, one webhook-id, verified', async () => {
    const t = await tenant({ webhook: true });
    const event = await lisbonEvent(t.id);
    hook.script('500', '500', 'accept');
    h.clock.set('2027-06-01T12:00:00Z');
    const b = await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'hooked@example.test' } }, h.clock.now());
    await h.drain();
    await h.tick('2027-06-01T12:00:02Z');
    await h.tick('2027-06-01T12:00:04Z');
    const [d] = await db().select().from(deliveries).where(eq(deliveries.channel, 'webhook'));
    expect([d.status, d.statusReason]).toEqual(['accepted', null]);
    expect(d.messageKey).toBe(`ntf:${t.id}:booking_confirmed:${b.id}:r1:${b.contactId}:webhook`);
    const attempts = await db().select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, d.id));
    expect(attempts).toHaveLength(3);
    expect(hook.deliveries).toHaveLength(3);
    expect(new Set(hook.deliveries.map((x) => x.id))).toEqual(new Set([d.messageKey]));
    expect(hook.deliveries.every((x) => x.verified)).toBe(true);
    expect(hook.accepted).toHaveLength(1);
    expect(hook.accepted[0].payload).toMatchObject({ type: 'booking_confirmed', data: { booking: { id: b.id }, event: { timeZone: 'Europe/Lisbon' } } });
  });

  it('a receiver answering 410 → dead letter owned by configuration, endpoint switched off, later notifications plan no webhook', async () => {
    const t = await tenant({ webhook: true });
    const event = await lisbonEvent(t.id);
    hook.script('410');
    h.clock.set('2027-06-01T12:00:00Z');
    await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'gone@example.test' } }, h.clock.now());
    await h.drain();
    const [d] = await db().select().from(deliveries).where(eq(deliveries.channel, 'webhook'));
    expect(d.status).toBe('dead');
    expect(d.repairOwner).toBe('configuration');
    const [s] = await db().select().from(notificationSettings).where(eq(notificationSettings.tenantId, t.id));
    expect(s.webhookEnabled).toBe(false);
    expect(s.webhookDisabledReason).toContain('410');
    await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'next@example.test' } }, h.clock.now());
    await h.drain();
    expect(await db().select().from(deliveries).where(eq(deliveries.channel, 'webhook'))).toHaveLength(1);
    expect(hook.deliveries).toHaveLength(1);
  });
});
