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
 * classified as a rejection (domain/webhook-outcome.ts). HTTPS is required unless `allowHttp`.
 *
 * Uses node:http(s) directly, as channels/http-email.ts does, to know whether the request reached the wire:
 * a failure before the socket was ready (connection refused, DNS, TLS handshake) is `transient`; after it
 * (reset, timeout waiting for the answer) `ambiguous`, which decideAfterOutcome retries under the same
 * webhook-id because the channel is idempotent. Never throws for a receiver or network failure; a bad URL,
 * secret, id or payload is returned as a rejection (those are configuration or programming errors that a retry
 * cannot fix, so they dead-letter with their reason instead of crashing the job).
 */
import http from 'node:http';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { classifyWebhookNetworkError, classifyWebhookResponse } from '../domain/webhook-outcome';
import { formatWebhookSecret, isWebhookSecret } from '../domain/webhook-secret';
import { parseWebhookUrl } from '../domain/webhook-url';
import type { OutgoingWebhook, Outcome, SendOptions, WebhookChannel } from './types';

export interface WebhookChannelOptions {
  /**
   * Whole-request deadline, ms (default 15 000: the spec recommends 15–30 s for receivers to answer). Before the
   * socket is ready it ends as `transient`, after as `ambiguous`.
   */
  timeoutMs?: number;
  /** Accept `http:` endpoints (tests and the local demo on http://127.0.0.1). Default false: https only. */
  allowHttp?: boolean;
}

/** The `user-agent` every delivery carries. */
export const webhookUserAgent = 'Punctual-Webhooks/1';
/** Bytes of a receiver's answer kept for classification (the attempt records 500 characters of it). */
const maxAnswerBytes = 16 * 1024;

/** A new endpoint signing secret: `whsec_` + base64 of 24 random bytes (format: domain/webhook-secret.ts). */
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
  signal?: AbortSignal,
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
  const allowHttp = opts.allowHttp ?? false;
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  return {
    name: 'webhook',
    idempotent: true,
    async close() {
      agents.http.destroy();
      agents.https.destroy();
    },
    async send(m: OutgoingWebhook, o: SendOptions & { now: Date }): Promise<Outcome> {
      const target = parseWebhookUrl(m.url, { allowHttp });
      if (!target.ok) return { class: 'rejected', kind: 'permission', code: 'INVALID_ENDPOINT', message: target.message };
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
      };
      try {
        const res = await post(new URL(target.url), body, headers, agents, timeoutMs, o.signal);
        return classifyWebhookResponse(
          { status: res.status, bodyText: res.body, retryAfter: headerValue(res.headers['retry-after']), location: headerValue(res.headers.location) },
          o.now,
        );
      } catch (e) {
        const err = e as RequestFailure;
        const aborted = err.name === 'AbortError' || o.signal?.aborted;
        const code = aborted ? 'ETIMEDOUT' : (err.code ?? 'ERROR');
        return classifyWebhookNetworkError({ code, message: err.message, requestWritten: err.requestWritten ?? false });
      }
    },
  };
}
