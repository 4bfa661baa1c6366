/**
 * Outbound webhook channel (issue #9 §5): POSTs a JSON payload to a tenant's endpoint, signed per the Standard
 * Webhooks specification with the `standardwebhooks` library (1.1.1):
 *
 *   POST <endpoint URL>
 *   webhook-id: <message key>                 the same on every retry: receivers deduplicate on it
 *   webhook-timestamp: <unix seconds of opts.now>
 *   webhook-signature: v1,<base64 HMAC-SHA256(key, "{id}.{timestamp}.{body}")>
 *   content-type: application/json
 *   user-agent: Punctual-Webhooks/1
 *   <body: JSON.stringify(payload), serialised once; the signature covers exactly these bytes>
 *
 * Redirects are never followed (node:http does not follow them — the `redirect: 'manual'` of fetch): a 3xx is
 * classified as a rejection (domain/sending/webhook-outcome.ts). HTTPS is required unless `allowHttp`.
 *
 * Server-side request forgery (Standard Webhooks spec "Server side request forgery"; OWASP SSRF Prevention Cheat
 * Sheet): only public addresses are called, whether or not `allowHttp`. parseWebhookUrl refuses IP literals in non-public
 * ranges and `localhost` names; a DNS name is resolved at send time by the connection's own `lookup`
 * ({@link checkedLookup}: `dns.lookup(host, { all: true })`), which refuses the connection if ANY address is
 * non-public (domain/sending/private-address.ts) and otherwise hands exactly the checked addresses to the socket, so the
 * connection goes to an address that was checked — a name cannot resolve to a public address for the check and a
 * private one for the connect (DNS rebinding). A refusal is `rejected` kind `permission` code `PRIVATE_ADDRESS`,
 * naming the address, and happens before a TCP connection is opened, so no byte reaches the address. The one
 * exception is an origin named in `allowedOrigins` (PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS: the demo's own receiver,
 * http://127.0.0.1:<port>, which `npm start` names; tests name their local receivers): neither check applies to it,
 * and only to it — another port on the same host is refused like any private address.
 *
 * Uses node:http(s) directly, as channels/http-email.ts does, to know whether the request reached the wire:
 * a failure before the socket was ready (connection refused, DNS, TLS handshake) is `transient`; after it
 * (reset, timeout waiting for the answer) `ambiguous`, which decideAfterOutcome retries under the same
 * webhook-id because the channel is idempotent. Never throws for a receiver or network failure; a bad URL,
 * secret, id or payload is returned as a rejection (those are configuration or programming errors that a retry
 * cannot fix, so they dead-letter with their reason instead of crashing the job).
 */
import { randomBytes } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { classifyAddress, describeNonPublic } from '@/domain/sending/private-address';
import { classifyWebhookNetworkError, classifyWebhookResponse } from '@/domain/sending/webhook-outcome';
import { formatWebhookSecret, isWebhookSecret } from '@/domain/sending/webhook-secret';
import { isAllowedOrigin, parseWebhookUrl } from '@/domain/sending/webhook-url';
import type { OutgoingWebhook, Outcome, SendOptions, WebhookChannel } from './types';
import { identityHeaders } from '@/domain/sending/caught-identity';

interface WebhookChannelOptions {
  /**
   * Whole-request deadline, ms (default 15 000: the spec recommends 15–30 s for receivers to answer). Before the
   * socket is ready it ends as `transient`, after as `ambiguous`.
   */
  timeoutMs?: number;
  /**
   * Accept `http:` endpoints (PUNCTUAL_WEBHOOK_ALLOW_HTTP: the local demo, tests). Default false: https only. It
   * does not allow non-public addresses (module doc, SSRF).
   */
  allowHttp?: boolean;
  /**
   * Origins (`http://127.0.0.1:4010`) called even though their host is not public (PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS,
   * domain/sending/webhook-url.ts). Default: none.
   */
  allowedOrigins?: readonly string[];
}

/**
 * Every address of a host name, as `dns.lookup(hostname, { all: true, family, hints })` gives them (the system
 * resolver: /etc/hosts, then DNS). `family`: 0 (both), 4 or 6; `hints`: getaddrinfo flags, as the socket asks.
 */
export type ResolveAll = (hostname: string, opts: { family: number; hints?: number }) => Promise<dns.LookupAddress[]>;

const systemResolveAll: ResolveAll = (hostname, opts) => dns.promises.lookup(hostname, { all: true, family: opts.family, hints: opts.hints });

/**
 * The error a {@link checkedLookup} fails the connection with: `hostname` resolved to `address`, which is not
 * public. `code` is `PRIVATE_ADDRESS`.
 */
export class PrivateAddressError extends Error {
  readonly code = 'PRIVATE_ADDRESS';
  constructor(
    readonly hostname: string,
    readonly address: string,
    description: string,
  ) {
    super(`endpoint must be a public address: ${hostname} resolves to ${address}, ${description}; nothing was sent`);
    this.name = 'PrivateAddressError';
  }
}

/**
 * A `lookup` for net/http(s) `request` options that only lets a socket connect to public addresses (module doc):
 * resolves every address with `resolveAll`, fails with a {@link PrivateAddressError} if ANY of them is not public,
 * and otherwise answers with exactly those addresses — all of them when the socket asks for `all` (node's
 * happy-eyeballs `autoSelectFamily`), else the first — so the socket connects to a checked address without
 * resolving again. A resolver error (ENOTFOUND, …) is passed through unchanged. node does not call `lookup` for a
 * host that is already an IP literal: parseWebhookUrl checks those.
 */
export function checkedLookup(resolveAll: ResolveAll = systemResolveAll): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    resolveAll(hostname, { family, hints: options.hints }).then(
      (addresses) => {
        for (const a of addresses) {
          const c = classifyAddress(a.address);
          if (c) return callback(new PrivateAddressError(hostname, a.address, describeNonPublic(c)), '');
        }
        if (addresses.length === 0) {
          return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), '');
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (e: NodeJS.ErrnoException) => callback(e, ''),
    );
  };
}

/** The `user-agent` every delivery carries. */
const webhookUserAgent = 'Punctual-Webhooks/1';
/** Bytes of a receiver's answer kept for classification (the attempt records 500 characters of it). */
const maxAnswerBytes = 16 * 1024;

/** A new endpoint signing secret: `whsec_` + base64 of 24 random bytes (format: domain/sending/webhook-secret.ts). */
export function newWebhookSecret(): string {
  return formatWebhookSecret(randomBytes(24));
}

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type RequestFailure = Error & { code?: string; requestWritten: boolean };

function post(
  url: URL,
  body: string,
  headers: Record<string, string>,
  agents: { http: http.Agent; https: https.Agent },
  timeoutMs: number,
  signal: AbortSignal | undefined,
  lookup: LookupFunction | undefined,
): Promise<RawAnswer> {
  const secure = url.protocol === 'https:';
  const lib = secure ? https : http;
  return new Promise((resolve, reject) => {
    let written = false;
    let settled = false;
    let deadline: NodeJS.Timeout | undefined;
    const fail = (e: Error & { code?: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      reject(Object.assign(e, { requestWritten: written }) as RequestFailure);
    };
    const req = lib.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: secure ? agents.https : agents.http,
        signal,
        ...(lookup ? { lookup } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (c: Buffer) => {
          if (kept < maxAnswerBytes) chunks.push(c);
          kept += c.length;
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).subarray(0, maxAnswerBytes).toString('utf8') });
        });
        res.on('error', (e) => fail(e));
        res.on('aborted', () => fail(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' })));
      },
    );
    // The body goes to the socket as soon as it is ready (TCP connected; for https, handshake done): from then
    // on the receiver may act on it. A reused keep-alive socket is ready already.
    req.on('socket', (s) => {
      if (s.connecting) s.once(secure ? 'secureConnect' : 'connect', () => (written = true));
      else written = true;
    });
    deadline = setTimeout(
      () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
      timeoutMs,
    );
    req.on('error', (e) => fail(e as Error & { code?: string }));
    req.end(body);
  });
}

function headerValue(v: string | string[] | undefined): string | null {
  return v === undefined ? null : Array.isArray(v) ? (v[0] ?? null) : v;
}

/**
 * A `webhook-id` we can send: printable ASCII without spaces or `.` (the spec: the id must not contain `.`,
 * which delimits the signed content). Message keys (domain/keys.ts) always qualify.
 */
function isSendableId(id: string): boolean {
  return /^[\x21-\x7e]+$/.test(id) && !id.includes('.');
}

/**
 * Creates the webhook channel (module doc). `close()` destroys its keep-alive sockets.
 * `send(message, { idempotencyKey, signal, now })`: `message.id` is the `webhook-id` (the message key; the
 * pipeline passes the same key as `idempotencyKey`); `now` (the database clock) gives `webhook-timestamp` and is
 * the instant a Retry-After date is measured from.
 */
export function createWebhookChannel(opts: WebhookChannelOptions = {}): WebhookChannel {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const policy = { allowHttp: opts.allowHttp ?? false, allowedOrigins: opts.allowedOrigins ?? [] };
  const lookup = checkedLookup();
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  return {
    name: 'webhook',
    idempotent: true,
    async close() {
      agents.http.destroy();
      agents.https.destroy();
    },
    async send(m: OutgoingWebhook, o: SendOptions & { now: Date }): Promise<Outcome> {
      const target = parseWebhookUrl(m.url, policy);
      if (!target.ok) return { class: 'rejected', kind: 'permission', code: target.code, message: target.message };
      if (!isWebhookSecret(m.secret)) {
        return { class: 'rejected', kind: 'permission', code: 'INVALID_SECRET', message: 'the endpoint signing secret is not a whsec_ secret of 24–64 bytes' };
      }
      if (!isSendableId(m.id)) {
        return { class: 'rejected', kind: 'validation', code: 'INVALID_WEBHOOK_ID', message: `webhook-id ${JSON.stringify(m.id)} is empty or has spaces, '.' or non-ASCII characters` };
      }
      let body: string | undefined;
      try {
        body = JSON.stringify(m.payload);
      } catch (e) {
        return { class: 'rejected', kind: 'validation', code: 'INVALID_PAYLOAD', message: `the payload cannot be serialised as JSON: ${(e as Error).message}` };
      }
      if (body === undefined) return { class: 'rejected', kind: 'validation', code: 'INVALID_PAYLOAD', message: 'the payload cannot be serialised as JSON' };

      const headers = {
        'webhook-id': m.id,
        'webhook-timestamp': String(Math.floor(o.now.getTime() / 1000)),
        'webhook-signature': new Webhook(m.secret).sign(m.id, o.now, body),
        'content-type': 'application/json',
        'user-agent': webhookUserAgent,
        ...identityHeaders(m),
      };
      try {
        // An allowed origin (the demo's own receiver) is connected to as named; every other host through the checked lookup.
        const res = await post(new URL(target.url), body, headers, agents, timeoutMs, o.signal, isAllowedOrigin(target.url, policy.allowedOrigins) ? undefined : lookup);
        return classifyWebhookResponse(
          { status: res.status, bodyText: res.body, retryAfter: headerValue(res.headers['retry-after']), location: headerValue(res.headers.location) },
          o.now,
        );
      } catch (e) {
        // Refused by checkedLookup before any connection was opened: the endpoint's configuration, not the network.
        if (e instanceof PrivateAddressError) return { class: 'rejected', kind: 'permission', code: 'PRIVATE_ADDRESS', message: e.message };
        const err = e as RequestFailure;
        const aborted = err.name === 'AbortError' || o.signal?.aborted;
        const code = aborted ? 'ETIMEDOUT' : (err.code ?? 'ERROR');
        return classifyWebhookNetworkError({ code, message: err.message, requestWritten: err.requestWritten ?? false });
      }
    },
  };
}
