/**
 * The webhook adapter against a receiver that verifies every delivery with the `standardwebhooks` library
 * (test/support/webhook-peer.ts): signing, headers, and every classification row, for real over HTTP.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createWebhookChannel, newWebhookSecret } from '../channels/webhook';
import type { OutgoingWebhook } from '../channels/types';
import { freePort } from '../db/embedded';
import { isWebhookSecret } from '../domain/webhook-secret';
import { startWebhookPeer, type WebhookPeer } from './support/webhook-peer';

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const secret = newWebhookSecret();
let peer: WebhookPeer;
const channel = createWebhookChannel({ allowHttp: true, timeoutMs: 2000 });
beforeAll(async () => {
  peer = await startWebhookPeer({ secret });
});
afterAll(async () => {
  await channel.close();
  await peer?.close();
});
beforeEach(() => {
  peer.deliveries.length = 0;
  peer.accepted.length = 0;
  peer.script('accept');
});

const payload = { type: 'booking.confirmed', timestamp: '2027-09-01T07:00:00.000Z', data: { bookingId: 'b1', name: 'Zoë ✓' } };
const hook = (id: string, over: Partial<OutgoingWebhook> = {}): OutgoingWebhook => ({ url: peer.url, secret, id, payload, ...over });
const opts = (id: string) => ({ idempotencyKey: id, now: new Date() });

describe('webhook channel', () => {
  it('newWebhookSecret: whsec_ + base64 of 24 random bytes, a new one each time', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(isWebhookSecret(secret)).toBe(true);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('accepted: the receiver verifies it with the same library; headers present; the body is the signed bytes', async () => {
    const now = new Date();
    const id = 'ntf:t1:booking_confirmed:b1:r1:c1:webhook';
    const r = await channel.send(hook(id), { idempotencyKey: id, now });
    expect(r).toEqual({ class: 'accepted', providerId: 'http-200', response: '200 {"ok":true}' });
    expect(peer.deliveries).toHaveLength(1);
    const d = peer.deliveries[0];
    expect(d.verified).toBe(true);
    expect(d.status).toBe(200);
    expect(d.id).toBe(id);
    expect(d.timestamp).toBe(Math.floor(now.getTime() / 1000));
    expect(d.payload).toEqual(payload);
    expect(d.headers['content-type']).toBe('application/json');
    expect(d.headers['user-agent']).toBe('Punctual-Webhooks/1');
    expect(d.headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    // Exactly JSON.stringify(payload) went over the wire, and the signature is over those bytes.
    expect(d.body).toBe(JSON.stringify(payload));
    expect(d.headers['webhook-signature']).toBe(new Webhook(secret).sign(id, now, JSON.stringify(payload)));
    expect(d.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(peer.accepted.map((a) => a.id)).toEqual([id]);
  });

  it('a wrong secret: the receiver answers 401 → rejected(permission), nothing accepted', async () => {
    const r = await channel.send(hook('k-wrong', { secret: newWebhookSecret() }), opts('k-wrong'));
    expect(r).toMatchObject({ class: 'rejected', kind: 'permission', code: 'HTTP_401' });
    expect(peer.deliveries.map((d) => [d.verified, d.status])).toEqual([[false, 401]]);
    expect(peer.accepted).toHaveLength(0);
  });

  it('500, 500, then 200: three sends under ONE webhook-id; the receiver holds one delivery', async () => {
    peer.script('500', '500', 'accept');
    const id = 'rem:t1:r1:b1:v1:webhook';
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push(await channel.send(hook(id), opts(id)));
    expect(outcomes.map((o) => o.class)).toEqual(['ambiguous', 'ambiguous', 'accepted']);
    expect(outcomes[0]).toMatchObject({ code: 'HTTP_500', response: '500 {"error":"server error"}' });
    expect(peer.deliveries.map((d) => [d.id, d.verified, d.status])).toEqual([
      [id, true, 500],
      [id, true, 500],
      [id, true, 200],
    ]);
    expect(peer.accepted).toHaveLength(1);
    expect(peer.accepted[0].id).toBe(id);
  });

  it('410 Gone → rejected(endpoint_gone)', async () => {
    peer.script('410');
    expect(await channel.send(hook('k-410'), opts('k-410'))).toMatchObject({ class: 'rejected', kind: 'endpoint_gone', code: 'HTTP_410' });
    expect(peer.accepted).toHaveLength(0);
  });

  it('429 with Retry-After: 3 → rate_limited, 3000 ms', async () => {
    peer.script('429:3');
    expect(await channel.send(hook('k-429'), opts('k-429'))).toMatchObject({ class: 'rate_limited', code: 'HTTP_429', retryAfterMs: 3000 });
  });

  it('503 → ambiguous', async () => {
    peer.script('503');
    expect(await channel.send(hook('k-503'), opts('k-503'))).toMatchObject({ class: 'ambiguous', code: 'HTTP_503' });
  });

  it('processed, then the connection dropped → ambiguous; the retry under the same id is deduplicated by the receiver', async () => {
    peer.script('accept-then-drop', 'accept');
    // A fresh channel: the request goes out on a new connection (the "written once connected" path, not a
    // reused keep-alive socket).
    const fresh = createWebhookChannel({ allowHttp: true, timeoutMs: 2000 });
    const first = await fresh.send(hook('k-drop'), opts('k-drop'));
    await fresh.close();
    expect(first).toMatchObject({ class: 'ambiguous' });
    expect(peer.deliveries.map((d) => d.status)).toEqual(['dropped']);
    const retry = await channel.send(hook('k-drop'), opts('k-drop'));
    expect(retry.class).toBe('accepted');
    expect(peer.deliveries).toHaveLength(2);
    expect(peer.accepted).toHaveLength(1);
  });

  it('no answer within the timeout → ambiguous ETIMEDOUT', async () => {
    peer.script('delay:3');
    const slow = createWebhookChannel({ allowHttp: true, timeoutMs: 300 });
    const started = Date.now();
    const r = await slow.send(hook('k-slow'), opts('k-slow'));
    await slow.close();
    expect(r).toMatchObject({ class: 'ambiguous', code: 'ETIMEDOUT' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(peer.deliveries).toHaveLength(1);
  });

  it('an http URL without allowHttp → rejected(permission) "endpoint must be https", nothing sent', async () => {
    const strict = createWebhookChannel();
    const r = await strict.send(hook('k-http'), opts('k-http'));
    await strict.close();
    expect(r).toMatchObject({ class: 'rejected', kind: 'permission', code: 'INVALID_ENDPOINT' });
    expect((r as { message: string }).message).toMatch(/endpoint must be https/);
    expect(peer.deliveries).toHaveLength(0);
  });

  it.skipIf(!hasOpenssl)('https: a failed TLS handshake (self-signed certificate) → transient, the receiver saw no request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    let requests = 0;
    const server = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      const r = await channel.send(hook('k-tls', { url: `https://127.0.0.1:${port}/hook` }), opts('k-tls'));
      expect(r).toMatchObject({ class: 'transient', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
      expect(requests).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('connection refused before anything was written → transient', async () => {
    const r = await channel.send(hook('k-refused', { url: `http://127.0.0.1:${await freePort()}/hook` }), opts('k-refused'));
    expect(r).toMatchObject({ class: 'transient', code: 'ECONNREFUSED' });
  });

  it('a malformed secret, id or payload is a rejection, never a throw and never a request', async () => {
    expect(await channel.send(hook('k', { secret: 'not-a-secret' }), opts('k'))).toMatchObject({ class: 'rejected', kind: 'permission', code: 'INVALID_SECRET' });
    expect(await channel.send(hook('a.b'), opts('a.b'))).toMatchObject({ class: 'rejected', kind: 'validation', code: 'INVALID_WEBHOOK_ID' });
    expect(await channel.send(hook('k', { payload: { n: 1n } }), opts('k'))).toMatchObject({ class: 'rejected', kind: 'validation', code: 'INVALID_PAYLOAD' });
    expect(await channel.send(hook('k', { payload: undefined }), opts('k'))).toMatchObject({ class: 'rejected', kind: 'validation', code: 'INVALID_PAYLOAD' });
    expect(peer.deliveries).toHaveLength(0);
  });
});
