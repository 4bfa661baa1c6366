/**
 * A fault-injecting Twilio-compatible Messages API for tests, on 127.0.0.1 (port chosen by the OS):
 *   POST /2010-04-01/Accounts/{AccountSid}/Messages.json
 *     Basic auth AccountSid:AuthToken, form body To, From, Body[, StatusCallback]
 *     → 201 { sid: 'SM' + 32 hex, status: 'queued', to, from, body, … } (Twilio's Message resource)
 *     errors → { code, message, more_info, status } (https://www.twilio.com/docs/usage/twilios-response)
 * Wrong or missing credentials → 401 code 20003 (before any script step); an authenticated request to another
 * account's path → 404 code 20404; a missing To / From / Body → 400 code 21604 / 21603 / 21602.
 *
 * Each authenticated, well-formed POST takes the next scripted behaviour (the last one repeats):
 *   accept            store, 201
 *   accept-then-drop  store, then destroy the socket without answering (the sender sees a reset)
 *   delay:<s>         store, answer 201 after <s> seconds (a client with a shorter timeout gives up)
 *   429:<s>           429 code 20429 with `Retry-After: <s>`, nothing stored
 *   500 | 503         that status, code 20500 | 20503, nothing stored
 *   invalid-number    400 code 21211, nothing stored
 *   unsubscribed      400 code 21610, nothing stored
 *   auth              401 code 20003, nothing stored
 * `invalidNumbers`: To numbers always answered 400 code 21211, whatever the script.
 * Twilio has no idempotency key: two POSTs of the same message store two messages (as the real API does).
 *
 * Status callbacks (issue #10): `statusCallback(sid, status, extra)` makes the peer POST a Twilio status callback
 * for one of its messages to that message's StatusCallback URL, as Twilio does: a form body (MessageSid, SmsSid,
 * MessageStatus, SmsStatus, AccountSid, From, To, ApiVersion, plus `extra`: ErrorCode, PartIndex/NumSegments …)
 * signed with `X-Twilio-Signature` over that URL with the peer's Auth Token (domain/reports/twilio-signature.ts).
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { countSmsSegments } from '@/domain/sending/sms-segments';
import { twilioSignature } from '@/domain/reports/twilio-signature';

type SmsPeerBehaviour =
  | 'accept'
  | 'accept-then-drop'
  | `delay:${number}`
  | `429:${number}`
  | '500'
  | '503'
  | 'invalid-number'
  | 'unsubscribed'
  | 'auth';

/** A message the fake provider created. There is no message key: SMS carries none (see channels/types.ts). */
interface StoredSms {
  sid: string;
  from: string;
  to: string;
  body: string;
  statusCallback: string | null;
  receivedAt: Date;
}

/** One POST as the peer saw it, whatever it answered. */
interface SmsPeerRequest {
  at: Date;
  path: string;
  /** The Authorization header verbatim, or null. */
  authorization: string | null;
  contentType: string | null;
  /** The parsed form body (every field, e.g. To, From, Body, StatusCallback). */
  form: Record<string, string>;
  status: number | 'dropped';
}

export interface SmsPeer {
  /** Base URL for createSmsChannel, e.g. http://127.0.0.1:54321 */
  url: string;
  accountSid: string;
  authToken: string;
  /** Messages the provider created, in order. */
  messages: StoredSms[];
  /** Every POST, including refused and dropped ones. */
  requests: SmsPeerRequest[];
  script(...b: SmsPeerBehaviour[]): void;
  /**
   * POSTs a signed status callback for message `sid` to its StatusCallback URL (module doc) and returns the answer.
   * `opts.signWith`: sign with another token (a forged callback); `opts.url`: post there instead; `opts.signature`:
   * send this header value verbatim.
   * @throws when the message is unknown or has no StatusCallback and no `opts.url` is given.
   */
  statusCallback(
    sid: string,
    status: 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed' | (string & {}),
    extra?: Record<string, string>,
    opts?: { signWith?: string; url?: string; signature?: string },
  ): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

const twilioMessages: Record<number, string> = {
  20003: 'Authenticate',
  20404: 'The requested resource was not found',
  20429: 'Too Many Requests',
  20500: 'Internal Server Error',
  20503: 'Service Unavailable',
  21211: "The 'To' number is not a valid phone number.",
  21602: 'Message body is required.',
  21603: "A 'From' phone number is required.",
  21604: "A 'To' phone number is required.",
  21610: 'Attempt to send to unsubscribed recipient',
};

/** Twilio's date format, RFC 2822 in UTC: "Wed, 01 Sep 2027 07:00:00 +0000". */
const twilioDate = (d: Date) => d.toUTCString().replace('GMT', '+0000');

/** Starts the peer. Defaults: accountSid 'AC' + 32 hex, authToken 'test-token', script ['accept']. */
export async function startSmsPeer(
  opts: { script?: SmsPeerBehaviour[]; invalidNumbers?: string[]; accountSid?: string; authToken?: string } = {},
): Promise<SmsPeer> {
  const accountSid = opts.accountSid ?? `AC${'0123456789abcdef'.repeat(2)}`;
  const authToken = opts.authToken ?? 'test-token';
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  let queue: SmsPeerBehaviour[] = [...(opts.script ?? ['accept'])];
  const next = () => (queue.length > 1 ? queue.shift()! : queue[0]);
  const invalid = new Set(opts.invalidNumbers ?? []);
  const messages: StoredSms[] = [];
  const requests: SmsPeerRequest[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const record = (status: number | 'dropped') =>
        requests.push({
          at: new Date(),
          path,
          authorization: req.headers.authorization ?? null,
          contentType: req.headers['content-type'] ?? null,
          form,
          status,
        });
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        record(status);
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(body));
      };
      const error = (status: number, code: number, headers: Record<string, string> = {}) =>
        json(status, { code, message: twilioMessages[code] ?? 'Error', more_info: `https://www.twilio.com/docs/errors/${code}`, status }, headers);

      const m = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path);
      if (req.method !== 'POST' || !m) return error(404, 20404);
      if (req.headers.authorization !== expectedAuth) return error(401, 20003);
      if (decodeURIComponent(m[1]) !== accountSid) return error(404, 20404);
      if (!form.To) return error(400, 21604);
      if (!form.From) return error(400, 21603);
      if (!form.Body) return error(400, 21602);
      if (invalid.has(form.To)) return error(400, 21211);

      const b = next();
      const store = (): StoredSms => {
        const s: StoredSms = {
          sid: `SM${randomBytes(16).toString('hex')}`,
          from: form.From,
          to: form.To,
          body: form.Body,
          statusCallback: form.StatusCallback ?? null,
          receivedAt: new Date(),
        };
        messages.push(s);
        return s;
      };
      const created = (s: StoredSms) => {
        const date = twilioDate(s.receivedAt);
        return {
          account_sid: accountSid,
          api_version: '2010-04-01',
          body: s.body,
          date_created: date,
          date_sent: null,
          date_updated: date,
          direction: 'outbound-api',
          error_code: null,
          error_message: null,
          from: s.from,
          messaging_service_sid: null,
          num_media: '0',
          num_segments: String(countSmsSegments(s.body).segments),
          price: null,
          price_unit: 'USD',
          sid: s.sid,
          status: 'queued',
          subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${s.sid}/Media.json` },
          to: s.to,
          uri: `/2010-04-01/Accounts/${accountSid}/Messages/${s.sid}.json`,
        };
      };

      if (b === 'accept') return json(201, created(store()));
      if (b === 'accept-then-drop') {
        store();
        record('dropped');
        return req.socket.destroy();
      }
      if (b.startsWith('delay:')) {
        const s = store();
        await new Promise((r) => setTimeout(r, Number(b.slice(6)) * 1000));
        if (!res.destroyed && !req.socket.destroyed) json(201, created(s));
        else record('dropped');
        return;
      }
      if (b.startsWith('429:')) return error(429, 20429, { 'retry-after': b.slice(4) });
      if (b === '500') return error(500, 20500);
      if (b === '503') return error(503, 20503);
      if (b === 'invalid-number') return error(400, 21211);
      if (b === 'unsubscribed') return error(400, 21610);
      return error(401, 20003); // 'auth'
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    messages,
    requests,
    script: (...b) => {
      queue = [...b];
    },
    async statusCallback(sid, status, extra = {}, o = {}) {
      const m = messages.find((x) => x.sid === sid);
      const url = o.url ?? m?.statusCallback;
      if (!url) throw new Error(`sms-peer: message ${sid} is unknown or has no StatusCallback`);
      const params: Record<string, string> = {
        AccountSid: accountSid,
        ApiVersion: '2010-04-01',
        From: m?.from ?? '',
        MessageSid: sid,
        MessageStatus: status,
        SmsSid: sid,
        SmsStatus: status,
        To: m?.to ?? '',
        ...extra,
      };
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': o.signature ?? twilioSignature(o.signWith ?? authToken, url, params) },
        body: new URLSearchParams(params).toString(),
      });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, body };
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
