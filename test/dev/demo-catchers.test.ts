/**
 * The demo's built-in peers (issue #9 §9), for real over HTTP against the real adapters: the SMS API
 * (dev/sms-catcher.ts) takes what `createSmsChannel` sends and stores it in `caught_messages`; the webhook
 * receiver (dev/webhook-catcher.ts) verifies what `createWebhookChannel` sends with the tenant's secret and
 * stores every delivery, verified or not; and the mailbox read models show each tenant its own.
 */
import http from 'node:http';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSmsChannel } from '@/channels/sms';
import { createSmtpChannel } from '@/channels/smtp';
import type { OutgoingEmail, OutgoingSms, OutgoingWebhook } from '@/channels/types';
import { createWebhookChannel, newWebhookSecret } from '@/channels/webhook';
import { countCaughtMessages, getCaughtMessage, listCaughtMessages } from '@/dev/queries/mailbox';
import { caughtMessages, notificationSettings, type Tenant } from '@/db/schema';
import { startMailCatcher } from '@/dev/mail-catcher';
import { startSmsCatcher, type SmsCatcher } from '@/dev/sms-catcher';
import { createTenant } from '@/server/organisations/tenants';
import { formParams, verifyTwilioSignature } from '@/domain/reports/twilio-signature';
import { hookUrl, startWebhookCatcher, type WebhookCatcher } from '@/dev/webhook-catcher';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

let tdb: TestDatabase;
let smsApi: SmsCatcher;
let receiver: WebhookCatcher;
let acme: Tenant;
let other: Tenant;
const acmeSecret = newWebhookSecret();
// The receiver is on 127.0.0.1: allowed by its origin (host and port), as `npm start` allows it.
let webhook: ReturnType<typeof createWebhookChannel>;

beforeAll(async () => {
  tdb = await createTestDatabase();
  smsApi = await startSmsCatcher({ db: tdb.db, accountSid: `AC${'ab'.repeat(16)}`, authToken: 'demo-token' });
  receiver = await startWebhookCatcher({ db: tdb.db });
  webhook = createWebhookChannel({ allowHttp: true, allowedOrigins: [new URL(receiver.url).origin], timeoutMs: 3000 });
  acme = await createTenant(tdb.db, { slug: 'acme', name: 'Acme', timeZone: 'Europe/Amsterdam', senderEmail: 'hi@acme.test' });
  other = await createTenant(tdb.db, { slug: 'other', name: 'Other', timeZone: 'Europe/London', senderEmail: 'hi@other.test' });
  await tdb.db.insert(notificationSettings).values([
    { tenantId: acme.id, policy: {}, smsSender: '+15005550006', webhookUrl: hookUrl(receiver.url, 'acme'), webhookSecret: acmeSecret, webhookEnabled: true },
    { tenantId: other.id, policy: {}, smsSender: 'Other', webhookUrl: null, webhookSecret: null, webhookEnabled: false },
  ]);
});
afterAll(async () => {
  await webhook?.close();
  await smsApi?.close();
  await receiver?.close();
  await tdb?.close();
});
beforeEach(async () => {
  await tdb.db.delete(caughtMessages);
});

const caught = () => tdb.db.select().from(caughtMessages).orderBy(asc(caughtMessages.receivedAt));

const sms = (over: Partial<OutgoingSms> = {}): OutgoingSms => ({
  tenantId: acme.id,
  from: '+15005550006',
  to: '+31612345678',
  body: 'Hi Zoë: Clay & Coffee starts at 10:00 — see you there!',
  statusCallbackUrl: 'http://127.0.0.1:3000/api/sms/status',
  messageKey: 'ntf:acme:booking_confirmed:b1:1:c1:sms',
  ...over,
});
const smsChannel = (authToken = smsApi.authToken) => createSmsChannel({ baseUrl: smsApi.url, accountSid: smsApi.accountSid, authToken, timeoutMs: 3000 });
/** A form POST to the SMS API as any client would send it. */
const postForm = (form: Record<string, string>, auth = `${smsApi.accountSid}:${smsApi.authToken}`, sid = smsApi.accountSid) =>
  fetch(`${smsApi.url}/2010-04-01/Accounts/${sid}/Messages.json`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });

describe('built-in SMS API (Twilio-compatible)', () => {
  it('stores a message sent through the real SMS adapter, before answering 201 with its sid', async () => {
    const r = await smsChannel().send(sms(), { idempotencyKey: 'k1' });
    expect(r.class).toBe('accepted');
    const sid = (r as { providerId: string }).providerId;
    expect(sid).toMatch(/^SM[0-9a-f]{32}$/);
    const rows = await caught();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      channel: 'sms',
      envelopeFrom: '+15005550006',
      envelopeTo: ['+31612345678'],
      text: 'Hi Zoë: Clay & Coffee starts at 10:00 — see you there!',
      subject: null,
      html: null,
      messageId: sid,
      headers: { To: '+31612345678', From: '+15005550006', Body: 'Hi Zoë: Clay & Coffee starts at 10:00 — see you there!', StatusCallback: 'http://127.0.0.1:3000/api/sms/status' },
    });
    expect(Object.fromEntries(new URLSearchParams(rows[0].raw))).toEqual(rows[0].headers);
  });

  it('answers in Twilio’s Message shape: 201, queued, to/from/body, segments', async () => {
    const res = await postForm({ To: '+447911123456', From: 'Punctual', Body: 'Ünïcode ✓ '.repeat(8) });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'queued', to: '+447911123456', from: 'Punctual', body: 'Ünïcode ✓ '.repeat(8), num_segments: '2', account_sid: smsApi.accountSid, direction: 'outbound-api' });
    expect(body.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect((await caught())[0].messageId).toBe(body.sid);
  });

  it('refuses a wrong token: 401 code 20003, the adapter sees a permission rejection, nothing stored', async () => {
    const r = await smsChannel('not-the-token').send(sms(), { idempotencyKey: 'k2' });
    expect(r).toMatchObject({ class: 'rejected', kind: 'permission', code: '20003' });
    const res = await postForm({ To: '+31612345678', From: 'Punctual', Body: 'x' }, `${smsApi.accountSid}:wrong`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="Twilio API"');
    expect(await res.json()).toMatchObject({ code: 20003, status: 401 });
    const noAuth = await fetch(`${smsApi.url}/2010-04-01/Accounts/${smsApi.accountSid}/Messages.json`, { method: 'POST', body: 'To=%2B31612345678' });
    expect(noAuth.status).toBe(401);
    expect(await caught()).toHaveLength(0);
  });

  it("refuses a To that is not E.164 with 400 code 21211 (the adapter: rejected), and other Twilio errors; nothing stored", async () => {
    for (const to of ['0612345678', '+31 6 12345678', '+3161234', '+999123456789', 'ana@example.test']) {
      const res = await postForm({ To: to, From: 'Punctual', Body: 'x' });
      expect(res.status, to).toBe(400);
      expect(((await res.json()) as { code: number }).code, to).toBe(21211);
    }
    expect(await smsChannel().send(sms({ to: '+3161234' }), { idempotencyKey: 'k3' })).toMatchObject({ class: 'rejected', code: '21211' });
    const codeOf = async (form: Record<string, string>) => ((await (await postForm(form)).json()) as { code: number }).code;
    expect(await codeOf({ From: 'Punctual', Body: 'x' })).toBe(21604);
    expect(await codeOf({ To: '+31612345678', Body: 'x' })).toBe(21603);
    expect(await codeOf({ To: '+31612345678', From: 'Punctual' })).toBe(21602);
    expect(await codeOf({ To: '+31612345678', From: 'Far too long sender', Body: 'x' })).toBe(21212);
    expect(await codeOf({ To: '+31612345678', From: 'Punctual', Body: 'a'.repeat(1601) })).toBe(21617);
    expect((await postForm({ To: '+31612345678', From: 'Punctual', Body: 'x' }, undefined, `AC${'cd'.repeat(16)}`)).status).toBe(404);
    expect(await caught()).toHaveLength(0);
    // 1600 characters is still one message.
    expect((await postForm({ To: '+31612345678', From: 'Punctual', Body: 'a'.repeat(1600) })).status).toBe(201);
  });
});

describe('built-in SMS API: delivery status callbacks', () => {
  /** A free port on 127.0.0.1 with nothing listening on it (yet). */
  async function freePort(): Promise<number> {
    const s = http.createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const port = (s.address() as { port: number }).port;
    await new Promise((r) => s.close(r));
    return port;
  }
  /** A receiver on `port` answering each callback with the next of `statuses` (then 200), keeping what it got. */
  async function receiverOn(port: number, statuses: number[]) {
    const got: { body: string; signature: string | undefined; status: number; at: number }[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const status = statuses.shift() ?? 200;
        got.push({ body: Buffer.concat(chunks).toString('utf8'), signature: req.headers['x-twilio-signature'] as string | undefined, status, at: Date.now() });
        res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
    return { got, close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))) };
  }
  const until = async (what: string, ok: () => boolean, ms = 5000) => {
    for (const end = Date.now() + ms; !ok(); ) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('the web app not up yet (connection refused), then a 503, then up → the signed delivered callback arrives (retried with backoff)', async () => {
    const port = await freePort();
    const callbackUrl = `http://127.0.0.1:${port}/api/reports/sms`;
    const api = await startSmsCatcher({ db: tdb.db, authToken: 'retry-token', statusCallbackDelayMs: 10, statusCallbackRetry: { firstDelayMs: 100, giveUpAfterMs: 10_000 } });
    const warn = console.warn;
    console.warn = () => {};
    let receiver: Awaited<ReturnType<typeof receiverOn>> | undefined;
    try {
      const sent = await createSmsChannel({ baseUrl: api.url, accountSid: api.accountSid, authToken: api.authToken }).send(sms({ statusCallbackUrl: callbackUrl }), { idempotencyKey: 'cb1' });
      const sid = (sent as { providerId: string }).providerId;
      // Nothing listens for the first tries (10 ms, +100 ms, +200 ms …); the web app comes up after 250 ms.
      await new Promise((r) => setTimeout(r, 250));
      receiver = await receiverOn(port, [503]);
      await until('the callback', () => receiver!.got.some((g) => g.status === 200));
      expect(receiver.got.map((g) => g.status)).toEqual([503, 200]);
      expect(receiver.got[1].at - receiver.got[0].at).toBeGreaterThanOrEqual(150); // backed off, not hammered
      const { body, signature } = receiver.got[1];
      expect(formParams(body)).toMatchObject({ MessageSid: sid, MessageStatus: 'delivered', SmsStatus: 'delivered', To: '+31612345678' });
      expect(verifyTwilioSignature('retry-token', callbackUrl, formParams(body), signature)).toBe(true);
    } finally {
      console.warn = warn;
      await api.close();
      await receiver?.close();
    }
  });

  it('a 4xx answer is final: not retried; closing the API stops pending retries', async () => {
    const port = await freePort();
    const receiver = await receiverOn(port, [400]);
    const api = await startSmsCatcher({ db: tdb.db, statusCallbackDelayMs: 10, statusCallbackRetry: { firstDelayMs: 50, giveUpAfterMs: 10_000 } });
    const warn = console.warn;
    console.warn = () => {};
    try {
      const channel = createSmsChannel({ baseUrl: api.url, accountSid: api.accountSid, authToken: api.authToken });
      await channel.send(sms({ statusCallbackUrl: `http://127.0.0.1:${port}/refuses` }), { idempotencyKey: 'cb2' });
      await until('the callback', () => receiver.got.length === 1);
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.got.map((g) => g.status)).toEqual([400]);
      // Pending retries end with the API: a callback to a dead port, then close → no try after it.
      const dead = await freePort();
      await channel.send(sms({ statusCallbackUrl: `http://127.0.0.1:${dead}/x` }), { idempotencyKey: 'cb3' });
      await new Promise((r) => setTimeout(r, 100));
      await api.close();
      const late = await receiverOn(dead, []);
      await new Promise((r) => setTimeout(r, 400));
      expect(late.got).toHaveLength(0);
      await late.close();
    } finally {
      console.warn = warn;
      await api.close().catch(() => {});
      await receiver.close();
    }
  });
});

const payload = { type: 'booking_confirmed', timestamp: '2027-09-01T07:00:00.000Z', data: { messageKey: 'k', recipient: { name: 'Zoë ✓' } } };
const hook = (over: Partial<OutgoingWebhook> = {}): OutgoingWebhook => ({
  tenantId: acme.id,
  url: hookUrl(receiver.url, 'acme'),
  secret: acmeSecret,
  id: 'ntf:acme:booking_confirmed:b1:1:c1:webhook',
  payload,
  ...over,
});

describe('built-in webhook receiver', () => {
  it('verifies a delivery from the real webhook adapter with the tenant’s secret: 204, stored verified', async () => {
    const r = await webhook.send(hook(), { idempotencyKey: 'w1', now: new Date() });
    expect(r).toMatchObject({ class: 'accepted', providerId: 'http-204' });
    const rows = await caught();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      channel: 'webhook',
      messageId: 'ntf:acme:booking_confirmed:b1:1:c1:webhook',
      subject: 'booking_confirmed',
      text: JSON.stringify(payload, null, 2),
      raw: JSON.stringify(payload),
      envelopeTo: ['/hooks/acme'],
      html: null,
    });
    expect(rows[0].headers).toMatchObject({ verified: true, 'webhook-id': 'ntf:acme:booking_confirmed:b1:1:c1:webhook', 'user-agent': 'Punctual-Webhooks/1' });
    expect((rows[0].headers as Record<string, string>)['webhook-signature']).toMatch(/^v1,/);
  });

  it('a wrong secret → 401 (the adapter: rejected), stored as not verified with the reason', async () => {
    const r = await webhook.send(hook({ secret: newWebhookSecret() }), { idempotencyKey: 'w2', now: new Date() });
    expect(r).toMatchObject({ class: 'rejected', kind: 'permission' });
    const rows = await caught();
    expect(rows).toHaveLength(1);
    expect(rows[0].headers).toMatchObject({ verified: false, verification: 'No matching signature found' });
    expect(rows[0].subject).toBe('booking_confirmed');
  });

  it('not verified either: a stale timestamp, an unknown tenant, a tenant without a secret, no signature', async () => {
    await webhook.send(hook({ id: 'old' }), { idempotencyKey: 'w3', now: new Date(Date.now() - 10 * 60_000) });
    await webhook.send(hook({ id: 'nobody', url: hookUrl(receiver.url, 'nobody') }), { idempotencyKey: 'w4', now: new Date() });
    await webhook.send(hook({ id: 'nosecret', url: hookUrl(receiver.url, 'other') }), { idempotencyKey: 'w5', now: new Date() });
    const plain = await fetch(hookUrl(receiver.url, 'acme'), { method: 'POST', body: 'not json', headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(401);
    const rows = await caught();
    expect(rows.map((r) => [r.messageId, (r.headers as { verified: boolean }).verified, (r.headers as { verification: string }).verification])).toEqual([
      ['old', false, 'Message timestamp too old'],
      ['nobody', false, 'no tenant "nobody"'],
      ['nosecret', false, 'tenant "other" has no webhook secret'],
      [null, false, 'Missing required headers'],
    ]);
    // A body that is not JSON is kept verbatim, without a type.
    expect(rows[3]).toMatchObject({ text: 'not json', subject: null, raw: 'not json' });
    // Other paths and methods are not deliveries: nothing stored.
    expect((await fetch(`${receiver.url}/elsewhere`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(hookUrl(receiver.url, 'acme'))).status).toBe(405);
    expect(await caught()).toHaveLength(4);
  });
});

describe('mailbox read models', () => {
  it('show each tenant what it sent (the tenant the sender declared), with counts and verified flags', async () => {
    await smsChannel().send(sms(), { idempotencyKey: 'm1' });
    await smsChannel().send(sms({ tenantId: other.id, from: 'Other', to: '+447911123456' }), { idempotencyKey: 'm2' });
    await webhook.send(hook(), { idempotencyKey: 'm3', now: new Date() });
    await webhook.send(hook({ id: 'bad', secret: newWebhookSecret() }), { idempotencyKey: 'm4', now: new Date() });
    const scope = { tenantId: acme.id, viewerEmail: 'staff@acme.test' };
    expect(await countCaughtMessages(tdb.db, scope)).toEqual({ email: 0, sms: 1, webhook: 2 });
    const smsList = await listCaughtMessages(tdb.db, { limit: 10, offset: 0 }, scope, 'sms');
    expect(smsList.items).toEqual([expect.objectContaining({ channel: 'sms', envelopeFrom: '+15005550006', text: sms().body, verified: null })]);
    const hooks = await listCaughtMessages(tdb.db, { limit: 10, offset: 0 }, scope, 'webhook');
    expect(hooks.items.map((h) => [h.messageId, h.verified, h.subject])).toEqual([
      ['bad', false, 'booking_confirmed'],
      ['ntf:acme:booking_confirmed:b1:1:c1:webhook', true, 'booking_confirmed'],
    ]);
    const otherScope = { tenantId: other.id, viewerEmail: 'staff@other.test' };
    expect(await countCaughtMessages(tdb.db, otherScope)).toEqual({ email: 0, sms: 1, webhook: 0 });
    // Another tenant's message is not found through this tenant's scope.
    const [otherSms] = await tdb.db.select().from(caughtMessages).where(eq(caughtMessages.envelopeFrom, 'Other'));
    expect(await getCaughtMessage(tdb.db, otherSms.id, scope)).toBeNull();
    expect(await getCaughtMessage(tdb.db, otherSms.id, otherScope)).toMatchObject({ channel: 'sms', text: sms().body });
  });
});

describe('mail catcher faults and booking notifications', () => {
  it('a +deny-once / +drop-once fault hits the first reminder or nudge, never a booking notification before it', async () => {
    const mail = await startMailCatcher({ db: tdb.db });
    const smtp = createSmtpChannel({ url: mail.url });
    const email = (to: string, key: string): OutgoingEmail => ({
      tenantId: acme.id,
      from: { name: 'Acme', address: 'hi@acme.test' },
      to: { name: 'Ana', address: to },
      subject: key.startsWith('ntf:') ? "You're booked: Clay" : 'Reminder: Clay',
      html: '<p>hi</p>',
      text: 'hi',
      messageId: `<${key.replace(/:/g, '.')}@acme.test>`,
      headers: { 'X-Punctual-Message-Key': key },
    });
    try {
      const deny = 'ana+deny-once@example.test';
      expect(await smtp.send(email(deny, 'ntf:acme:booking_confirmed:b1:r1:c1:email'), { idempotencyKey: 'a' })).toMatchObject({ class: 'accepted' });
      const refused = await smtp.send(email(deny, 'nudge:acme:b1:1:email'), { idempotencyKey: 'b' });
      expect(refused).toMatchObject({ class: 'rejected', kind: 'permission' });
      expect(JSON.stringify(refused)).toContain('5.7.1');
      expect(await smtp.send(email(deny, 'nudge:acme:b1:2:email'), { idempotencyKey: 'c' })).toMatchObject({ class: 'accepted' });

      const drop = 'bo+drop-once@example.test';
      expect(await smtp.send(email(drop, 'ntf:acme:booking_confirmed:b2:r1:c2:email'), { idempotencyKey: 'd' })).toMatchObject({ class: 'accepted' });
      expect(await smtp.send(email(drop, 'rem:acme:r1:b2:1:email'), { idempotencyKey: 'e' })).toMatchObject({ class: 'ambiguous' });
      const rows = await caught();
      expect(rows.map((r) => [r.envelopeTo[0], r.headers && (r.headers as Record<string, string>)['x-punctual-message-key']])).toEqual([
        [deny, 'ntf:acme:booking_confirmed:b1:r1:c1:email'],
        [deny, 'nudge:acme:b1:2:email'],
        [drop, 'ntf:acme:booking_confirmed:b2:r1:c2:email'],
        [drop, 'rem:acme:r1:b2:1:email'],
      ]);
    } finally {
      await smtp.close();
      await mail.close();
    }
  });
});
