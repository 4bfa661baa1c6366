/**
 * SMS channel for a Twilio-compatible Messages API (issue #9 §4):
 *   POST {baseUrl}/2010-04-01/Accounts/{accountSid}/Messages.json
 *   Authorization: Basic base64(accountSid:authToken)
 *   Content-Type: application/x-www-form-urlencoded   To, From, Body[, StatusCallback]
 *   → 201 { sid: 'SM…', status: 'queued', … } | 4xx/5xx { code, message, more_info, status }
 * (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource).
 *
 * The answer is classified by domain/sending/sms-outcome.ts. Without an answer, what matters is whether the request
 * reached the wire (node:http, as channels/http-email.ts, to know it): a failure before the connection was
 * established (and, for https, secured) — connection refused, DNS, TLS handshake — is `transient`, nothing
 * was sent; a reset or timeout after it is `ambiguous`: Twilio has no idempotency key, so the message may or
 * may not exist, and it becomes `unknown` for a person to decide (invariant 6).
 *
 * Each send opens a fresh connection (no keep-alive pool): a pooled socket the server already closed would
 * fail *after* the request was written and turn a harmless reconnect into an `ambiguous` outcome.
 */
import http from 'node:http';
import https from 'node:https';
import { classifySmsResponse } from '@/domain/sending/sms-outcome';
import type { OutgoingSms, Outcome, SendOptions, SmsChannel } from './types';
import { identityHeaders } from '@/domain/sending/caught-identity';

interface SmsChannelOptions {
  /** The API origin, e.g. https://api.twilio.com (a path prefix is kept). */
  baseUrl: string;
  /** Twilio Account SID (`AC…`): the path segment and the Basic auth user. */
  accountSid: string;
  /** Twilio Auth Token: the Basic auth password. */
  authToken: string;
  /** Deadline for the whole request, connect to last byte, ms (default 10 000). */
  timeoutMs?: number;
}

interface RawResponse {
  status: number;
  retryAfter: string | null;
  body: string;
}

type RequestFailure = Error & { code?: string; requestWritten: boolean };

/** The Messages resource URL for an account. */
function messagesUrl(baseUrl: string, accountSid: string): URL {
  return new URL(`2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
}

function post(opts: SmsChannelOptions, url: URL, form: string, extraHeaders: Record<string, string>, signal?: AbortSignal): Promise<RawResponse> {
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let written = false;
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
    };
    const fail = (e: Error & { code?: string }) => settle(() => reject(Object.assign(e, { requestWritten: written }) as RequestFailure));
    const req = lib.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
          'content-length': String(Buffer.byteLength(form)),
          ...extraHeaders,
        },
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ra = res.headers['retry-after'];
          settle(() => resolve({ status: res.statusCode ?? 0, retryAfter: (Array.isArray(ra) ? ra[0] : ra) ?? null, body: Buffer.concat(chunks).toString('utf8') }));
        });
        res.on('error', (e) => fail(e));
        res.on('close', () => {
          if (!res.complete) fail(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' }));
        });
      },
    );
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error(`no complete answer within ${opts.timeoutMs ?? 10_000} ms`), { code: 'ETIMEDOUT' })),
      opts.timeoutMs ?? 10_000,
    );
    req.on('socket', (s) => {
      // The body is handed to the socket once it is connected (and secured, for https): from then on the
      // provider may act on it. Sockets are never pooled, so each one is fresh here.
      if (url.protocol === 'https:') s.once('secureConnect', () => (written = true));
      else if (s.connecting) s.once('connect', () => (written = true));
      else written = true;
    });
    req.on('error', (e) => fail(e as Error & { code?: string }));
    req.end(form);
  });
}

/** Parses a body as JSON; null when it is empty or not JSON. */
function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * Creates the SMS channel (`name` 'sms_api', `idempotent` false). `send` never throws for a provider or network
 * failure: it returns the classified Outcome (module doc). `close` has nothing to release (no pooled sockets).
 * @throws TypeError for a malformed `baseUrl` (at creation).
 */
export function createSmsChannel(opts: SmsChannelOptions): SmsChannel {
  const url = messagesUrl(opts.baseUrl, opts.accountSid);
  return {
    name: 'sms_api',
    idempotent: false,
    async close() {},
    async send(m: OutgoingSms, o: SendOptions): Promise<Outcome> {
      const form = new URLSearchParams({ To: m.to, From: m.from, Body: m.body });
      if (m.statusCallbackUrl) form.set('StatusCallback', m.statusCallbackUrl);
      try {
        const res = await post(opts, url, form.toString(), identityHeaders(m), o.signal);
        const body = parseJson(res.body);
        return classifySmsResponse({ status: res.status, body, retryAfter: res.retryAfter, bodyText: res.body }, new Date());
      } catch (e) {
        const err = e as RequestFailure;
        const aborted = err.name === 'AbortError' || o.signal?.aborted === true;
        const code = aborted ? 'ABORTED' : (err.code ?? 'ERROR');
        if (!err.requestWritten) return { class: 'transient', code, message: `${err.message} (before the request was sent: nothing was sent)` };
        return { class: 'ambiguous', code, message: `${err.message} (after the request was sent: the message may or may not have been created)` };
      }
    },
  };
}
