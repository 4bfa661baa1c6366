/**
 * The built-in SMS API for the demo (issue #9 §9): a Twilio-compatible Messages API on 127.0.0.1 that `npm start`
 * sends SMS to when no real provider is configured (SMS_API_URL unset). It does not deliver anything: it stores
 * each message it accepts in `caught_messages` (`channel` 'sms'), where `/mailbox` shows it beside the email.
 *
 *   POST /2010-04-01/Accounts/{AccountSid}/Messages.json
 *     Authorization: Basic base64(AccountSid:AuthToken)
 *     Content-Type: application/x-www-form-urlencoded    To, From, Body[, StatusCallback]
 *   → 201 { sid: 'SM' + 32 hex, status: 'queued', to, from, body, num_segments, … }   (Twilio's Message resource)
 *   → errors as Twilio answers them: { code, message, more_info, status }
 *     (https://www.twilio.com/docs/usage/twilios-response, https://www.twilio.com/docs/api/errors):
 *       401 20003  missing or wrong credentials (checked first; `WWW-Authenticate: Basic realm="Twilio API"`)
 *       404 20404  another path, or another account's path
 *       405 20004  a method other than POST on the Messages resource
 *       400 21604 / 21603 / 21602  To / From / Body missing
 *       400 21211  To is not a valid phone number in E.164 (domain/phone.ts `parsePhone`, and already in E.164
 *                  form: "+31612345678", not "06 12345678")
 *       400 21212  From is neither an E.164 number nor an alphanumeric sender id (1–11 letters, digits and
 *                  spaces, at least one letter)
 *       400 21617  Body longer than 1600 characters (Twilio's limit for one message, all segments)
 *       413        a request body over 64 KiB (nothing parsed)
 *       500 20500  the message could not be stored (nothing was accepted)
 *
 * The message is stored BEFORE the 201 is written, so "accepted by the API" implies "in the table". Stored as:
 * envelope_from = From, envelope_to = [To], text = Body, subject = null, html = null, headers = the form fields
 * (an object of field name → value), raw = the form body as received, message_id = the sid, tenant_id = the client's `X-Punctual-Tenant` request
 * header (domain/sending/caught-identity.ts; what /mailbox lists a tenant's SMS by — never the From).
 *
 * Like Twilio it has no idempotency key: two POSTs of the same message store two messages.
 *
 * Delivery reports (issue #10): when the message names a `StatusCallback` URL, the catcher plays the carrier and
 * POSTs a `delivered` status callback there a moment later ({@link SmsCatcherOptions.statusCallbackDelayMs}), as
 * Twilio does: a form body (MessageSid, SmsSid, MessageStatus, SmsStatus, AccountSid, From, To, ApiVersion) signed
 * with `X-Twilio-Signature` over the callback URL with this catcher's Auth Token (domain/reports/twilio-signature.ts). So
 * the demo shows its SMS `delivered`. A callback that cannot be delivered — a network error (the web app is not up
 * yet: `npm start` starts this catcher first) or a 5xx answer — is retried with exponential backoff, 1 s, 2 s, 4 s, …
 * until ~15 minutes after the first try ({@link SmsCatcherOptions.statusCallbackRetry}), as a provider retries a
 * webhook (a wait never longer than 32 s: tries at about 0, 1, 3, 7, 15, 31, 63, 95 s, then every 32 s); any other answer (2xx, or a 4xx refusal: retrying would not change it) ends it. The first failure and
 * the end (delivered after retries, or given up) are logged.
 */
import http from 'node:http';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '@/db/client';
import { caughtMessages } from '@/db/schema';
import { TENANT_HEADER, declaredTenant } from '@/domain/sending/caught-identity';
import { parsePhone } from '@/domain/phone';
import { countSmsSegments } from '@/domain/sending/sms-segments';
import { twilioSignature } from '@/domain/reports/twilio-signature';

interface SmsCatcherOptions {
  db: Db;
  /** 0 (default) = any free port. */
  port?: number;
  /** The Account SID clients must use (path segment and Basic auth user). Default: 'AC' + 32 random hex. */
  accountSid?: string;
  /** The Auth Token clients must use (Basic auth password). Default: 32 random hex. */
  authToken?: string;
  /** How long after accepting a message with a StatusCallback its `delivered` callback is POSTed, ms (default 1500). */
  statusCallbackDelayMs?: number;
  /**
   * Retrying a callback that got a network error or a 5xx (module doc): the first wait, ms (default 1000), doubled
   * after each try up to `maxDelayMs` (default 32 000); no new try starts later than `giveUpAfterMs` after the first
   * one (default 900 000: a first `npm start` builds the web app for minutes while the worker already sends).
   */
  statusCallbackRetry?: { firstDelayMs?: number; maxDelayMs?: number; giveUpAfterMs?: number };
}

export interface SmsCatcher {
  port: number;
  /** API origin for `createSmsChannel({ baseUrl })` / SMS_API_URL, e.g. http://127.0.0.1:54321 */
  url: string;
  accountSid: string;
  authToken: string;
  close(): Promise<void>;
}

/** Twilio's longest message body, in characters (all segments together). */
const maxSmsBodyChars = 1600;
const maxRequestBytes = 64 * 1024;

const twilioMessages: Record<number, string> = {
  20003: 'Authenticate',
  20004: 'Method not allowed',
  20404: 'The requested resource was not found',
  20500: 'Internal Server Error',
  21211: "The 'To' number is not a valid phone number.",
  21212: "The 'From' number is not a valid phone number, shortcode, or alphanumeric sender ID.",
  21602: 'Message body is required.',
  21603: "A 'From' phone number is required.",
  21604: "A 'To' phone number is required.",
  21617: 'The concatenated message body exceeds the 1600 character limit.',
};

/** Twilio's date format, RFC 2822 in UTC: "Wed, 01 Sep 2027 07:00:00 +0000". */
const twilioDate = (d: Date) => d.toUTCString().replace('GMT', '+0000');

/** Whether `s` is an E.164 number exactly as Twilio expects it ("+" and digits, valid in its country's plan). */
function isE164(s: string): { ok: true } | { ok: false; message: string } {
  const r = parsePhone(s);
  if (!r.ok) return r;
  if (r.e164 !== s) return { ok: false, message: `"${s}" is not written in E.164 form; as E.164 it is ${r.e164}` };
  return { ok: true };
}

/** An alphanumeric sender id: 1–11 characters of A–Z, a–z, 0–9 and space, at least one letter (Twilio's rule). */
function isAlphanumericSender(s: string): boolean {
  return /^[A-Za-z0-9 ]{1,11}$/.test(s) && /[A-Za-z]/.test(s);
}

/** Constant-time comparison of two strings of any length (hashes first, so lengths do not leak). */
function sameSecret(a: string, b: string): boolean {
  const h = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(a), h(b));
}

/**
 * Starts the SMS API (module doc) on 127.0.0.1.
 * @throws when the port is taken.
 */
export async function startSmsCatcher(opts: SmsCatcherOptions): Promise<SmsCatcher> {
  const accountSid = opts.accountSid ?? `AC${randomBytes(16).toString('hex')}`;
  const authToken = opts.authToken ?? randomBytes(16).toString('hex');
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  const timers = new Set<NodeJS.Timeout>();
  /** Aborts callbacks in flight when the catcher closes. */
  const closing = new AbortController();
  const firstRetryMs = opts.statusCallbackRetry?.firstDelayMs ?? 1000;
  const maxRetryMs = opts.statusCallbackRetry?.maxDelayMs ?? 32_000;
  const giveUpAfterMs = opts.statusCallbackRetry?.giveUpAfterMs ?? 900_000;

  /** Runs `f` after `ms` unless the catcher closes first. */
  const later = (ms: number, f: () => Promise<void>) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closing.signal.aborted) void f();
    }, ms);
    timers.add(timer);
  };

  /**
   * POSTs one signed callback; on a network error or a 5xx tries again after `wait` ms (doubling, at most
   * `maxRetryMs`) while the next
   * try would start within `giveUpAfterMs` of the first (module doc).
   */
  const postCallback = async (callbackUrl: string, params: Record<string, string>, firstAt: number, tries: number, wait: number): Promise<void> => {
    let failure: string;
    try {
      const res = await fetch(callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(authToken, callbackUrl, params) },
        body: new URLSearchParams(params).toString(),
        signal: AbortSignal.any([AbortSignal.timeout(10_000), closing.signal]),
      });
      const text = await res.text();
      if (res.status < 500) {
        if (res.status >= 300) console.warn(`[sms-catcher] status callback for ${params.MessageSid} answered ${res.status}: ${text.slice(0, 200)}`);
        else if (tries > 1) console.info(`[sms-catcher] status callback for ${params.MessageSid} delivered on try ${tries}`);
        return;
      }
      failure = `answered ${res.status}: ${text.slice(0, 200)}`;
    } catch (e) {
      if (closing.signal.aborted) return;
      failure = `failed: ${(e as Error).message}`;
    }
    if (Date.now() + wait - firstAt > giveUpAfterMs) {
      console.warn(`[sms-catcher] status callback for ${params.MessageSid} to ${callbackUrl} ${failure}; gave up after ${tries} tries`);
      return;
    }
    if (tries === 1) console.warn(`[sms-catcher] status callback for ${params.MessageSid} to ${callbackUrl} ${failure}; retrying (first in ${wait} ms, backing off)`);
    later(wait, () => postCallback(callbackUrl, params, firstAt, tries + 1, Math.min(wait * 2, maxRetryMs)));
  };

  /** The carrier's `delivered` report, POSTed to the message's StatusCallback (module doc). */
  const scheduleDelivered = (callbackUrl: string, m: { MessageSid: string; From: string; To: string }) => {
    later(opts.statusCallbackDelayMs ?? 1500, async () => {
      const params: Record<string, string> = {
        AccountSid: accountSid,
        ApiVersion: '2010-04-01',
        From: m.From,
        MessageSid: m.MessageSid,
        MessageStatus: 'delivered',
        SmsSid: m.MessageSid,
        SmsStatus: 'delivered',
        To: m.To,
      };
      await postCallback(callbackUrl, params, Date.now(), 1, firstRetryMs);
    });
  };

  const server = http.createServer((req, res) => {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, code: number, message = twilioMessages[code] ?? 'Error', headers: Record<string, string> = {}) =>
      json(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, headers);

    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxRequestBytes) tooLarge = true;
      else chunks.push(c);
    });
    req.on('error', () => res.destroy());
    req.on('end', async () => {
      const path = new URL(req.url ?? '/', 'http://catcher').pathname;
      const m = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path);
      if (!m) return error(404, 20404);
      const auth = req.headers.authorization ?? '';
      if (!sameSecret(auth, expectedAuth)) return error(401, 20003, undefined, { 'www-authenticate': 'Basic realm="Twilio API"' });
      if (decodeURIComponent(m[1]) !== accountSid) return error(404, 20404);
      if (req.method !== 'POST') return error(405, 20004, undefined, { allow: 'POST' });
      if (tooLarge) return json(413, { message: `request body over ${maxRequestBytes} bytes`, status: 413 });

      const raw = Buffer.concat(chunks).toString('utf8');
      const form = Object.fromEntries(new URLSearchParams(raw));
      if (!form.To) return error(400, 21604);
      if (!form.From) return error(400, 21603);
      if (!form.Body) return error(400, 21602);
      const to = isE164(form.To);
      if (!to.ok) return error(400, 21211, `The 'To' number ${form.To} is not a valid phone number (${to.message}).`);
      if (!isE164(form.From).ok && !isAlphanumericSender(form.From)) return error(400, 21212);
      if ([...form.Body].length > maxSmsBodyChars) return error(400, 21617);

      const sid = `SM${randomBytes(16).toString('hex')}`;
      let receivedAt: Date;
      try {
        const [row] = await opts.db
          .insert(caughtMessages)
          .values({
            channel: 'sms',
            // Who sent it: the app's X-Punctual-Tenant request header (domain/sending/caught-identity.ts), never the From.
            tenantId: declaredTenant(req.headersDistinct[TENANT_HEADER.toLowerCase()]),
            envelopeFrom: form.From,
            envelopeTo: [form.To],
            messageId: sid,
            subject: null,
            headers: form,
            html: null,
            text: form.Body,
            raw,
          })
          .returning({ receivedAt: caughtMessages.receivedAt });
        receivedAt = row.receivedAt;
      } catch (e) {
        console.error('[sms-catcher]', e);
        return error(500, 20500);
      }
      if (form.StatusCallback) scheduleDelivered(form.StatusCallback, { MessageSid: sid, From: form.From, To: form.To });
      const date = twilioDate(receivedAt);
      json(201, {
        account_sid: accountSid,
        api_version: '2010-04-01',
        body: form.Body,
        date_created: date,
        date_sent: null,
        date_updated: date,
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from: form.From,
        messaging_service_sid: null,
        num_media: '0',
        num_segments: String(countSmsSegments(form.Body).segments),
        price: null,
        price_unit: 'USD',
        sid,
        status: 'queued',
        subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
        to: form.To,
        uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  server.on('error', (e) => console.error('[sms-catcher]', e));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    close: () =>
      new Promise((r) => {
        closing.abort();
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
