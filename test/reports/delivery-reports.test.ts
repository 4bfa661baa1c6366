/**
 * Delivery reports (issue #10 §1–3) end to end against real PostgreSQL, the real queue and real peers: messages go
 * out over an HTTP email API (test/support/http-peer.ts) and a Twilio-compatible SMS API (test/support/sms-peer.ts),
 * so every provider message id is real; email events are signed with the real `standardwebhooks` library and driven
 * through the intake function the route calls; SMS status callbacks are POSTed by the SMS peer, signed with its
 * token, over HTTP to a small server in front of the same intake function. Each `it` is one of the exact
 * scenarios (or a rule they rest on).
 */
import http from 'node:http';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpEmailChannel } from '@/channels/http-email';
import { createSmsChannel } from '@/channels/sms';
import { findSuppression, transitionDelivery } from '@/db/queries/sending/delivery';
import { listSuppressions } from '@/db/queries/suppressions/suppressions';
import { auditLog, contacts, deliveries, deliveryReports, reminders, suppressions, type Delivery } from '@/db/schema';
import { formParams, twilioSignature } from '@/domain/reports/twilio-signature';
import { adoptUnmatchedReports, applyReport } from '@/server/reports/reports';
import { intakeEmailEvent, intakeSmsStatus } from '@/server/reports/report-intake';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { addSuppressionAction, removeSuppressionAction } from '@/server/scheduling/staff-actions';
import { allowGuestsFrom, createReminderRule, createTenant } from '@/server/organisations/tenants';
import { createHarness, type Harness } from '@/test/support/harness';
import { startHttpPeer, type HttpPeer } from '@/test/support/http-peer';
import { startSmsPeer, type SmsPeer } from '@/test/support/sms-peer';

const SECRET = `whsec_${Buffer.from('delivery-reports-test-secret-0123456789').toString('base64')}`;

let h: Harness;
let mailApi: HttpPeer;
let sms: SmsPeer;
/** The web app's SMS report route, as the SMS peer reaches it: POST /api/reports/sms → intakeSmsStatus. */
let reportServer: http.Server;
let callbackUrl: string;

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
const db = () => h.tdb.db;

let slugs = 0;
/** A tenant on the HTTP email provider with reminder rules at the given offsets before the start. */
async function tenantWith(rules: { offset: string; name?: string }[], name = 'Report Org') {
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
async function booked(tenantId: string, startsAt: string, contact: { email: string; phone?: string; channels?: ('email' | 'sms')[] }, bookedAt: string) {
  await db().insert(contacts).values({ tenantId, email: contact.email, name: 'Bea Attendee', phone: contact.phone ?? null, preferences: { reminders: contact.channels ?? ['email'], booking_updates: ['email'] } });
  const event = await createEvent(db(), tenantId, { title: 'Pottery', startsAt, endsAt: new Date(Date.parse(startsAt) + 3_600_000).toISOString(), timeZone: 'Europe/Amsterdam' });
  const booking = await addBooking(db(), tenantId, { eventId: event.id, role: 'attendee', contact: { email: contact.email, name: 'Bea Attendee' } }, new Date(bookedAt));
  return { event, booking };
}

const deliveryRows = () => db().select().from(deliveries).orderBy(asc(deliveries.createdAt));
const reload = async (d: Delivery) => (await db().select().from(deliveries).where(eq(deliveries.id, d.id)))[0];
const liveSuppressions = (tenantId: string) => db().select().from(suppressions).where(and(eq(suppressions.tenantId, tenantId), isNull(suppressions.removedAt)));

/**
 * A Resend-style event, signed per Standard Webhooks with SECRET (or `secret`). The signature covers the
 * `webhook-timestamp` header's whole second, so both come from ONE clock read: read twice, a second boundary
 * between the reads made a valid event fail its check (401, nothing stored) about once in 10⁵ calls.
 */
function emailEvent(
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
const postEmail = (e: { rawBody: string; headers: Record<string, string> }, now: string, secret: string | null = SECRET) =>
  intakeEmailEvent(db(), { ...e, secret: secret ?? undefined, now: new Date(now) });

describe('HTTP email provider events (Standard Webhooks)', () => {
  it('complained (12:05) at 12:06, delivered (12:00:03) at 12:07, the same complained at 12:08 → complained, one suppression, the repeat processed once', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-03-02T12:00:00Z', { email: 'ops@example.test' }, '2027-02-20T09:00:00Z');
    await h.tick('2027-03-01T12:00:00Z');
    const [d] = await deliveryRows();
    expect(d.status).toBe('accepted');
    expect(mailApi.messages).toHaveLength(1);
    expect(d.providerMessageId).toBe(mailApi.messages[0].id);
    const emailId = d.providerMessageId!;

    const complained = emailEvent('msg_2027_complaint', 'email.complained', '2027-03-01T12:05:00.000Z', { email_id: emailId, to: ['ops@example.test'] });
    const delivered = emailEvent('msg_2027_delivered', 'email.delivered', '2027-03-01T12:00:03.000Z', { email_id: emailId, to: ['ops@example.test'] });

    const first = await postEmail(complained, '2027-03-01T12:06:00Z');
    expect(first).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'complained' } });
    const second = await postEmail(delivered, '2027-03-01T12:07:00Z');
    expect(second).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'complained' } });
    const third = await postEmail(complained, '2027-03-01T12:08:00Z');
    expect(third).toMatchObject({ status: 200, body: { status: 'duplicate', reportId: first.body.reportId } });

    const after = await reload(d);
    expect(after.status).toBe('complained');
    expect(after.reportedAt?.toISOString()).toBe('2027-03-01T12:05:00.000Z');
    expect(after.statusReason).toContain('complaint at 2027-03-01T12:05:00.000Z');

    const reports = await db().select().from(deliveryReports).orderBy(asc(deliveryReports.receivedAt));
    expect(reports.map((r) => [r.kind, r.occurredAt.toISOString(), r.receivedAt.toISOString(), r.deliveryId])).toEqual([
      ['complaint', '2027-03-01T12:05:00.000Z', '2027-03-01T12:06:00.000Z', d.id],
      ['delivered', '2027-03-01T12:00:03.000Z', '2027-03-01T12:07:00.000Z', d.id],
    ]);
    expect(reports[0].effect).toBe('accepted → complained; suppressed ops@example.test for email (complained)');
    expect(reports[1].effect).toMatch(/^no change/);

    const sup = await db().select().from(suppressions).where(eq(suppressions.tenantId, t.id));
    expect(sup).toHaveLength(1);
    expect(sup[0]).toMatchObject({ address: 'ops@example.test', channel: 'email', reason: 'complained', reportId: reports[0].id, removedAt: null });
    expect(sup[0].source).toBe('complaint reported by http_api at 2027-03-01T12:05:00.000Z');
  });

  it('a wrong signature → 401 and nothing stored; a valid signature for an unknown message → 202 and nothing changed', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-03-02T12:00:00Z', { email: 'ops@example.test' }, '2027-02-20T09:00:00Z');
    await h.tick('2027-03-01T12:00:00Z');
    const [d] = await deliveryRows();

    const forged = emailEvent('msg_forged', 'email.bounced', '2027-03-01T12:05:00Z', { email_id: d.providerMessageId, bounce: { type: 'hard', message: 'forged' } }, `whsec_${Buffer.from('someone-else').toString('base64')}`);
    const r1 = await postEmail(forged, '2027-03-01T12:06:00Z');
    expect(r1.status).toBe(401);
    expect(r1.body.error).toMatch(/signature/);
    // A body changed after signing is refused too.
    const genuine = emailEvent('msg_tampered', 'email.delivered', '2027-03-01T12:05:00Z', { email_id: d.providerMessageId });
    expect((await postEmail({ ...genuine, rawBody: genuine.rawBody.replace('delivered', 'complained') }, '2027-03-01T12:06:00Z')).status).toBe(401);
    expect(await db().select().from(deliveryReports)).toHaveLength(0);

    const unknown = emailEvent('msg_unknown', 'email.bounced', '2027-03-01T12:05:00Z', { email_id: 'no-such-email-id', to: ['ops@example.test'], bounce: { type: 'Permanent', message: '550 5.1.1 no such user' } });
    const r2 = await postEmail(unknown, '2027-03-01T12:06:00Z');
    expect(r2).toMatchObject({ status: 202, body: { status: 'unmatched' } });
    expect((await reload(d)).status).toBe('accepted');
    expect(await db().select().from(suppressions)).toHaveLength(0);
    const [kept] = await db().select().from(deliveryReports);
    expect(kept).toMatchObject({ deliveryId: null, tenantId: null, kind: 'hard_bounce', providerMessageId: 'no-such-email-id' });
  });

  it('not configured → 503 naming HTTP_EMAIL_WEBHOOK_SECRET; malformed → 400 naming the field; other event types are ignored', async () => {
    const e = emailEvent('msg_x', 'email.delivered', '2027-03-01T12:05:00Z', { email_id: 'x' });
    const r = await postEmail(e, '2027-03-01T12:06:00Z', null);
    expect(r.status).toBe(503);
    expect(r.body.error).toContain('HTTP_EMAIL_WEBHOOK_SECRET');
    expect(await postEmail(emailEvent('m1', 'email.delivered', '2027-03-01T12:05:00Z', {}), '2027-03-01T12:06:00Z')).toMatchObject({ status: 400, body: { field: 'data.email_id' } });
    expect(await postEmail(emailEvent('m2', 'email.delivered', 'yesterday', { email_id: 'x' }), '2027-03-01T12:06:00Z')).toMatchObject({ status: 400, body: { field: 'created_at' } });
    expect(await postEmail(emailEvent('m3', 'email.bounced', '2027-03-01T12:05:00Z', { email_id: 'x', bounce: { type: 'sideways' } }), '2027-03-01T12:06:00Z')).toMatchObject({
      status: 400,
      body: { field: 'data.bounce.type' },
    });
    expect(await postEmail(emailEvent('m4', 'email.opened', '2027-03-01T12:05:00Z', { email_id: 'x' }), '2027-03-01T12:06:00Z')).toMatchObject({ status: 200, body: { status: 'ignored' } });
    expect(await db().select().from(deliveryReports)).toHaveLength(0);
  });

  it('created_at must be a real RFC 3339 date-time from 2000-01-01 to a day after now, else 400 naming created_at and nothing stored', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-03-02T12:00:00Z', { email: 'when@example.test' }, '2027-02-20T09:00:00Z');
    await h.tick('2027-03-01T12:00:00Z');
    const [d] = await deliveryRows();
    const now = '2027-03-01T12:06:00Z';
    const post = (id: string, createdAt: string) => postEmail(emailEvent(id, 'email.delivered', createdAt, { email_id: d.providerMessageId, to: ['when@example.test'] }), now);
    for (const [i, bad] of ['-010000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '9999-12-31T23:59:59Z', '2027-02-30T12:00:00Z', '1999-12-31T23:59:59Z', '2027-03-02T12:06:01Z', '2027-03-01T12:05:00'].entries()) {
      const a = await post(`msg_when_${i}`, bad);
      expect([bad, a.status, a.body.field]).toEqual([bad, 400, 'created_at']);
    }
    expect((await post('msg_when_future', '9999-12-31T23:59:59Z')).body.error).toBe('created_at: 9999-12-31T23:59:59Z is more than a day after now (2027-03-01T12:06:00.000Z)');
    expect((await post('msg_when_feb30', '2027-02-30T12:00:00Z')).body.error).toMatch(/^created_at: must be an RFC 3339 date-time/);
    expect(await db().select().from(deliveryReports)).toHaveLength(0);
    expect((await reload(d)).status).toBe('accepted');
    // At the edges it is taken: a day after now (a fast provider clock), and with an offset.
    expect(await post('msg_when_edge', '2027-03-02T12:06:00Z')).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'delivered' } });
    expect(await post('msg_when_offset', '2027-03-01T13:05:00+01:00')).toMatchObject({ status: 200, body: { status: 'applied' } });
    const rows = await db().select().from(deliveryReports).orderBy(asc(deliveryReports.occurredAt));
    expect(rows.map((r) => r.occurredAt.toISOString())).toEqual(['2027-03-01T12:05:00.000Z', '2027-03-02T12:06:00.000Z']);
  });

  it('a body that is not a JSON object → 400 naming body; a content-type other than JSON → 415 naming content-type; unknown types stay 200 ignored', async () => {
    const arr = emailEvent('msg_arr', 'email.delivered', '2027-03-01T12:05:00Z', { email_id: 'x' });
    const arrayBody = '[{"type":"email.delivered"}]';
    // Signed for the timestamp already in the headers (a fresh clock read could fall in the next second).
    const signedArray = { rawBody: arrayBody, headers: { ...arr.headers, 'webhook-signature': new Webhook(SECRET).sign('msg_arr', new Date(Number(arr.headers['webhook-timestamp']) * 1000), arrayBody) } };
    expect(await postEmail(signedArray, '2027-03-01T12:06:00Z')).toMatchObject({ status: 400, body: { field: 'body', error: 'body: must be a JSON object (one webhook event)' } });
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded', '']) {
      const e = emailEvent(`msg_ct_${ct}`, 'email.delivered', '2027-03-01T12:05:00Z', { email_id: 'x' });
      const a = await postEmail({ ...e, headers: { ...e.headers, 'content-type': ct } }, '2027-03-01T12:06:00Z');
      expect([ct, a.status, a.body.field]).toEqual([ct, 415, 'content-type']);
    }
    const charset = emailEvent('msg_ct_charset', 'email.delivered', '2027-03-01T12:05:00Z', { email_id: 'no-such' });
    expect(await postEmail({ ...charset, headers: { ...charset.headers, 'content-type': 'Application/JSON; charset=utf-8' } }, '2027-03-01T12:06:00Z')).toMatchObject({ status: 202 });
    expect(await postEmail(emailEvent('msg_clicked', 'email.clicked', '2027-03-01T12:05:00Z', { email_id: 'x' }), '2027-03-01T12:06:00Z')).toMatchObject({ status: 200, body: { status: 'ignored' } });
  });

  it('a hard bounce for attendee-b@example.test at 2027-08-02T10:00Z; their reminder due 2027-08-04T08:00Z → no provider call, suppressed (hard_bounce)', async () => {
    const t = await tenantWith([
      { offset: '-P3D', name: 'three days before' },
      { offset: '-P1D', name: 'a day before' },
    ]);
    await booked(t.id, '2027-08-05T08:00:00Z', { email: 'attendee-b@example.test' }, '2027-07-20T09:00:00Z');
    await h.tick('2027-08-02T08:00:00Z');
    expect(mailApi.messages.map((m) => m.to)).toEqual(['attendee-b@example.test']);
    const [first] = await deliveryRows();
    const bounce = emailEvent('msg_bounce_b', 'email.bounced', '2027-08-02T10:00:00.000Z', {
      email_id: first.providerMessageId,
      to: ['attendee-b@example.test'],
      bounce: { type: 'hard', message: '550 5.1.1 <attendee-b@example.test>: Recipient address rejected: User unknown' },
    });
    expect(await postEmail(bounce, '2027-08-02T10:00:30Z')).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'bounced' } });
    const [sup] = await liveSuppressions(t.id);
    expect(sup).toMatchObject({ address: 'attendee-b@example.test', reason: 'hard_bounce', channel: 'email' });
    expect(sup.source).toBe('hard_bounce reported by http_api at 2027-08-02T10:00:00.000Z: 550 5.1.1 <attendee-b@example.test>: Recipient address rejected: User unknown');

    await h.tick('2027-08-04T08:00:00Z');
    expect(mailApi.requests).toHaveLength(1); // no provider call for the second reminder
    const [, second] = await deliveryRows();
    const [r] = await db().select().from(reminders).where(eq(reminders.id, second.reminderId!));
    expect(r.dueAt.toISOString()).toBe('2027-08-04T08:00:00.000Z');
    expect(second.status).toBe('suppressed');
    expect(second.statusReason).toContain('hard_bounce');
    expect(second.attemptCount).toBe(0);
  });

  /** Three reminders to one address, each soft-bounced at its send date + 1 h; the suppression count after each. */
  async function softBounces(startsAt: string, offsets: string[], sendDates: string[]) {
    const t = await tenantWith(offsets.map((offset) => ({ offset })));
    await booked(t.id, startsAt, { email: 'soft@example.test' }, '2027-04-20T09:00:00Z');
    const counts: number[] = [];
    for (const [i, at] of sendDates.entries()) {
      await h.tick(at);
      const ds = await deliveryRows();
      expect(ds).toHaveLength(i + 1);
      expect(ds[i].status).toBe('accepted');
      const occurred = new Date(Date.parse(at) + 3_600_000).toISOString();
      const e = emailEvent(`msg_soft_${i}`, 'email.bounced', occurred, { email_id: ds[i].providerMessageId, to: ['soft@example.test'], bounce: { type: 'Transient', message: '452 4.2.2 mailbox full' } });
      expect(await postEmail(e, occurred)).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'soft_bounced' } });
      counts.push((await liveSuppressions(t.id)).length);
    }
    return { t, counts };
  }

  it('soft bounces on 2027-05-01, 05-03 and 05-06 → suppressed after the third (soft_bounces)', async () => {
    const { t, counts } = await softBounces('2027-05-10T09:00:00Z', ['-P9D', '-P7D', '-P4D'], ['2027-05-01T09:00:00Z', '2027-05-03T09:00:00Z', '2027-05-06T09:00:00Z']);
    expect(counts).toEqual([0, 0, 1]);
    const [sup] = await liveSuppressions(t.id);
    expect(sup).toMatchObject({ address: 'soft@example.test', reason: 'soft_bounces' });
    expect(sup.source).toBe('soft_bounce reported by http_api at 2027-05-06T10:00:00.000Z: 452 4.2.2 mailbox full');
    const reports = await db().select().from(deliveryReports).orderBy(asc(deliveryReports.occurredAt));
    expect(reports[1].effect).toContain('soft bounce counted (2 messages on record');
    expect(reports[2].effect).toContain('(soft_bounces)');
  });

  it('soft bounces on 2027-05-01, 05-03 and 05-20 → not suppressed', async () => {
    const { counts } = await softBounces('2027-05-25T09:00:00Z', ['-P24D', '-P22D', '-P5D'], ['2027-05-01T09:00:00Z', '2027-05-03T09:00:00Z', '2027-05-20T09:00:00Z']);
    expect(counts).toEqual([0, 0, 0]);
  });

  it('an external guest’s bounce suppresses the address on the guest’s own organisation’s list', async () => {
    const host = await tenantWith([{ offset: '-P1D' }], 'Host Org');
    const guestOrg = await createTenant(db(), { slug: `guest-${Date.now().toString(36)}`, name: 'Guest Org', timeZone: 'Europe/Amsterdam', emailProvider: 'http_api' });
    await allowGuestsFrom(db(), guestOrg.id, host.id);
    const event = await createEvent(db(), host.id, { title: 'Visit', startsAt: '2027-09-02T09:00:00Z', endsAt: '2027-09-02T10:00:00Z', timeZone: 'Europe/Amsterdam' });
    await addBooking(db(), host.id, { eventId: event.id, role: 'external', guestTenantId: guestOrg.id, contact: { email: 'guest@example.test', name: 'Gus' } }, new Date('2027-08-20T09:00:00Z'));
    await h.tick('2027-09-01T09:00:00Z');
    const [d] = await deliveryRows();
    expect(d.status).toBe('accepted');
    await postEmail(emailEvent('msg_guest', 'email.complained', '2027-09-01T10:00:00Z', { email_id: d.providerMessageId }), '2027-09-01T10:00:01Z');
    expect(await liveSuppressions(host.id)).toHaveLength(0);
    expect((await liveSuppressions(guestOrg.id)).map((s) => [s.address, s.reason])).toEqual([['guest@example.test', 'complained']]);
  });
});

describe('SMS status callbacks (X-Twilio-Signature)', () => {
  /** A tenant whose attendee takes reminders on `channels` (SMS only by default), a day before (and, with `more`, two hours before). */
  async function smsSetup(channels: ('email' | 'sms')[] = ['sms'], more = false) {
    const t = await tenantWith(more ? [{ offset: '-P1D' }, { offset: '-PT2H' }] : [{ offset: '-P1D' }]);
    await booked(t.id, '2027-06-02T09:00:00Z', { email: 'sam@example.test', phone: '+31612345678', channels }, '2027-05-20T09:00:00Z');
    await h.tick('2027-06-01T09:00:00Z');
    const [d] = (await deliveryRows()).filter((x) => x.channel === 'sms');
    expect([d.status, d.address]).toEqual(['accepted', '+31612345678']);
    expect(sms.messages).toHaveLength(1);
    expect(sms.messages[0].statusCallback).toBe(callbackUrl);
    return { t, d, sid: sms.messages[0].sid };
  }
  const smsReports = () => db().select().from(deliveryReports).orderBy(asc(deliveryReports.receivedAt));

  it('delivered → delivered; the same callback again is processed once', async () => {
    const { d, sid } = await smsSetup();
    expect(d.providerMessageId).toBe(sid);
    expect(await sms.statusCallback(sid, 'sent')).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'accepted' } });
    expect(await sms.statusCallback(sid, 'delivered')).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'delivered' } });
    expect(await sms.statusCallback(sid, 'delivered')).toMatchObject({ status: 200, body: { status: 'duplicate' } });
    expect((await reload(d)).status).toBe('delivered');
    const rows = await smsReports();
    expect(rows.map((r) => [r.providerEventId, r.kind])).toEqual([
      [`${sid}:sent`, 'sent'],
      [`${sid}:delivered`, 'delivered'],
    ]);
  });

  it('a bad X-Twilio-Signature → 401, nothing stored', async () => {
    const { d, sid } = await smsSetup();
    expect(await sms.statusCallback(sid, 'undelivered', { ErrorCode: '21610' }, { signWith: 'not-the-token' })).toMatchObject({ status: 401 });
    expect(await sms.statusCallback(sid, 'delivered', {}, { signature: '' })).toMatchObject({ status: 401, body: { error: 'X-Twilio-Signature missing' } });
    // Signed for another URL (a callback meant for a different endpoint, replayed here) is refused as well.
    const params = { MessageSid: sid, MessageStatus: 'failed' };
    const wrongUrl = await fetch(callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(sms.authToken, 'https://elsewhere.example/cb', params) },
      body: new URLSearchParams(params).toString(),
    });
    expect(wrongUrl.status).toBe(401);
    expect(await smsReports()).toHaveLength(0);
    expect((await reload(d)).status).toBe('accepted');
    expect(await db().select().from(suppressions)).toHaveLength(0);
  });

  it('undelivered with 21610 → the number suppressed for SMS only: the next SMS is suppressed, the email to the same person still goes', async () => {
    const { t, d, sid } = await smsSetup(['sms', 'email'], true);
    expect(mailApi.messages.map((m) => m.to)).toEqual(['sam@example.test']);
    expect(await sms.statusCallback(sid, 'undelivered', { ErrorCode: '21610' })).toMatchObject({ status: 200, body: { deliveryStatus: 'failed' } });
    const failed = await reload(d);
    expect(failed.status).toBe('failed');
    expect(failed.statusReason).toContain('error 21610');
    const sup = await liveSuppressions(t.id);
    expect(sup.map((s) => [s.address, s.channel, s.reason])).toEqual([['+31612345678', 'sms', 'unsubscribed']]);
    expect(sup[0].source).toBe('undelivered reported by sms_api at 2027-06-01T09:00:00.000Z: Attempt to send to unsubscribed recipient (replied STOP)');
    expect(await findSuppression(db(), [t.id], '+31612345678', 'sms')).not.toBeNull();
    expect(await findSuppression(db(), [t.id], 'sam@example.test', 'email')).toBeNull();

    await h.tick('2027-06-02T07:00:00Z');
    expect((await deliveryRows()).map((x) => [x.channel, x.status]).sort()).toEqual([
      ['email', 'accepted'],
      ['email', 'accepted'],
      ['sms', 'failed'],
      ['sms', 'suppressed'],
    ]);
    expect(sms.messages).toHaveLength(1);
    expect(mailApi.messages.map((m) => m.to)).toEqual(['sam@example.test', 'sam@example.test']);
  });

  it('a 2-part SMS: part 0 delivered, part 1 undelivered → failed, reason partial', async () => {
    const { d, sid } = await smsSetup();
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '0', NumSegments: '2' })).toMatchObject({ status: 200, body: { deliveryStatus: 'accepted' } });
    expect(await sms.statusCallback(sid, 'undelivered', { PartIndex: '1', NumSegments: '2', ErrorCode: '30003' })).toMatchObject({ status: 200, body: { deliveryStatus: 'failed' } });
    const after = await reload(d);
    expect(after.status).toBe('failed');
    expect(after.statusReason).toBe('partial: part 2 of 2 undelivered (error 30003: Unreachable destination handset); 1 of 2 delivered');
    expect((await smsReports()).map((r) => [r.providerEventId, r.partIndex, r.partCount])).toEqual([
      [`${sid}:delivered:0`, 0, 2],
      [`${sid}:undelivered:1`, 1, 2],
    ]);
    // 30003 (unreachable) suppresses nothing: it may work next time.
    expect(await db().select().from(suppressions)).toHaveLength(0);
    // A malformed part report names its field.
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '2', NumSegments: '2' })).toMatchObject({ status: 400, body: { field: 'PartIndex' } });
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '1' })).toMatchObject({ status: 400, body: { field: 'NumSegments' } });
  });

  it('a report racing ahead of the send’s own commit is kept (202) and adopted when the send records the message id', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-06-02T09:00:00Z', { email: 'fast@example.test', phone: '+31612345679', channels: ['sms'] }, '2027-05-20T09:00:00Z');
    sms.script('delay:1'); // the provider stores the message, then answers a second later
    const sending = h.tick('2027-06-01T09:00:00Z');
    for (let i = 0; sms.messages.length === 0; i++) {
      if (i > 250) throw new Error('the SMS never reached the provider');
      await new Promise((r) => setTimeout(r, 20));
    }
    const sid = sms.messages[0].sid;
    const early = await sms.statusCallback(sid, 'delivered');
    expect(early).toMatchObject({ status: 202, body: { status: 'unmatched' } });
    const [waiting] = await smsReports();
    expect(waiting.deliveryId).toBeNull();
    await sending;
    const [d] = await deliveryRows();
    expect(d.providerMessageId).toBe(sid);
    expect(d.status).toBe('delivered');
    const [adopted] = await smsReports();
    expect(adopted).toMatchObject({ id: waiting.id, deliveryId: d.id, tenantId: t.id, address: '+31612345679' });
    expect(adopted.effect).toBe('accepted → delivered');
    // A repeat of it now is a duplicate: processed once.
    expect(await sms.statusCallback(sid, 'delivered')).toMatchObject({ status: 200, body: { status: 'duplicate' } });
  });

  /** POSTs `body` verbatim to the report route, signed with the peer's token as Twilio signs it. */
  const rawCallback = (body: string, contentType = 'application/x-www-form-urlencoded') =>
    fetch(callbackUrl, {
      method: 'POST',
      headers: { 'content-type': contentType, 'x-twilio-signature': twilioSignature(sms.authToken, callbackUrl, formParams(body)) },
      body,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

  it('a repeated parameter (MessageStatus=delivered&MessageStatus=failed, either order: the same signature) → 400 naming it, nothing stored', async () => {
    const { d, sid } = await smsSetup();
    for (const body of [`MessageSid=${sid}&MessageStatus=delivered&MessageStatus=failed`, `MessageSid=${sid}&MessageStatus=failed&MessageStatus=delivered`, `MessageSid=${sid}&MessageStatus=delivered&MessageStatus=delivered`]) {
      const a = await rawCallback(body);
      expect([body, a.status, a.body.field]).toEqual([body, 400, 'MessageStatus']);
      expect(a.body.error).toBe('MessageStatus: given more than once (a status callback names each parameter once)');
    }
    expect((await rawCallback(`MessageSid=${sid}&MessageStatus=delivered&ErrorCode=30003&ErrorCode=0`)).body).toMatchObject({ field: 'ErrorCode' });
    expect(await smsReports()).toHaveLength(0);
    expect((await reload(d)).status).toBe('accepted');
    // Still a signature check first: a forged repeat is 401.
    expect((await fetch(callbackUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'AAAA' }, body: `MessageSid=${sid}&MessageStatus=a&MessageStatus=b` })).status).toBe(401);
  });

  it('an unknown MessageStatus → 400 naming it with the allowed values; a known non-report status (canceled) stays 200 ignored', async () => {
    const { d, sid } = await smsSetup();
    const a = await sms.statusCallback(sid, 'exploded');
    expect(a).toMatchObject({ status: 400, body: { field: 'MessageStatus' } });
    expect((a.body as { error: string }).error).toBe(
      'MessageStatus: "exploded" is not a status: queued, accepted, scheduled, sending, sent, delivered, read, undelivered, failed, canceled, receiving, received, partially_delivered',
    );
    expect(await sms.statusCallback(sid, 'canceled')).toMatchObject({ status: 200, body: { status: 'ignored' } });
    expect(await smsReports()).toHaveLength(0);
    expect((await reload(d)).status).toBe('accepted');
    // A form callback with another content type is refused before anything is read.
    expect(await rawCallback(`MessageSid=${sid}&MessageStatus=delivered`, 'application/json')).toMatchObject({ status: 415, body: { field: 'content-type' } });
  });

  it('NumSegments above 25 or PartIndex not below NumSegments → 400 naming the field and the real limit; parts disagreeing on the count do not leave it accepted', async () => {
    const { d, sid } = await smsSetup();
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '0', NumSegments: '9999' })).toMatchObject({
      status: 400,
      body: { field: 'NumSegments', error: 'NumSegments: must be a whole number from 1 to 25 (the most parts one SMS can be sent as)' },
    });
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '99999', NumSegments: '2' })).toMatchObject({
      status: 400,
      body: { field: 'PartIndex', error: 'PartIndex: must be a whole number from 0 to 1 (below NumSegments 2)' },
    });
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '-1', NumSegments: '2' })).toMatchObject({ status: 400, body: { field: 'PartIndex' } });
    expect(await smsReports()).toHaveLength(0);
    // Part 0 says 10 parts, part 1 says 2: both delivered → delivered (2 parts), not accepted forever.
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '0', NumSegments: '10' })).toMatchObject({ status: 200, body: { deliveryStatus: 'accepted' } });
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '1', NumSegments: '2' })).toMatchObject({ status: 200, body: { deliveryStatus: 'delivered' } });
    expect((await reload(d)).statusReason).toBe('all 2 parts delivered by 2027-06-01T09:00:00.000Z');
  });

  it('RawDlrDoneDate and Timestamp must be real times from 2000 to a day after now → else 400 naming them', async () => {
    const { d, sid } = await smsSetup(); // now = 2027-06-01T09:00Z
    for (const [field, value] of [
      ['RawDlrDoneDate', '2706031000'],
      ['RawDlrDoneDate', '2702301000'],
      ['RawDlrDoneDate', '99123123590'],
      ['Timestamp', '9999-12-31T23:59:59Z'],
      ['Timestamp', '+275760-09-13T00:00:00Z'],
      ['Timestamp', '2027-02-30T12:00:00Z'],
      ['Timestamp', '1999-12-31T23:59:59Z'],
    ] as const) {
      const a = await sms.statusCallback(sid, 'delivered', { [field]: value });
      expect([field, value, a.status, (a.body as { field?: string }).field]).toEqual([field, value, 400, field]);
    }
    expect(await smsReports()).toHaveLength(0);
    expect(await sms.statusCallback(sid, 'delivered', { RawDlrDoneDate: '2706010905' })).toMatchObject({ status: 200, body: { deliveryStatus: 'delivered' } });
    expect((await reload(d)).reportedAt?.toISOString()).toBe('2027-06-01T09:05:00.000Z');
  });

  it('a report about an `unknown` delivery proves it went out; a report never moves a delivery back', async () => {
    const { d, sid } = await smsSetup();
    await db().update(deliveries).set({ status: 'unknown', statusReason: 'ambiguous' }).where(eq(deliveries.id, d.id));
    expect(await sms.statusCallback(sid, 'sent')).toMatchObject({ status: 200, body: { deliveryStatus: 'accepted' } });
    expect((await reload(d)).statusReason).toContain('delivery report');
    expect(await sms.statusCallback(sid, 'failed', { ErrorCode: '30008' })).toMatchObject({ body: { deliveryStatus: 'failed' } });
    expect(await sms.statusCallback(sid, 'delivered')).toMatchObject({ body: { deliveryStatus: 'failed' } });
  });
});

describe('applyReport directly (the DSN reader calls it with a delivery id)', () => {
  it('names the delivery by id; an id that is not ours is unmatched; validation names the field', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-03-02T12:00:00Z', { email: 'dsn@example.test' }, '2027-02-20T09:00:00Z');
    await h.tick('2027-03-01T12:00:00Z');
    const [d] = await deliveryRows();
    const now = new Date('2027-03-01T13:00:00Z');
    const r = await applyReport(db(), { source: 'smtp_dsn', providerEventId: '<dsn-1@mx.example>:dsn@example.test', deliveryId: d.id, kind: 'hard_bounce', occurredAt: new Date('2027-03-01T12:30:00Z'), errorCode: '5.1.1', detail: 'x'.repeat(1500) }, now);
    expect(r).toMatchObject({ outcome: 'applied', deliveryId: d.id, status: 'bounced' });
    const [row] = await db().select().from(deliveryReports);
    expect(row.detail).toHaveLength(1000);
    expect(await applyReport(db(), { source: 'smtp_dsn', providerEventId: 'other', deliveryId: '00000000-0000-4000-8000-000000000000', kind: 'hard_bounce', occurredAt: now }, now)).toMatchObject({ outcome: 'unmatched' });
    expect(await applyReport(db(), { source: 'smtp_dsn', providerEventId: 'bad-id', deliveryId: 'not-a-uuid', kind: 'hard_bounce', occurredAt: now }, now)).toMatchObject({ outcome: 'unmatched' });
    await expect(applyReport(db(), { source: 'smtp_dsn', providerEventId: 'x', kind: 'hard_bounce', occurredAt: new Date('nope') }, now)).rejects.toMatchObject({ code: 'validation', field: 'occurredAt' });
  });
});

describe('a report about a delivery still being sent waits for the send to be recorded', () => {
  it('a DSN naming a `sending` delivery changes nothing and suppresses nothing until the send is recorded; then it applies', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-03-02T12:00:00Z', { email: 'early-dsn@example.test' }, '2027-02-20T09:00:00Z');
    await h.tick('2027-03-01T12:00:00Z');
    const [d] = await deliveryRows();
    // As if the SMTP answer were still on its way: the delivery is `sending`.
    await db().update(deliveries).set({ status: 'sending', providerMessageId: null }).where(eq(deliveries.id, d.id));
    const now = new Date('2027-03-01T12:00:05Z');
    const r = await applyReport(db(), { source: 'smtp_dsn', providerEventId: '<early@mx>:early-dsn@example.test', deliveryId: d.id, kind: 'hard_bounce', occurredAt: new Date('2027-03-01T12:00:04Z'), detail: '550 5.1.1 no such user' }, now);
    expect(r).toMatchObject({ outcome: 'applied', status: 'sending' });
    expect(await liveSuppressions(t.id)).toHaveLength(0);
    const [waiting] = await db().select().from(deliveryReports);
    expect(waiting.effect).toMatch(/^waiting: the delivery is sending/);
    // The send is recorded (what recordOutcome does): accepted, then the waiting report applies.
    await db().transaction(async (tx) => {
      const accepted = await transitionDelivery(tx, d.id, 'accepted', { providerMessageId: '<k@punctual.local>', acceptedAt: now });
      expect(await adoptUnmatchedReports(tx, accepted!, now)).toEqual({ adopted: 0, status: 'bounced' });
    });
    expect((await reload(d)).status).toBe('bounced');
    expect((await liveSuppressions(t.id)).map((s) => [s.reason, s.reportId])).toEqual([['hard_bounce', waiting.id]]);
    const [applied] = await db().select().from(deliveryReports);
    expect(applied.effect).toBe('accepted → bounced; suppressed early-dsn@example.test for email (hard_bounce)');
  });
});

describe('a report that waited for a lost attempt', () => {
  it('a DSN naming a `sending` delivery whose worker died: lease recovery marks it unknown and the waiting report applies (it proves the message went out)', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-03-02T12:00:00Z', { email: 'lost-worker@example.test' }, '2027-02-20T09:00:00Z');
    await h.tick('2027-03-01T12:00:00Z');
    const [d] = await deliveryRows();
    // As if the worker died during the SMTP call: `sending` under a lease that runs out at 12:02.
    await db().update(deliveries).set({ status: 'sending', provider: 'smtp', providerMessageId: null, leaseExpiresAt: new Date('2027-03-01T12:02:00Z') }).where(eq(deliveries.id, d.id));
    const r = await applyReport(db(), { source: 'smtp_dsn', providerEventId: '<lost@mx>:lost-worker@example.test', deliveryId: d.id, kind: 'hard_bounce', occurredAt: new Date('2027-03-01T12:00:30Z'), detail: '550 5.1.1 no such user' }, new Date('2027-03-01T12:00:40Z'));
    expect(r).toMatchObject({ outcome: 'applied', status: 'sending' });
    expect(await liveSuppressions(t.id)).toHaveLength(0);
    await h.tick('2027-03-01T12:03:00Z'); // the sweep recovers the expired lease
    const after = await reload(d);
    expect(after.status).toBe('bounced');
    expect((await liveSuppressions(t.id)).map((s) => s.reason)).toEqual(['hard_bounce']);
    const [report] = await db().select().from(deliveryReports);
    expect(report.effect).toMatch(/^unknown → bounced/);
  });
});

describe('suppression removal is a soft delete (issue #10 §3)', () => {
  it('the row stays with removed_at/by/reason and an audit entry; the address can be mailed again and re-suppressed', async () => {
    const t = await tenantWith([
      { offset: '-P2D', name: 'two days before' },
      { offset: '-P1D', name: 'a day before' },
    ]);
    const staff = { tenantId: t.id, actor: 'ada@org.test', now: new Date('2027-10-01T08:00:00Z') }; // no actorId: not a staff account (the role re-check is covered by recheck-under-lock.test.ts)
    const { id } = await addSuppressionAction(db(), staff, { address: 'back@example.test', reason: 'manual', note: 'asked by phone' });
    await booked(t.id, '2027-10-05T09:00:00Z', { email: 'back@example.test' }, '2027-10-01T08:00:00Z');
    await h.tick('2027-10-03T09:00:00Z');
    expect((await deliveryRows())[0].status).toBe('suppressed');

    const [live] = await liveSuppressions(t.id);
    await removeSuppressionAction(db(), { ...staff, now: new Date('2027-10-03T10:00:00Z') }, id, { reason: 'mailbox works again', version: live.version });
    const rows = await db().select().from(suppressions).where(eq(suppressions.tenantId, t.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, address: 'back@example.test', removedBy: 'ada@org.test', removedReason: 'mailbox works again' });
    expect(rows[0].removedAt?.toISOString()).toBe('2027-10-03T10:00:00.000Z');
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, t.id), eq(auditLog.action, 'suppression_remove')));
    expect(audit).toMatchObject({ actor: 'ada@org.test', reason: 'mailbox works again' });
    expect(audit.details).toMatchObject({ suppressionId: id, address: 'back@example.test', channel: 'email' });
    // Removing it again: it is no longer live → 409 naming who removed it (a second tab), nothing written.
    await expect(removeSuppressionAction(db(), staff, id, { reason: 'twice', version: rows[0].version })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('already removed') });
    expect(await findSuppression(db(), [t.id], 'back@example.test', 'email')).toBeNull();

    // Mailed again: the next reminder goes out.
    await h.tick('2027-10-04T09:00:00Z');
    const second = (await deliveryRows())[1];
    expect(second.status).toBe('accepted');
    expect(mailApi.messages.map((m) => m.to)).toEqual(['back@example.test']);

    // And re-suppressed by a report: a new live row beside the removed one.
    await postEmail(emailEvent('msg_back', 'email.bounced', '2027-10-04T09:05:00Z', { email_id: second.providerMessageId, bounce: { type: 'Permanent', message: 'gone' } }), '2027-10-04T09:06:00Z');
    const all = await db().select().from(suppressions).where(eq(suppressions.tenantId, t.id)).orderBy(asc(suppressions.createdAt));
    expect(all.map((s) => [s.reason, s.removedAt === null])).toEqual([
      ['manual', false],
      ['hard_bounce', true],
    ]);
    // The list shows live entries; "Show removed" shows the history.
    const liveList = await listSuppressions(db(), t.id, {}, { limit: 50, offset: 0 });
    expect(liveList.items.map((s) => [s.reason, s.report?.kind ?? null, s.report?.deliveryId ?? null])).toEqual([['hard_bounce', 'hard_bounce', second.id]]);
    const history = await listSuppressions(db(), t.id, { removed: true }, { limit: 50, offset: 0 });
    expect(history.items.map((s) => [s.id, s.removed])).toEqual([[id, { at: '2027-10-03T10:00:00.000Z', by: 'ada@org.test', reason: 'mailbox works again' }]]);
    // Staff can list it again by hand once it is removed — and not while it is live.
    await expect(addSuppressionAction(db(), staff, { address: 'BACK@example.test', reason: 'manual' })).rejects.toMatchObject({ code: 'conflict', field: 'address' });
  });
});

describe('the route handlers (thin: raw body, environment, the intake functions)', () => {
  const saved: Record<string, string | undefined> = {};
  const keys = ['DATABASE_URL', 'HTTP_EMAIL_WEBHOOK_SECRET', 'SMS_AUTH_TOKEN', 'SMS_STATUS_CALLBACK_URL', 'PUNCTUAL_PUBLIC_URL'] as const;
  const g = globalThis as { __punctualDb?: { close(): Promise<void> }; __punctualClock?: { stop(): void } };
  beforeAll(() => {
    for (const k of keys) saved[k] = process.env[k];
    // The routes use the process-wide pool: point it at this file's database.
    process.env.DATABASE_URL = h.tdb.url;
    delete g.__punctualDb;
    delete g.__punctualClock;
  });
  afterAll(async () => {
    g.__punctualClock?.stop();
    delete g.__punctualClock;
    await g.__punctualDb?.close();
    delete g.__punctualDb;
    for (const k of keys) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('POST /api/reports/email: 503 without the secret, 401 for a bad signature, 202 for an unknown message', async () => {
    const { POST } = await import('@/app/api/reports/email/route');
    // The route reads the database clock (real time): the event time must be near it.
    const e = emailEvent('msg_route_1', 'email.delivered', new Date().toISOString(), { email_id: 'unknown-at-route' });
    const req = (headers = e.headers) => new Request('http://127.0.0.1:3999/api/reports/email', { method: 'POST', headers, body: e.rawBody });
    delete process.env.HTTP_EMAIL_WEBHOOK_SECRET;
    const r503 = await POST(req());
    expect(r503.status).toBe(503);
    expect(((await r503.json()) as { error: string }).error).toContain('HTTP_EMAIL_WEBHOOK_SECRET');
    process.env.HTTP_EMAIL_WEBHOOK_SECRET = SECRET;
    expect((await POST(req({ ...e.headers, 'webhook-signature': 'v1,AAAA' }))).status).toBe(401);
    expect(await db().select().from(deliveryReports)).toHaveLength(0);
    const ok = await POST(req());
    expect(ok.status).toBe(202);
    expect(await ok.json()).toMatchObject({ status: 'unmatched' });
  });

  it('POST /api/reports/sms: verified over SMS_STATUS_CALLBACK_URL, else PUNCTUAL_PUBLIC_URL + the path', async () => {
    const { POST } = await import('@/app/api/reports/sms/route');
    const params = { MessageSid: 'SM0123456789abcdef0123456789abcdef', MessageStatus: 'delivered', To: '+31612345678' };
    const body = new URLSearchParams(params).toString();
    const req = (signedFor: string) =>
      new Request('http://127.0.0.1:3999/api/reports/sms', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature('route-token', signedFor, params) },
        body,
      });
    delete process.env.SMS_AUTH_TOKEN;
    const r503 = await POST(req('https://punctual.example/api/reports/sms'));
    expect(r503.status).toBe(503);
    expect(((await r503.json()) as { error: string }).error).toContain('SMS_AUTH_TOKEN');
    process.env.SMS_AUTH_TOKEN = 'route-token';
    process.env.SMS_STATUS_CALLBACK_URL = 'https://hooks.example/sms?tenant=demo';
    process.env.PUNCTUAL_PUBLIC_URL = 'https://punctual.example/';
    expect((await POST(req('https://punctual.example/api/reports/sms'))).status).toBe(401);
    const first = await POST(req('https://hooks.example/sms?tenant=demo'));
    expect(first.status).toBe(202);
    const { reportId } = (await first.json()) as { reportId: string };
    delete process.env.SMS_STATUS_CALLBACK_URL;
    const viaPublic = await POST(req('https://punctual.example/api/reports/sms'));
    // The same event again, still about no message of ours: the one stored row, still unmatched (not a
    // "duplicate": nothing was ever applied).
    expect(viaPublic.status).toBe(202);
    expect(await viaPublic.json()).toMatchObject({ status: 'unmatched', reportId });
  });

  it('the proxy lets both report routes through without a session (the signature is the credential)', async () => {
    const { NextRequest } = await import('next/server');
    const { proxy } = await import('@/proxy');
    for (const path of ['/api/reports/email', '/api/reports/sms']) {
      const res = proxy(new NextRequest(`http://127.0.0.1:3999${path}`, { method: 'POST' }));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-middleware-next')).toBe('1');
    }
    expect(proxy(new NextRequest('http://127.0.0.1:3999/api/reports/other', { method: 'POST' })).status).toBe(401);
  });
});

describe('review findings: repeats and soft bounces', () => {
  it('the same webhook-id with different content is kept once (the first) and logged as a conflict; the route still answers 200 duplicate', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-03-02T12:00:00Z', { email: 'ops@example.test' }, '2027-02-20T09:00:00Z');
    await h.tick('2027-03-01T12:00:00Z');
    const [d] = await deliveryRows();
    expect(await postEmail(emailEvent('msg_same', 'email.delivered', '2027-03-01T12:00:03Z', { email_id: d.providerMessageId }), '2027-03-01T12:01:00Z')).toMatchObject({ status: 200, body: { status: 'applied' } });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      // An identical repeat: a plain duplicate, nothing logged.
      const same = await applyReport(db(), { source: 'http_api', providerEventId: 'msg_same', providerMessageId: d.providerMessageId, kind: 'delivered', occurredAt: new Date('2027-03-01T12:00:03Z') }, new Date('2027-03-01T12:02:00Z'));
      expect(same).toMatchObject({ outcome: 'duplicate', conflict: false, deliveryId: d.id });
      expect(warn).not.toHaveBeenCalled();
      const other = await applyReport(db(), { source: 'http_api', providerEventId: 'msg_same', providerMessageId: 'em_other', kind: 'complaint', occurredAt: new Date('2027-03-01T12:05:00Z') }, new Date('2027-03-01T12:06:00Z'));
      expect(other).toMatchObject({ outcome: 'duplicate', conflict: true, deliveryId: d.id });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toBe(
        `[reports] conflicting repeat of http_api report msg_same: stored kind delivered, message ${d.providerMessageId}; this one kind complaint, message em_other — the first is kept, this one ignored`,
      );
      expect(await postEmail(emailEvent('msg_same', 'email.complained', '2027-03-01T12:05:00Z', { email_id: d.providerMessageId }), '2027-03-01T12:07:00Z')).toMatchObject({ status: 200, body: { status: 'duplicate' } });
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      warn.mockRestore();
    }
    expect((await reload(d)).status).toBe('delivered');
    expect(await db().select().from(deliveryReports)).toMatchObject([{ kind: 'delivered' }]);
    expect(await liveSuppressions(t.id)).toHaveLength(0);
  });

  it('three soft bounces of ONE message count once: not suppressed', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-05-02T09:00:00Z', { email: 'soft@example.test' }, '2027-04-20T09:00:00Z');
    await h.tick('2027-05-01T09:00:00Z');
    const [d] = await deliveryRows();
    for (const [i, at] of ['2027-05-01T10:00:00.000Z', '2027-05-01T14:00:00.000Z', '2027-05-02T10:00:00.000Z'].entries()) {
      const e = emailEvent(`msg_one_${i}`, 'email.bounced', at, { email_id: d.providerMessageId, bounce: { type: 'Transient', message: '452 4.2.2 mailbox full' } });
      expect(await postEmail(e, at)).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'soft_bounced' } });
    }
    expect(await liveSuppressions(t.id)).toHaveLength(0);
    const reports = await db().select().from(deliveryReports).orderBy(asc(deliveryReports.occurredAt));
    expect(reports[2].effect).toBe('no change (stays soft_bounced); soft bounce counted (1 message on record for soft@example.test; suppressed at 3 within 7 days)');
  });

  it('a staff removal of the suppression resets the soft-bounce count', async () => {
    const t = await tenantWith([{ offset: '-P9D' }, { offset: '-P7D' }, { offset: '-P4D' }, { offset: '-P3D' }]);
    await booked(t.id, '2027-05-10T09:00:00Z', { email: 'soft@example.test' }, '2027-04-20T09:00:00Z');
    const bounceLatest = async (i: number, at: string) => {
      await h.tick(at);
      const ds = await deliveryRows();
      expect(ds[i].status).toBe('accepted');
      const occurred = new Date(Date.parse(at) + 3_600_000).toISOString();
      // Each bounce must be stored and applied: an answer not checked here surfaced only later as a missing row.
      const answer = await postEmail(emailEvent(`msg_reset_${i}`, 'email.bounced', occurred, { email_id: ds[i].providerMessageId, bounce: { type: 'Transient', message: '452 4.2.2 mailbox full' } }), occurred);
      expect(answer).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'soft_bounced' } });
    };
    await bounceLatest(0, '2027-05-01T09:00:00Z');
    await bounceLatest(1, '2027-05-03T09:00:00Z');
    await bounceLatest(2, '2027-05-06T09:00:00Z');
    const [sup] = await liveSuppressions(t.id);
    expect(sup.reason).toBe('soft_bounces');
    const staff = { tenantId: t.id, actor: 'ada@org.test', now: new Date('2027-05-06T12:00:00Z') }; // no actorId: not a staff account
    await removeSuppressionAction(db(), staff, sup.id, { reason: 'mailbox emptied', version: sup.version });

    await bounceLatest(3, '2027-05-07T09:00:00Z');
    expect(await liveSuppressions(t.id)).toHaveLength(0);
    const reports = await db().select().from(deliveryReports).orderBy(asc(deliveryReports.occurredAt));
    expect(reports[3].effect).toBe('accepted → soft_bounced; soft bounce counted (1 message on record for soft@example.test since the suppression was removed at 2027-05-06T12:00:00.000Z; suppressed at 3 within 7 days)');
  });
});
