/**
 * The webhook adapter against a receiver that verifies every delivery with the `standardwebhooks` library
 * (test/support/webhook-peer.ts): signing, headers, and every classification row, for real over HTTP.
 */
import { execFileSync } from 'node:child_process';
import dns, { type LookupAddress } from 'node:dns';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { checkedLookup, createWebhookChannel, newWebhookSecret, PrivateAddressError, type ResolveAll } from '@/channels/webhook';
import type { OutgoingWebhook } from '@/channels/types';
import { freePort } from '@/db/embedded';
import { isWebhookSecret } from '@/domain/sending/webhook-secret';
import { startWebhookPeer, type WebhookPeer } from '@/test/support/webhook-peer';

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
// The peer listens on 127.0.0.1: a channel reaches it because its origin (host AND port) is allowed, as `npm start`
// allows its own receiver — allowing http does not open the private-address check.
let channel: ReturnType<typeof createWebhookChannel>;
/** A channel (http allowed) whose only allowed origin is `url`'s. */
const allowing = (url: string, timeoutMs = 2000) => createWebhookChannel({ allowHttp: true, allowedOrigins: [new URL(url).origin], timeoutMs });
beforeAll(async () => {
  peer = await startWebhookPeer({ secret });
  channel = allowing(peer.url);
});
afterAll(async () => {
  await channel?.close();
  await peer?.close();
});
beforeEach(() => {
  peer.deliveries.length = 0;
  peer.accepted.length = 0;
  peer.script('accept');
});

const payload = { type: 'booking.confirmed', timestamp: '2027-09-01T07:00:00.000Z', data: { bookingId: 'b1', name: 'Zoë ✓' } };
const hook = (id: string, over: Partial<OutgoingWebhook> = {}): OutgoingWebhook => ({ tenantId: '00000000-0000-4000-8000-00000000a11a', url: peer.url, secret, id, payload, ...over });
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
    const fresh = allowing(peer.url);
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
    const slow = allowing(peer.url, 300);
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
    const tls = allowing(`https://127.0.0.1:${port}`);
    try {
      const r = await tls.send(hook('k-tls', { url: `https://127.0.0.1:${port}/hook` }), opts('k-tls'));
      expect(r).toMatchObject({ class: 'transient', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
      expect(requests).toBe(0);
    } finally {
      await tls.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('connection refused before anything was written → transient', async () => {
    const url = `http://127.0.0.1:${await freePort()}/hook`;
    const refused = allowing(url);
    const r = await refused.send(hook('k-refused', { url }), opts('k-refused'));
    await refused.close();
    expect(r).toMatchObject({ class: 'transient', code: 'ECONNREFUSED' });
  });

  it('a malformed secret, id or payload is a rejection, never a throw and never a request', async () => {
    expect(await channel.send(hook('k', { secret: 'not-a-secret' }), opts('k'))).toMatchObject({ class: 'rejected', kind: 'permission', code: 'INVALID_SECRET' });
    expect(await channel.send(hook('a.b'), opts('a.b'))).toMatchObject({ class: 'rejected', kind: 'validation', code: 'INVALID_WEBHOOK_ID' });
    expect(await channel.send(hook('k', { payload: { n: 1n } }), opts('k'))).toMatchObject({ class: 'rejected', kind: 'validation', code: 'INVALID_PAYLOAD' });
    expect(await channel.send(hook('k', { payload: undefined }), opts('k'))).toMatchObject({ class: 'rejected', kind: 'validation', code: 'INVALID_PAYLOAD' });
    expect(peer.deliveries).toHaveLength(0);
  });

  describe('SSRF: only public addresses are called, unless the origin is allowed by name', () => {
    // A TCP listener on 127.0.0.1 that counts connections and bytes: a refused send must open no connection at all.
    let listener: net.Server;
    let port: number;
    let connections = 0;
    let bytes = 0;
    beforeAll(async () => {
      listener = net.createServer((s) => {
        connections++;
        s.on('data', (d) => (bytes += d.length));
        s.on('error', () => {});
        s.destroy();
      });
      await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
      port = (listener.address() as net.AddressInfo).port;
    });
    afterAll(async () => {
      await new Promise((r) => listener.close(r));
    });
    beforeEach(() => {
      connections = 0;
      bytes = 0;
    });

    it('control: with its origin allowed the same https://127.0.0.1 endpoint is called (a connection is opened)', async () => {
      const allowed = allowing(`https://127.0.0.1:${port}`);
      const r = await allowed.send(hook('k-ssrf-control', { url: `https://127.0.0.1:${port}/` }), opts('k-ssrf-control'));
      await allowed.close();
      expect(r.class).toBe('transient'); // the listener hangs up during the TLS handshake
      await new Promise((res) => setTimeout(res, 50));
      expect(connections).toBe(1);
    });

    it.each<[string, (port: number) => string, string]>([
      ['https://127.0.0.1:<port>/', (p) => `https://127.0.0.1:${p}/`, 'endpoint must be a public address: 127.0.0.1 is a loopback address'],
      ['https://0x7f000001:<port>/', (p) => `https://0x7f000001:${p}/`, 'endpoint must be a public address: 127.0.0.1 is a loopback address'],
      ['https://[::ffff:127.0.0.1]:<port>/', (p) => `https://[::ffff:127.0.0.1]:${p}/`, 'endpoint must be a public address: ::ffff:7f00:1 is a loopback address (IPv4 127.0.0.1)'],
      ['https://localhost.:<port>/', (p) => `https://localhost.:${p}/`, 'endpoint must be a public address: localhost. is a loopback name'],
    ])('%s → rejected(permission) PRIVATE_ADDRESS; no connection', async (_n, url, message) => {
      const strict = createWebhookChannel({ timeoutMs: 2000 });
      const r = await strict.send(hook('k-ssrf', { url: url(port) }), opts('k-ssrf'));
      await strict.close();
      expect(r).toEqual({ class: 'rejected', kind: 'permission', code: 'PRIVATE_ADDRESS', message });
      expect(connections).toBe(0);
    });

    it('a DNS name that resolves to 127.0.0.1 (this machine\'s host name, via dns.lookup) → rejected PRIVATE_ADDRESS at connect time; no connection, no byte', async (ctx) => {
      const host = hostname().toLowerCase();
      const resolved = await dns.promises.lookup(host, { all: true }).catch(() => []);
      if (resolved.length === 0 || !resolved.every((a) => a.address === '127.0.0.1') || host === 'localhost' || host.endsWith('.localhost')) {
        ctx.skip(`the host name ${host} does not resolve to 127.0.0.1 only here`);
      }
      const strict = createWebhookChannel({ timeoutMs: 2000 });
      const r = await strict.send(hook('k-ssrf-dns', { url: `https://${host}:${port}/hook` }), opts('k-ssrf-dns'));
      await strict.close();
      expect(r).toEqual({
        class: 'rejected',
        kind: 'permission',
        code: 'PRIVATE_ADDRESS',
        message: `endpoint must be a public address: ${host} resolves to 127.0.0.1, a loopback address; nothing was sent`,
      });
      await new Promise((res) => setTimeout(res, 50));
      expect(connections).toBe(0);
      expect(bytes).toBe(0);
      // Control: the same URL with its origin allowed does reach the listener (so the name really leads to it).
      const lax = allowing(`https://${host}:${port}`);
      await lax.send(hook('k-ssrf-dns', { url: `https://${host}:${port}/hook` }), opts('k-ssrf-dns'));
      await lax.close();
      await new Promise((res) => setTimeout(res, 50));
      expect(connections).toBe(1);
    });

    describe('allowing http does not switch the address check off', () => {
      // No request may even be started towards these: http(s).request is replaced by a refusal for the test, so a
      // guard that failed would show as a transient outcome — and no packet would leave this machine either way.
      let started: string[];
      beforeEach(() => {
        started = [];
        for (const lib of [http, https]) {
          vi.spyOn(lib, 'request').mockImplementation(((url: unknown) => {
            started.push(String(url));
            throw Object.assign(new Error('test: no request may be started'), { code: 'ETEST' });
          }) as never);
        }
      });
      afterEach(() => vi.restoreAllMocks());

      it('control: the replaced request sees a send the guard lets through (an allowed origin)', async () => {
        const allowed = allowing(peer.url);
        const r = await allowed.send(hook('k-spy'), opts('k-spy'));
        await allowed.close();
        expect(r).toMatchObject({ class: 'transient', code: 'ETEST' });
        expect(started).toEqual([new URL(peer.url).href]);
        expect(peer.deliveries).toHaveLength(0);
      });

      it.each<[string, string]>([
        ['http://127.0.0.1:9/x', 'endpoint must be a public address: 127.0.0.1 is a loopback address'],
        ['http://10.0.0.1/', 'endpoint must be a public address: 10.0.0.1 is a private address'],
        ['http://[::1]/', 'endpoint must be a public address: ::1 is a loopback address'],
        ['http://localhost/', 'endpoint must be a public address: localhost is a loopback name'],
      ])('allowHttp, no allowed origins: %s → rejected(permission) PRIVATE_ADDRESS before any request', async (url, message) => {
        const lax = createWebhookChannel({ allowHttp: true, timeoutMs: 2000 });
        const r = await lax.send(hook('k-ssrf-http', { url }), opts('k-ssrf-http'));
        await lax.close();
        expect(r).toEqual({ class: 'rejected', kind: 'permission', code: 'PRIVATE_ADDRESS', message });
        expect(started).toEqual([]);
      });

      it('allowHttp and the allowed origin of one receiver: another port on 127.0.0.1 is refused before any request', async () => {
        const demo = createWebhookChannel({ allowHttp: true, allowedOrigins: [new URL(peer.url).origin], timeoutMs: 2000 });
        const r = await demo.send(hook('k-ssrf-port', { url: `http://127.0.0.1:${port}/hooks/demo` }), opts('k-ssrf-port'));
        await demo.close();
        expect(r).toEqual({ class: 'rejected', kind: 'permission', code: 'PRIVATE_ADDRESS', message: 'endpoint must be a public address: 127.0.0.1 is a loopback address' });
        expect(started).toEqual([]);
      });
    });

    it('allowHttp and the allowed origin of the peer: the peer is called, and the listener on another port of 127.0.0.1 sees no connection', async () => {
      const demo = createWebhookChannel({ allowHttp: true, allowedOrigins: [new URL(peer.url).origin], timeoutMs: 2000 });
      expect(await demo.send(hook('k-allowed'), opts('k-allowed'))).toMatchObject({ class: 'accepted' });
      expect(peer.accepted).toHaveLength(1);
      const other = await demo.send(hook('k-other-port', { url: `http://127.0.0.1:${port}/hook` }), opts('k-other-port'));
      await demo.close();
      expect(other).toMatchObject({ class: 'rejected', code: 'PRIVATE_ADDRESS' });
      expect(connections).toBe(0);
    });

    const lookupOnce = (lookup: net.LookupFunction, host: string, all: boolean) =>
      new Promise<{ err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>((resolve) =>
        lookup(host, { all, family: 0 }, (err, address, family) => resolve({ err, address, family })),
      );

    it('checkedLookup with the system resolver: localhost resolves to a loopback address → PrivateAddressError', async () => {
      const addresses = await dns.promises.lookup('localhost', { all: true });
      const { err } = await lookupOnce(checkedLookup(), 'localhost', true);
      expect(err).toBeInstanceOf(PrivateAddressError);
      expect(err).toMatchObject({ code: 'PRIVATE_ADDRESS', hostname: 'localhost', address: addresses[0].address });
      expect(err?.message).toMatch(/^endpoint must be a public address: localhost resolves to (127\.0\.0\.1|::1), a loopback address; nothing was sent$/);
    });

    it('checkedLookup: ANY non-public address refuses; a public answer is handed on unchanged, resolved once', async () => {
      const calls: string[] = [];
      const fake = (answers: Record<string, LookupAddress[]>): ResolveAll => async (host) => {
        calls.push(host);
        if (!answers[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
        return answers[host];
      };
      const lookup = checkedLookup(
        fake({
          'public.test': [{ address: '93.184.215.14', family: 4 }, { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }],
          'mixed.test': [{ address: '93.184.215.14', family: 4 }, { address: '169.254.169.254', family: 4 }],
          'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
          'nat64.test': [{ address: '64:ff9b::a00:1', family: 6 }],
          'empty.test': [],
        }),
      );
      expect(await lookupOnce(lookup, 'public.test', true)).toEqual({
        err: null,
        address: [{ address: '93.184.215.14', family: 4 }, { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }],
        family: undefined,
      });
      expect(await lookupOnce(lookup, 'public.test', false)).toEqual({ err: null, address: '93.184.215.14', family: 4 });
      const mixed = await lookupOnce(lookup, 'mixed.test', true);
      expect(mixed.err).toBeInstanceOf(PrivateAddressError);
      expect(mixed.err?.message).toBe('endpoint must be a public address: mixed.test resolves to 169.254.169.254, a link-local address; nothing was sent');
      expect((await lookupOnce(lookup, 'mapped.test', false)).err?.message).toBe(
        'endpoint must be a public address: mapped.test resolves to ::ffff:127.0.0.1, a loopback address (IPv4 127.0.0.1); nothing was sent',
      );
      expect((await lookupOnce(lookup, 'nat64.test', true)).err).toMatchObject({ code: 'PRIVATE_ADDRESS', address: '64:ff9b::a00:1' });
      expect((await lookupOnce(lookup, 'empty.test', true)).err).toMatchObject({ code: 'ENOTFOUND' });
      expect((await lookupOnce(lookup, 'missing.test', true)).err).toMatchObject({ code: 'ENOTFOUND' });
      expect(calls).toEqual(['public.test', 'public.test', 'mixed.test', 'mapped.test', 'nat64.test', 'empty.test', 'missing.test']);
    });

    it('the socket connects to the address checkedLookup answered (pinned; no second resolution), with and without happy eyeballs', async () => {
      for (const autoSelectFamily of [false, true]) {
        let resolutions = 0;
        const lookup = checkedLookup(async () => {
          resolutions++;
          return [{ address: '93.184.215.14', family: 4 }];
        });
        const used = await new Promise<string>((resolve, reject) => {
          const s = net.connect({ host: 'rebind.test', port: 9, lookup, autoSelectFamily });
          s.on('lookup', (err, address) => {
            s.destroy(); // before the connection attempt: nothing leaves this machine
            if (err) reject(err);
            else resolve(address);
          });
          s.on('error', reject);
        });
        expect(used).toBe('93.184.215.14');
        expect(resolutions).toBe(1);
      }
    });
  });
});
