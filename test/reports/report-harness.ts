/**
 * Shared set-up of the delivery-report suites (email-reports, sms-reports, report-routes and delivery-reports
 * .test.ts in this folder; issue #10 §1–3): real PostgreSQL, the real queue and real peers. Messages go out over
 * an HTTP email API (test/support/http-peer.ts) and a Twilio-compatible SMS API (test/support/sms-peer.ts), so every
 * provider message id is real; email events are signed with the real `standardwebhooks` library and driven through
 * the intake function the route calls; SMS status callbacks are POSTed by the SMS peer, signed with its token, over
 * HTTP to a small server in front of the same intake function.
 *
 * Each test file calls {@link useReportHarness} once: vitest runs files in parallel, each with its own module
 * instance, so every file gets its own peers and its own cloned database. `h`, `mailApi`, `sms` and `callbackUrl`
 * are live bindings, set by the hooks it registers.
 */
import http from 'node:http';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createHttpEmailChannel } from '@/channels/http-email';
import { createSmsChannel } from '@/channels/sms';
import { contacts, deliveries, suppressions, type Delivery } from '@/db/schema';
import { intakeEmailEvent, intakeSmsStatus } from '@/server/reports/report-intake';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { createTenant } from '@/server/organisations/tenants';
import { createReminderRule } from '@/server/rules/reminder-rule';
import { createHarness, type Harness } from '@/test/support/harness';
import { startHttpPeer, type HttpPeer } from '@/test/support/http-peer';
import { startSmsPeer, type SmsPeer } from '@/test/support/sms-peer';

/** HTTP_EMAIL_WEBHOOK_SECRET of these tests: the key {@link emailEvent} signs with. */
export const SECRET = `whsec_${Buffer.from('delivery-reports-test-secret-0123456789').toString('base64')}`;

/** The pipeline (database, queue, fake clock) of this test file: set by {@link useReportHarness}'s beforeAll. */
export let h: Harness;
/** The HTTP email API peer (test/support/http-peer.ts), scripted to accept before each test. */
export let mailApi: HttpPeer;
/** The Twilio-compatible SMS API peer (test/support/sms-peer.ts), scripted to accept before each test. */
export let sms: SmsPeer;
/** The web app's SMS report route, as the SMS peer reaches it: POST /api/reports/sms → intakeSmsStatus. */
let reportServer: http.Server;
/** The URL the SMS peer posts status callbacks to (the report server's `/api/reports/sms`). */
export let callbackUrl: string;

/**
 * Registers this file's hooks: before all, the peers, the report server and a harness whose deliveries go out over
 * the HTTP email API and the SMS API; before each test, an empty database and peers that accept; after all, all
 * of it closed. Call once, at the top level of a test file.
 */
export function useReportHarness(): void {
  beforeAll(async () => {
    mailApi = await startHttpPeer();
    sms = await startSmsPeer();
    reportServer = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        try {
          const a = await intakeSmsStatus(h.tdb.db, {
            rawBody: Buffer.concat(chunks).toString('utf8'),
            signature: (req.headers['x-twilio-signature'] as string | undefined) ?? null,
            contentType: req.headers['content-type'] ?? null,
            url: callbackUrl,
            authToken: sms.authToken,
            now: h.clock.now(),
          });
          res.writeHead(a.status, { 'content-type': 'application/json' }).end(JSON.stringify(a.body));
        } catch (e) {
          res.writeHead(500).end(String(e));
        }
      });
    });
    await new Promise<void>((r) => reportServer.listen(0, '127.0.0.1', () => r()));
    const addr = reportServer.address();
    callbackUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/api/reports/sms`;
    h = await createHarness({
      deps: {
        channels: { http_api: createHttpEmailChannel({ baseUrl: mailApi.url, apiKey: mailApi.apiKey }) },
        sms: createSmsChannel({ baseUrl: sms.url, accountSid: sms.accountSid, authToken: sms.authToken }),
        smsFrom: '+15005550006',
        smsStatusCallbackUrl: callbackUrl,
        random: () => 0,
      },
    });
  });
  afterAll(async () => {
    await h?.close();
    await mailApi?.close();
    await sms?.close();
    await new Promise((r) => reportServer?.close(r));
  });
  beforeEach(async () => {
    await h.tdb.reset();
    mailApi.messages.length = 0;
    mailApi.requests.length = 0;
    mailApi.script('accept');
    sms.messages.length = 0;
    sms.requests.length = 0;
    sms.script('accept');
  });
}

/** This file's database. */
export const db = () => h.tdb.db;

let slugs = 0;
/** A tenant on the HTTP email provider with reminder rules at the given offsets before the start. */
export async function tenantWith(rules: { offset: string; name?: string }[], name = 'Report Org') {
  const tenant = await createTenant(db(), { slug: `rep-${++slugs}-${Date.now().toString(36)}`, name, timeZone: 'Europe/Amsterdam', emailProvider: 'http_api' });
  for (const r of rules) {
    await createReminderRule(db(), tenant.id, {
      name: r.name ?? `rule ${r.offset}`,
      anchor: 'start',
      offset: r.offset,
      audience: ['attendee', 'external'],
      template: 'attendee-reminder',
      lateSendWindowSeconds: 3600,
    });
  }
  return tenant;
}

/**
 * An event starting at `startsAt` with one attendee (email, optional phone) who takes reminders on `channels`
 * (reminders are planned per channel the person accepts, issue #9).
 */
export async function booked(tenantId: string, startsAt: string, contact: { email: string; phone?: string; channels?: ('email' | 'sms')[] }, bookedAt: string) {
  await db().insert(contacts).values({ tenantId, email: contact.email, name: 'Bea Attendee', phone: contact.phone ?? null, preferences: { reminders: contact.channels ?? ['email'], booking_updates: ['email'] } });
  const event = await createEvent(db(), tenantId, { title: 'Pottery', startsAt, endsAt: new Date(Date.parse(startsAt) + 3_600_000).toISOString(), timeZone: 'Europe/Amsterdam' });
  const booking = await addBooking(db(), tenantId, { eventId: event.id, role: 'attendee', contact: { email: contact.email, name: 'Bea Attendee' } }, new Date(bookedAt));
  return { event, booking };
}

/** Every delivery, oldest first. */
export const deliveryRows = () => db().select().from(deliveries).orderBy(asc(deliveries.createdAt));
/** `d` as stored now. */
export const reload = async (d: Delivery) => (await db().select().from(deliveries).where(eq(deliveries.id, d.id)))[0];
/** The tenant's suppressions that are not removed. */
export const liveSuppressions = (tenantId: string) => db().select().from(suppressions).where(and(eq(suppressions.tenantId, tenantId), isNull(suppressions.removedAt)));

/**
 * A Resend-style event, signed per Standard Webhooks with SECRET (or `secret`). The signature covers the
 * `webhook-timestamp` header's whole second, so both come from ONE clock read: read twice, a second boundary
 * between the reads made a valid event fail its check (401, nothing stored) about once in 10⁵ calls.
 */
export function emailEvent(
  id: string,
  type: string,
  createdAt: string,
  data: Record<string, unknown>,
  secret = SECRET,
): { rawBody: string; headers: Record<string, string> } {
  const rawBody = JSON.stringify({ type, created_at: createdAt, data });
  const signedAt = new Date();
  const signature = new Webhook(secret).sign(id, signedAt, rawBody);
  return { rawBody, headers: { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)), 'webhook-signature': signature, 'content-type': 'application/json' } };
}
/** The email report route's logic with HTTP_EMAIL_WEBHOOK_SECRET = `secret` (null: not set). */
export const postEmail = (e: { rawBody: string; headers: Record<string, string> }, now: string, secret: string | null = SECRET) =>
  intakeEmailEvent(db(), { ...e, secret: secret ?? undefined, now: new Date(now) });
