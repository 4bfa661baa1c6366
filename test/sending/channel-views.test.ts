/**
 * Channels everywhere the staff look (issue #9 §8), against real PostgreSQL, the real queue, the SMTP catcher,
 * the Twilio-compatible SMS peer and the verifying webhook receiver: the read models behind the participant
 * timeline, the deliveries log, Needs attention and the dashboard see email, SMS and webhook deliveries alike,
 * and the operator actions (replay, send again) work on any channel — except that a webhook delivery is not
 * re-queued while the endpoint is switched off.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSmsChannel } from '@/channels/sms';
import { createWebhookChannel, newWebhookSecret } from '@/channels/webhook';
import { outcomesByChannel } from '@/db/queries/dashboards/dashboard';
import { searchDeliveries } from '@/db/queries/dashboards/deliveries-log';
import { listDeliveryCases, webhookSwitchedOff } from '@/db/queries/sending/operator';
import { getEventPage } from '@/db/queries/scheduling/event-views';
import { contacts, deliveries, notificationSettings } from '@/db/schema';
import { quietHoursNote } from '@/domain/sending/message-labels';
import { defaultPolicy } from '@/domain/notifications/notification-policy';
import { replayDelivery } from '@/server/sending/operator';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent, rescheduleEvent } from '@/server/scheduling/events';
import { createHarness, type Harness } from '@/test/support/harness';
import { tenantWithRules } from '@/test/support/fixtures';
import { startSmsPeer, type SmsPeer } from '@/test/support/sms-peer';
import { startWebhookPeer, type WebhookPeer } from '@/test/support/webhook-peer';

let h: Harness;
let sms: SmsPeer;
let hook: WebhookPeer;
const secret = newWebhookSecret();

beforeAll(async () => {
  sms = await startSmsPeer();
  hook = await startWebhookPeer({ secret, now: () => h.clock.now().getTime() });
  h = await createHarness({
    deps: {
      sms: createSmsChannel({ baseUrl: sms.url, accountSid: sms.accountSid, authToken: sms.authToken }),
      // The peer is on 127.0.0.1: allowed by its origin (host and port), not by switching the address check off.
      webhook: createWebhookChannel({ allowHttp: true, allowedOrigins: [new URL(hook.url).origin] }),
      smsFrom: '+15005550006',
      random: () => 0,
    },
  });
});
afterAll(async () => {
  await h?.close();
  await sms?.close();
  await hook?.close();
});
beforeEach(async () => {
  await h.tdb.reset();
  sms.script('accept');
  hook.script('accept');
});
const db = () => h.tdb.db;

/** A tenant (Europe/Amsterdam) with the default notification policy and the receiver as its webhook endpoint. */
async function setup() {
  const { tenant } = await tenantWithRules(db(), [], 'Europe/Amsterdam');
  await db().insert(notificationSettings).values({ tenantId: tenant.id, policy: defaultPolicy, webhookUrl: hook.url, webhookSecret: secret, webhookEnabled: true });
  const event = await createEvent(db(), tenant.id, {
    title: 'Glass blowing',
    startsAt: '2027-07-01T08:00:00Z',
    endsAt: '2027-07-01T10:00:00Z',
    timeZone: 'Europe/Amsterdam',
  });
  return { tenant, event };
}

/** Books a person who takes booking updates by email AND SMS; the notify job has not run yet. */
async function bookEmailAndSms(tenantId: string, eventId: string, extra: { quietHours?: { start: string; end: string }; timeZone?: string } = {}) {
  const b = await addBooking(
    db(),
    tenantId,
    { eventId, role: 'attendee', contact: { email: 'mo@example.test', name: 'Mo Reyes', phone: '+31612345678', timeZone: extra.timeZone ?? null } },
    h.clock.now(),
  );
  await db()
    .update(contacts)
    .set({ preferences: { reminders: ['email'], booking_updates: ['email', 'sms'] }, quietHours: extra.quietHours ?? null })
    .where(eq(contacts.id, b.contactId));
  return b;
}

describe('the participant timeline (getEventPage) shows every channel', () => {
  it('a confirmation by email, SMS and webhook: three rows titled "Booking confirmed", each with its delivery, text and attempt', async () => {
    const { tenant, event } = await setup();
    h.clock.set('2027-06-01T12:00:00Z');
    const b = await bookEmailAndSms(tenant.id, event.id);
    await h.drain();

    const page = (await getEventPage(db(), tenant.id, event.id))!;
    const booking = page.bookings.find((x) => x.id === b.id)!;
    expect(booking.contact?.phone).toBe('+31612345678');
    const rows = booking.reminders.filter((r) => r.kind === 'notification');
    // One row per channel, in channel order, each its own message with its own state.
    expect(rows.map((r) => r.channel)).toEqual(['email', 'sms', 'webhook']);
    for (const r of rows) {
      expect(r.ruleName).toBe('Booking confirmed');
      expect(r.notificationType).toBe('booking_confirmed');
      expect(r.deferredFrom).toBeNull();
      expect(r.delivery?.channel).toBe(r.channel);
      expect(r.delivery?.status).toBe('accepted');
      expect(r.delivery?.attempts).toHaveLength(1);
      expect(r.delivery?.attempts[0]).toMatchObject({ attemptNo: 1, outcome: 'accepted', errorCode: null });
    }
    const [email, text, webhook] = rows;
    expect(email.delivery).toMatchObject({ provider: 'smtp', address: 'mo@example.test' });
    expect(email.delivery!.subject).toContain('Glass blowing');
    // The SMS text as sent (the peer got the same body) and the webhook target.
    expect(text.delivery).toMatchObject({ provider: 'sms_api', address: '+31612345678' });
    expect(text.delivery!.subject).toBe(sms.messages.at(-1)!.body);
    expect(webhook.delivery).toMatchObject({ provider: 'webhook', address: hook.url, subject: `booking_confirmed → ${hook.url}` });
  });

  it('a message held by quiet hours carries the instant it was due (deferredFrom) and the person’s zone; the webhook is not held', async () => {
    const { tenant, event } = await setup();
    // 23:10 in Berlin (CET): inside 21:00–08:00 quiet hours.
    h.clock.set('2027-03-09T22:10:00Z');
    const b = await bookEmailAndSms(tenant.id, event.id, { quietHours: { start: '21:00', end: '08:00' }, timeZone: 'Europe/Berlin' });
    await h.drain();
    const page = (await getEventPage(db(), tenant.id, event.id))!;
    const booking = page.bookings.find((x) => x.id === b.id)!;
    expect(booking.personZone).toBe('Europe/Berlin');
    const byChannel = Object.fromEntries(booking.reminders.filter((r) => r.kind === 'notification').map((r) => [r.channel, r]));
    expect(byChannel.email.deferredFrom).toBe('2027-03-09T22:10:00.000Z');
    expect(byChannel.email.dueAt).toBe('2027-03-10T07:00:00.000Z');
    expect(byChannel.email.status).toBe('scheduled');
    expect(byChannel.sms.deferredFrom).toBe('2027-03-09T22:10:00.000Z');
    expect(byChannel.webhook.deferredFrom).toBeNull();
    expect(byChannel.webhook.delivery?.status).toBe('accepted');
    expect(quietHoursNote({ deferredFrom: byChannel.email.deferredFrom, dueAt: byChannel.email.dueAt, personZone: booking.personZone, pageZone: page.event.timeZone })).toBe(
      'held for quiet hours (due 23:10, sent after 08:00, their time in Europe/Berlin)',
    );
  });

  it('a person without a zone of their own keeps quiet hours in the tenant’s zone', async () => {
    const { tenant, event } = await setup();
    h.clock.set('2027-06-01T12:00:00Z');
    const b = await bookEmailAndSms(tenant.id, event.id);
    const page = (await getEventPage(db(), tenant.id, event.id))!;
    expect(page.bookings.find((x) => x.id === b.id)!.personZone).toBe('Europe/Amsterdam');
  });
});

describe('deliveries log, needs attention, dashboard and replay on every channel', () => {
  it('filters by channel; dead SMS and webhook letters are listed per channel; the switched-off endpoint is reported; replay works per channel', async () => {
    const { tenant, event } = await setup();
    h.clock.set('2027-06-01T12:00:00Z');
    await bookEmailAndSms(tenant.id, event.id);
    await h.drain();

    // Deliveries log: all three, or one channel at a time, each titled by what it is.
    const all = await searchDeliveries(db(), tenant.id, {}, { limit: 50, offset: 0 });
    expect(all.total).toBe(3);
    // Every row names the person it is about (the webhook row shows it beside its target URL).
    expect(all.items.map((r) => [r.delivery.channel, r.participant]).sort()).toEqual([
      ['email', 'Mo Reyes'],
      ['sms', 'Mo Reyes'],
      ['webhook', 'Mo Reyes'],
    ]);
    const onlySms = await searchDeliveries(db(), tenant.id, { channel: 'sms' }, { limit: 50, offset: 0 });
    expect(onlySms.total).toBe(1);
    expect(onlySms.items[0]).toMatchObject({ title: 'Booking confirmed', eventTitle: 'Glass blowing' });
    expect(onlySms.items[0].delivery.address).toBe('+31612345678');
    // The SMS text is searchable like a subject.
    const byText = await searchDeliveries(db(), tenant.id, { q: 'Glass blowing', channel: 'sms' }, { limit: 50, offset: 0 });
    expect(byText.total).toBe(1);

    // The move: the SMS provider refuses our credentials (20003 → dead letter, configuration) and the
    // receiver answers 410 Gone (dead letter, endpoint switched off).
    sms.script('auth');
    hook.script('410');
    h.clock.set('2027-06-02T09:00:00Z');
    await rescheduleEvent(db(), tenant.id, event.id, { startsAt: '2027-07-02T08:00:00Z', endsAt: '2027-07-02T10:00:00Z', timeZone: 'Europe/Amsterdam' }, h.clock.now());
    await h.drain();

    const dead = await listDeliveryCases(db(), tenant.id, ['dead']);
    expect(dead.map((c) => c.delivery.channel).sort()).toEqual(['sms', 'webhook']);
    expect(dead.every((c) => c.title === 'Event rescheduled')).toBe(true);
    const deadSms = await listDeliveryCases(db(), tenant.id, ['dead'], 100, { channel: 'sms' });
    expect(deadSms).toHaveLength(1);
    expect(deadSms[0].delivery.repairOwner).toBe('configuration');
    expect(deadSms[0].attempts[0]).toMatchObject({ outcome: 'rejected', errorCode: '20003' });
    expect(await listDeliveryCases(db(), tenant.id, ['dead'], 100, { channel: 'email' })).toHaveLength(0);
    const [deadHook] = await listDeliveryCases(db(), tenant.id, ['dead'], 100, { channel: 'webhook' });

    const off = await webhookSwitchedOff(db(), tenant.id);
    expect(off).not.toBeNull();
    expect(off!.reason).toContain('410');
    expect(off!.at?.toISOString()).toBe('2027-06-02T09:00:00.000Z');
    expect(off!.url).toBe(hook.url);

    // Dashboard: the same attempts, per channel.
    const perChannel = await outcomesByChannel(db(), tenant.id, { windowStart: new Date('2027-06-01T00:00:00Z'), windowEnd: new Date('2027-06-03T00:00:00Z') });
    const count = (channel: string, outcome: string) => perChannel.find((r) => r.channel === channel && r.outcome === outcome)?.count ?? 0;
    expect(count('email', 'accepted')).toBe(2);
    expect(count('sms', 'accepted')).toBe(1);
    expect(count('sms', 'rejected')).toBe(1);
    expect(count('webhook', 'accepted')).toBe(1);
    expect(count('webhook', 'rejected')).toBe(1);
    // Another tenant's window sees none of it.
    const other = await tenantWithRules(db(), [], 'Europe/London');
    expect(await outcomesByChannel(db(), other.tenant.id, { windowStart: new Date('2027-06-01T00:00:00Z'), windowEnd: new Date('2027-06-03T00:00:00Z') })).toEqual([]);

    const ctx = { tenantId: tenant.id, actor: 'staff@example.test', now: h.clock.now() };
    // A webhook dead letter is not replayed into a switched-off endpoint: refused, and it stays a dead letter.
    await expect(replayDelivery(db(), ctx, deadHook.delivery.id)).rejects.toThrow(/cannot replay: the webhook endpoint is switched off \(the receiver at \S+ answered HTTP_410/);
    expect((await db().select().from(deliveries).where(eq(deliveries.id, deadHook.delivery.id)))[0].status).toBe('dead');

    // The SMS dead letter replays like an email one, once the credentials are fixed: same key, one more attempt.
    sms.script('accept');
    const before = sms.messages.length;
    await replayDelivery(db(), ctx, deadSms[0].delivery.id);
    await h.drain();
    const [smsAfter] = await db().select().from(deliveries).where(eq(deliveries.id, deadSms[0].delivery.id));
    expect(smsAfter.status).toBe('accepted');
    expect(smsAfter.attemptCount).toBe(2);
    expect(smsAfter.messageKey).toBe(deadSms[0].delivery.messageKey);
    expect(sms.messages.length).toBe(before + 1);

    // Switched on again, the webhook dead letter replays under the same webhook-id.
    hook.script('accept');
    await db().update(notificationSettings).set({ webhookEnabled: true, webhookDisabledReason: null, webhookDisabledAt: null }).where(eq(notificationSettings.tenantId, tenant.id));
    expect(await webhookSwitchedOff(db(), tenant.id)).toBeNull();
    await replayDelivery(db(), ctx, deadHook.delivery.id);
    await h.drain();
    const [hookAfter] = await db().select().from(deliveries).where(eq(deliveries.id, deadHook.delivery.id));
    expect(hookAfter.status).toBe('accepted');
    expect(hook.deliveries.at(-1)!.id).toBe(deadHook.delivery.messageKey);
    expect(await listDeliveryCases(db(), tenant.id, ['dead'])).toHaveLength(0);
  });

  it('an endpoint that was never set up is not reported as switched off', async () => {
    const { tenant } = await tenantWithRules(db(), [], 'Europe/Amsterdam');
    expect(await webhookSwitchedOff(db(), tenant.id)).toBeNull();
    await db().insert(notificationSettings).values({ tenantId: tenant.id, policy: defaultPolicy, webhookEnabled: false });
    expect(await webhookSwitchedOff(db(), tenant.id)).toBeNull();
  });
});
