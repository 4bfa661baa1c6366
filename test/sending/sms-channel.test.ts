/** The SMS adapter (Twilio-compatible Messages API) against the fault-injecting SMS peer: every outcome, for real. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSmsChannel } from '@/channels/sms';
import type { OutgoingSms } from '@/channels/types';
import { freePort } from '@/db/embedded';
import { startSmsPeer, type SmsPeer } from '@/test/support/sms-peer';

let peer: SmsPeer;
beforeAll(async () => {
  peer = await startSmsPeer({ invalidNumbers: ['+31600000000'] });
});
afterAll(async () => peer?.close());
beforeEach(() => {
  peer.messages.length = 0;
  peer.requests.length = 0;
  peer.script('accept');
});

const sms = (over: Partial<OutgoingSms> = {}): OutgoingSms => ({
  tenantId: '00000000-0000-4000-8000-00000000a11a',
  from: '+3197010000000',
  to: '+31612345678',
  body: 'Hoi Zoë: je workshop begint om 10:00 — kosten €5 & 100% zin!',
  statusCallbackUrl: 'https://punctual.example/api/sms/status?d=42',
  messageKey: 'k-sms',
  ...over,
});
const channel = (o: { timeoutMs?: number; authToken?: string; baseUrl?: string } = {}) =>
  createSmsChannel({ baseUrl: o.baseUrl ?? peer.url, accountSid: peer.accountSid, authToken: o.authToken ?? peer.authToken, timeoutMs: o.timeoutMs ?? 2000 });
const send = (c = channel(), m = sms()) => c.send(m, { idempotencyKey: m.messageKey });

describe('SMS channel (Twilio-compatible)', () => {
  it('is named sms_api and is not idempotent', () => {
    const c = channel();
    expect(c.name).toBe('sms_api');
    expect(c.idempotent).toBe(false);
  });

  it('accept → accepted with the sid; To/From/Body/StatusCallback arrive as a form, with Basic auth', async () => {
    const r = await send();
    expect(peer.messages).toHaveLength(1);
    const stored = peer.messages[0];
    expect(stored.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(r).toMatchObject({ class: 'accepted', providerId: stored.sid });
    expect(stored).toMatchObject({
      to: '+31612345678',
      from: '+3197010000000',
      body: 'Hoi Zoë: je workshop begint om 10:00 — kosten €5 & 100% zin!',
      statusCallback: 'https://punctual.example/api/sms/status?d=42',
    });
    const req = peer.requests[0];
    expect(req.path).toBe(`/2010-04-01/Accounts/${peer.accountSid}/Messages.json`);
    expect(req.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(req.authorization).toBe(`Basic ${Buffer.from(`${peer.accountSid}:${peer.authToken}`).toString('base64')}`);
    expect(Object.keys(req.form).sort()).toEqual(['Body', 'From', 'StatusCallback', 'To']);
  });

  it('no status callback URL → no StatusCallback field', async () => {
    expect(await send(channel(), sms({ statusCallbackUrl: null }))).toMatchObject({ class: 'accepted' });
    expect(peer.requests[0].form).not.toHaveProperty('StatusCallback');
    expect(peer.messages[0].statusCallback).toBeNull();
  });

  it('429:2 → rate_limited with retryAfterMs 2000, nothing stored', async () => {
    peer.script('429:2');
    expect(await send()).toMatchObject({ class: 'rate_limited', retryAfterMs: 2000, code: '20429' });
    expect(peer.messages).toHaveLength(0);
  });

  it.each(['500', '503'] as const)('%s → transient (the API answered: no message was created)', async (b) => {
    peer.script(b);
    expect(await send()).toMatchObject({ class: 'transient', code: b === '500' ? '20500' : '20503' });
    expect(peer.messages).toHaveLength(0);
  });

  it('accept-then-drop → ambiguous, and the provider did store exactly one message', async () => {
    peer.script('accept-then-drop');
    expect(await send()).toMatchObject({ class: 'ambiguous' });
    expect(peer.messages).toHaveLength(1);
    expect(peer.requests.map((r) => r.status)).toEqual(['dropped']);
  });

  it('invalid-number → rejected invalid_recipient, suppressAs invalid_number', async () => {
    peer.script('invalid-number');
    expect(await send()).toMatchObject({ class: 'rejected', kind: 'invalid_recipient', suppressAs: 'invalid_number', code: '21211' });
    expect(peer.messages).toHaveLength(0);
  });

  it('a number on the peer’s invalid list → 21211 whatever the script', async () => {
    expect(await send(channel(), sms({ to: '+31600000000' }))).toMatchObject({ class: 'rejected', kind: 'invalid_recipient', suppressAs: 'invalid_number' });
    expect(peer.messages).toHaveLength(0);
  });

  it('unsubscribed → rejected invalid_recipient, suppressAs unsubscribed', async () => {
    peer.script('unsubscribed');
    expect(await send()).toMatchObject({ class: 'rejected', kind: 'invalid_recipient', suppressAs: 'unsubscribed', code: '21610' });
  });

  it('a wrong auth token → rejected permission (20003), nothing stored', async () => {
    const r = await send(channel({ authToken: 'wrong' }));
    expect(r).toMatchObject({ class: 'rejected', kind: 'permission', code: '20003' });
    expect(r).not.toHaveProperty('suppressAs');
    expect(peer.messages).toHaveLength(0);
    expect(peer.requests[0].status).toBe(401);
  });

  it('the auth behaviour → rejected permission', async () => {
    peer.script('auth');
    expect(await send()).toMatchObject({ class: 'rejected', kind: 'permission', code: '20003' });
  });

  it('connection refused (closed port) → transient: nothing was sent', async () => {
    const r = await send(channel({ baseUrl: `http://127.0.0.1:${await freePort()}` }));
    expect(r).toMatchObject({ class: 'transient', code: 'ECONNREFUSED' });
  });

  it('stored, but no answer within the timeout → ambiguous (ETIMEDOUT), one message exists', async () => {
    peer.script('delay:3');
    const started = Date.now();
    const r = await send(channel({ timeoutMs: 500 }));
    expect(r).toMatchObject({ class: 'ambiguous', code: 'ETIMEDOUT' });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(peer.messages).toHaveLength(1);
  });

  it('a signal aborted before the call → transient, nothing sent', async () => {
    const c = channel();
    const r = await c.send(sms(), { idempotencyKey: 'k', signal: AbortSignal.abort() });
    expect(r).toMatchObject({ class: 'transient', code: 'ABORTED' });
    expect(peer.requests).toHaveLength(0);
  });

  it('no idempotency: the same message sent twice is two messages at the provider', async () => {
    await send();
    await send();
    expect(peer.messages).toHaveLength(2);
    expect(peer.messages[0].sid).not.toBe(peer.messages[1].sid);
  });
});
