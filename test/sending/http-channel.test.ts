/** The HTTP email API adapter against the fault-injecting HTTP peer: every classification row, for real. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpEmailChannel } from '@/channels/http-email';
import type { OutgoingEmail } from '@/channels/types';
import { freePort } from '@/db/embedded';
import { startHttpPeer, type HttpPeer } from '@/test/support/http-peer';

let peer: HttpPeer;
beforeAll(async () => {
  peer = await startHttpPeer();
});
afterAll(async () => peer?.close());
beforeEach(() => {
  peer.messages.length = 0;
  peer.requests.length = 0;
  peer.script('accept');
});

const mail = (to = 'ada@example.test'): OutgoingEmail => ({
  tenantId: '00000000-0000-4000-8000-00000000a11a',
  from: { name: 'Org', address: 'r@org.test' },
  to: { name: 'Ada', address: to },
  subject: 'Hi',
  html: '<p>Hi</p>',
  text: 'Hi',
  messageId: '<k@punctual.local>',
});
const channel = (timeoutMs = 2000, apiKey = peer.apiKey) => createHttpEmailChannel({ baseUrl: peer.url, apiKey, timeoutMs });

describe('HTTP email channel', () => {
  it('accepted: the provider id comes back; a repeat with the same key stores nothing new', async () => {
    const a = await channel().send(mail(), { idempotencyKey: 'k1' });
    const b = await channel().send(mail(), { idempotencyKey: 'k1' });
    expect(a.class).toBe('accepted');
    expect(b).toMatchObject({ class: 'accepted', providerId: (a as { providerId: string }).providerId });
    expect(peer.messages).toHaveLength(1);
  });

  it.each([
    ['429:60', { class: 'rate_limited', retryAfterMs: 60_000 }],
    ['401', { class: 'rejected', kind: 'permission' }],
    ['422', { class: 'rejected', kind: 'validation' }],
    ['reject-recipient', { class: 'rejected', kind: 'invalid_recipient' }],
    ['500', { class: 'ambiguous', code: 'HTTP_500' }],
  ] as const)('%s → %j', async (behaviour, expected) => {
    peer.script(behaviour);
    expect(await channel().send(mail(), { idempotencyKey: `k-${behaviour}` })).toMatchObject(expected);
    expect(peer.messages).toHaveLength(0);
  });

  it('carries the sender name in `from` and the Reply-To as `reply_to` (issue #13); none without one', async () => {
    await channel().send({ ...mail(), from: { name: 'Front Desk', address: 'r@org.test' }, replyTo: 'desk@org.test' }, { idempotencyKey: 'k-reply' });
    await channel().send(mail('bo@example.test'), { idempotencyKey: 'k-noreply' });
    expect(peer.messages.map((m) => [m.from, m.replyTo])).toEqual([
      ['Front Desk <r@org.test>', 'desk@org.test'],
      ['Org <r@org.test>', null],
    ]);
  });

  it('a wrong API key is a permission rejection', async () => {
    expect(await channel(2000, 'wrong').send(mail(), { idempotencyKey: 'k' })).toMatchObject({ class: 'rejected', kind: 'permission' });
  });

  it('connection refused before the request was written → transient', async () => {
    const c = createHttpEmailChannel({ baseUrl: `http://127.0.0.1:${await freePort()}`, apiKey: 'x' });
    expect(await c.send(mail(), { idempotencyKey: 'k' })).toMatchObject({ class: 'transient', code: 'ECONNREFUSED' });
  });

  it('stored, then the connection dropped → ambiguous; the retry with the same key reconciles, one message', async () => {
    peer.script('accept-then-drop', 'accept');
    const first = await channel().send(mail(), { idempotencyKey: 'k-drop' });
    expect(first.class).toBe('ambiguous');
    expect(peer.messages).toHaveLength(1);
    const retry = await channel().send(mail(), { idempotencyKey: 'k-drop' });
    expect(retry).toMatchObject({ class: 'accepted', providerId: peer.messages[0].id });
    expect(peer.messages).toHaveLength(1);
  });

  it('stored, but the answer comes after our timeout → ambiguous; lookup finds it by key', async () => {
    peer.script('delay:3');
    const r = await channel(500).send(mail(), { idempotencyKey: 'k-slow' });
    expect(r).toMatchObject({ class: 'ambiguous', code: 'ETIMEDOUT' });
    expect(await channel().lookup!('k-slow')).toEqual({ found: true, providerId: peer.messages[0].id });
    expect(await channel().lookup!('never-sent')).toEqual({ found: false });
  });
});
