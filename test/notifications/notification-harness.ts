/**
 * Shared set-up of the notification suites (notifications, sms-and-quiet-hours and notification-webhooks .test.ts
 * in this folder; issue #9): real PostgreSQL, the real queue, the real SMTP catcher, a Twilio-compatible SMS peer
 * and two Standard Webhooks receivers that verify every delivery with the same library (the second is where an
 * admin moves the endpoint to; both are started first, so both origins are allowed).
 *
 * Each test file calls {@link useNotificationHarness} once: vitest runs files in parallel, each with its own module
 * instance, so every file gets its own peers and its own cloned database. `h`, `sms`, `hook` and `moved` are live
 * bindings, set by the hooks it registers.
 */
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createSmsChannel } from '@/channels/sms';
import { createWebhookChannel, newWebhookSecret } from '@/channels/webhook';
import { notificationSettings, type CaughtMessage } from '@/db/schema';
import { defaultPolicy } from '@/domain/notifications/notification-policy';
import { createEvent } from '@/server/scheduling/events';
import { createHarness, type Harness } from '@/test/support/harness';
import { tenantWithRules } from '@/test/support/fixtures';
import { startSmsPeer, type SmsPeer } from '@/test/support/sms-peer';
import { startWebhookPeer, type WebhookPeer } from '@/test/support/webhook-peer';

/** The pipeline of this test file (database, catcher, queue, fake clock): set by {@link useNotificationHarness}'s beforeAll. */
export let h: Harness;
/** The Twilio-compatible SMS API peer, scripted to accept before each test. */
export let sms: SmsPeer;
/** The Standard Webhooks receiver of {@link tenant}'s endpoint, scripted to accept before each test. */
export let hook: WebhookPeer;
/** A second receiver, where an admin moves the endpoint to (started with the first, so both origins are allowed). */
export let moved: WebhookPeer;
/** The `whsec_` secret of the tenants' webhook endpoints (both receivers verify with it). */
const secret = newWebhookSecret();
/** The key preference links are signed with. */
export const linkSecret = 'test-preferences-key-0123456789abcdef';

/**
 * Registers this file's hooks: before all, the SMS peer, both webhook receivers and a harness that sends over them
 * (webhook retries 1 s apart, up to 8 attempts); before each test, an empty database and peers that accept; after
 * all, all of it closed. Call once, at the top level of a test file.
 */
export function useNotificationHarness(): void {
  beforeAll(async () => {
    sms = await startSmsPeer();
    // The receiver's clock is the simulated one the sender signs with (the webhook-timestamp tolerance is 5 minutes).
    hook = await startWebhookPeer({ secret, now: () => h.clock.now().getTime() });
    moved = await startWebhookPeer({ secret, now: () => h.clock.now().getTime() });
    h = await createHarness({
      deps: {
        sms: createSmsChannel({ baseUrl: sms.url, accountSid: sms.accountSid, authToken: sms.authToken }),
        // The peers are on 127.0.0.1: allowed by their origins (host and port), not by switching the address check off.
        webhook: createWebhookChannel({ allowHttp: true, allowedOrigins: [new URL(hook.url).origin, new URL(moved.url).origin] }),
        smsFrom: '+15005550006',
        links: { publicUrl: 'http://punctual.test', secret: linkSecret },
        retryPolicies: { webhook: { baseMs: 1000, capMs: 1000, maxAttempts: 8 } },
        random: () => 0,
      },
    });
  });
  afterAll(async () => {
    await h?.close();
    await sms?.close();
    await hook?.close();
    await moved?.close();
  });
  beforeEach(async () => {
    await h.tdb.reset();
    sms.messages.length = 0;
    sms.requests.length = 0;
    sms.script('accept');
    hook.deliveries.length = 0;
    hook.accepted.length = 0;
    hook.script('accept');
  });
}
/** This file's database. */
export const db = () => h.tdb.db;

/** A tenant with the default notification policy, a 24-hour reminder rule, and optionally a webhook endpoint. */
export async function tenant(opts: { webhook?: boolean; zone?: string } = {}) {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D', name: '24 hours before', window: 6 * 3600 }], opts.zone ?? 'Europe/Lisbon');
  await db().insert(notificationSettings).values({
    tenantId: tenant.id,
    policy: defaultPolicy,
    webhookUrl: opts.webhook ? hook.url : null,
    webhookSecret: opts.webhook ? secret : null,
    webhookEnabled: !!opts.webhook,
  });
  return tenant;
}

/** Tile painting on 2027-07-01, 10:00–12:00 in Lisbon. */
export async function lisbonEvent(tenantId: string) {
  return createEvent(db(), tenantId, {
    title: 'Tile painting',
    startsAt: '2027-07-01T09:00:00Z', // 10:00 in Lisbon (WEST, UTC+1)
    endsAt: '2027-07-01T11:00:00Z',
    timeZone: 'Europe/Lisbon',
  });
}

/** The calendar attachment of a caught email, parsed. */
export async function calendarOf(m: CaughtMessage): Promise<string> {
  const parsed = await simpleParser(m.raw);
  const ics = parsed.attachments.find((a) => /calendar|ics/.test(a.contentType) || /\.ics$/.test(a.filename ?? ''));
  if (!ics) throw new Error(`no calendar attachment in "${m.subject}"`);
  return ics.content.toString('utf8');
}

/** The caught emails (not SMS or webhooks), in the order received. */
export const emails = async () => (await h.caught()).filter((m) => m.channel === 'email');
