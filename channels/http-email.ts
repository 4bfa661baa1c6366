/**
 * HTTP email API channel for a provider that deduplicates on an `Idempotency-Key` request header and can
 * look a message up by that key (the style of Resend's and Postmark's APIs):
 *   POST {baseUrl}/emails  { from, to, reply_to?, subject, html, text, headers }  → 2xx { id }
 *   GET  {baseUrl}/emails?idempotency_key=K                              → 200 { id } | 404
 * Because the provider deduplicates, an ambiguous call (timeout or reset after the request was written) may
 * be retried with the same key: the retry returns the first message's id instead of sending a second one.
 *
 * Uses node:http(s) directly to know whether the request reached the wire: a failure before the socket
 * connected is `transient` (nothing was sent); after it, `ambiguous` (domain/sending/http-outcome.ts).
 */
import { identityHeaders } from '@/domain/sending/caught-identity';
import http from 'node:http';
import https from 'node:https';
import { classifyHttp } from '@/domain/sending/http-outcome';
import { formatMailbox } from '@/domain/sending/mailbox';
import type { EmailChannel, LookupResult, OutgoingEmail, Outcome, SendOptions } from './types';

interface HttpEmailChannelOptions {
  /** e.g. https://api.provider.example */
  baseUrl: string;
  apiKey: string;
  /** Per-request timeout, ms (default 10 000). */
  timeoutMs?: number;
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type RequestFailure = Error & { code?: string; requestWritten: boolean };

function request(
  opts: HttpEmailChannelOptions,
  method: 'GET' | 'POST',
  path: string,
  body: string | null,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<RawResponse> {
  const url = new URL(path, opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let written = false;
    const fail = (e: Error & { code?: string }) => reject(Object.assign(e, { requestWritten: written }) as RequestFailure);
    const req = lib.request(
      url,
      {
        method,
        headers: {
          authorization: `Bearer ${opts.apiKey}`,
          accept: 'application/json',
          ...(body !== null ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
          ...headers,
        },
        timeout: opts.timeoutMs ?? 10_000,
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (e) => fail(e));
      },
    );
    req.on('socket', (s) => {
      // The body is handed to the socket as soon as it connects: from then on the provider may act on it.
      if (s.connecting) s.once('connect', () => (written = true));
      else written = true;
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('request timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', (e) => fail(e as Error & { code?: string }));
    req.end(body ?? undefined);
  });
}

function parseId(body: string): string | null {
  try {
    const v = JSON.parse(body) as { id?: unknown };
    return typeof v.id === 'string' ? v.id : null;
  } catch {
    return null;
  }
}

/** Creates the channel. @throws Error for a malformed base URL. */
export function createHttpEmailChannel(opts: HttpEmailChannelOptions): EmailChannel {
  new URL(opts.baseUrl);
  return {
    name: 'http_api',
    idempotent: true,
    async close() {},
    async send(m: OutgoingEmail, o: SendOptions): Promise<Outcome> {
      const payload = JSON.stringify({
        // One RFC 5322 mailbox: the display name quoted (or RFC 2047-encoded) as a header needs it (domain/sending/mailbox.ts).
        from: formatMailbox(m.from.name, m.from.address),
        to: m.to.address,
        // Resend/Postmark-style Reply-To (issue #13: the organisation's reply-to setting).
        ...(m.replyTo ? { reply_to: m.replyTo } : {}),
        subject: m.subject,
        html: m.html,
        text: m.text,
        headers: { 'Message-ID': m.messageId, ...(m.headers ?? {}), ...identityHeaders(m) },
        // Resend/Postmark-style attachment list (base64 content).
        ...(m.calendar
          ? { attachments: [{ filename: m.calendar.filename, content: Buffer.from(m.calendar.content, 'utf8').toString('base64'), content_type: `text/calendar; charset=utf-8; method=${m.calendar.method}` }] }
          : {}),
      });
      try {
        const res = await request(opts, 'POST', 'emails', payload, { 'idempotency-key': o.idempotencyKey }, o.signal);
        const retryAfter = res.headers['retry-after'];
        const c = classifyHttp({ kind: 'response', status: res.status, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter }, new Date());
        const code = `HTTP_${res.status}`;
        const message = res.body.slice(0, 500);
        switch (c.class) {
          case 'accepted':
            return { class: 'accepted', providerId: parseId(res.body) ?? o.idempotencyKey, response: message };
          case 'rate_limited':
            return { class: 'rate_limited', code, message, retryAfterMs: c.retryAfterMs };
          case 'rejected': {
            // A 422 naming the recipient is a bad address, not a bad request.
            const kind = c.kind === 'validation' && /invalid_recipient|recipient/i.test(res.body) ? 'invalid_recipient' : c.kind;
            return { class: 'rejected', kind, code, message };
          }
          default:
            return { class: c.class, code, message };
        }
      } catch (e) {
        const err = e as RequestFailure;
        const aborted = err.name === 'AbortError' || o.signal?.aborted;
        const code = aborted ? 'ETIMEDOUT' : (err.code ?? 'ERROR');
        const c = classifyHttp({ kind: 'network', code, requestWritten: err.requestWritten }, new Date());
        return { class: c.class as 'transient' | 'ambiguous', code, message: err.message };
      }
    },
    async lookup(idempotencyKey: string, signal?: AbortSignal): Promise<LookupResult> {
      try {
        const res = await request(opts, 'GET', `emails?idempotency_key=${encodeURIComponent(idempotencyKey)}`, null, {}, signal);
        if (res.status === 200) return { found: true, providerId: parseId(res.body) ?? idempotencyKey };
        if (res.status === 404) return { found: false };
        return { error: `HTTP_${res.status}` };
      } catch (e) {
        return { error: (e as Error).message };
      }
    },
  };
}
