/**
 * A scriptable webhook receiver for tests, on 127.0.0.1 (port chosen by the OS). It VERIFIES every delivery
 * with the `standardwebhooks` library — `new Webhook(secret).verify(rawBody, headers)`, the check a real
 * receiver runs (signature over `id.timestamp.body`, timestamp within 5 minutes of the host clock) — and
 * answers 401 to one that fails, without consuming the script.
 *
 * Each verified request takes the next scripted behaviour (the last one repeats):
 *   accept            process, 200 `{"ok":true}`
 *   500 | 503         that status, not processed
 *   410               410 Gone (the receiver wants no more), not processed
 *   429:<s>           429 with `Retry-After: <s>`, not processed
 *   accept-then-drop  process, then destroy the socket without answering (the sender sees a reset)
 *   delay:<s>         process, answer 200 after <s> seconds (a sender with a shorter timeout gives up first)
 *
 * `deliveries`: every request, in order, verified or not. `accepted`: the deliveries the receiver processed
 * (verified; answered 2xx — or processed and then lost the answer, accept-then-drop and a delay the sender gave
 * up on), at most one per webhook-id: a real receiver deduplicates on it, so a retry of a delivery it already
 * has adds nothing.
 */
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

type WebhookPeerBehaviour = 'accept' | '500' | '503' | '410' | `429:${number}` | 'accept-then-drop' | `delay:${number}`;

interface WebhookPeerDelivery {
  /** The `webhook-id` header (null when absent). */
  id: string | null;
  /** The `webhook-timestamp` header as an integer (unix seconds), or null. */
  timestamp: number | null;
  verified: boolean;
  /** The body parsed as JSON (null when it is not JSON). */
  payload: unknown;
  /** The raw body as received. */
  body: string;
  /** Request headers as received (lower-case names). */
  headers: http.IncomingHttpHeaders;
  receivedAt: Date;
  /** What the peer answered; `dropped` when it destroyed the socket instead. */
  status: number | 'dropped';
}

export interface WebhookPeer {
  url: string;
  secret: string;
  deliveries: WebhookPeerDelivery[];
  accepted: WebhookPeerDelivery[];
  script(...b: WebhookPeerBehaviour[]): void;
  close(): Promise<void>;
}

/**
 * The library's verifier with the receiver's clock made explicit: `now` (ms) replaces `Date.now()` in the
 * 5-minute timestamp tolerance check (a test whose sender signs on a simulated 2027 clock gives the receiver
 * the same clock). The signature check itself is the library's own.
 */
function clockedWebhook(secret: string, nowMs: () => number): Webhook {
  const w = new Webhook(secret);
  (w as unknown as { verifyTimestamp: (header: string) => Date }).verifyTimestamp = (header: string) => {
    const now = Math.floor(nowMs() / 1000);
    const ts = parseInt(header, 10);
    if (Number.isNaN(ts)) throw new Error('Invalid Signature Headers');
    if (now - ts > 300) throw new Error('Message timestamp too old');
    if (ts > now + 300) throw new Error('Message timestamp too new');
    return new Date(ts * 1000);
  };
  return w;
}

/**
 * Starts the receiver. @param secret the endpoint's `whsec_` secret it verifies with. @param now the receiver's
 * clock (ms since epoch) for the timestamp tolerance; default the host clock.
 */
export async function startWebhookPeer(opts: { secret: string; script?: WebhookPeerBehaviour[]; now?: () => number }): Promise<WebhookPeer> {
  const verifier = opts.now ? clockedWebhook(opts.secret, opts.now) : new Webhook(opts.secret);
  let queue: WebhookPeerBehaviour[] = [...(opts.script ?? ['accept'])];
  const next = () => (queue.length > 1 ? queue.shift()! : queue[0]);
  const deliveries: WebhookPeerDelivery[] = [];
  const accepted: WebhookPeerDelivery[] = [];
  const processDelivery = (d: WebhookPeerDelivery) => {
    if (!accepted.some((a) => a.id === d.id)) accepted.push(d);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      let verified = true;
      try {
        verifier.verify(body, headers);
      } catch {
        verified = false;
      }
      let payload: unknown = null;
      try {
        payload = JSON.parse(body);
      } catch {
        payload = null;
      }
      const ts = Number.parseInt(headers['webhook-timestamp'] ?? '', 10);
      const d: WebhookPeerDelivery = {
        id: headers['webhook-id'] ?? null,
        timestamp: Number.isNaN(ts) ? null : ts,
        verified,
        payload,
        body,
        headers: req.headers,
        receivedAt: new Date(),
        status: 0,
      };
      deliveries.push(d);
      const answer = (status: number, json: unknown, extra: Record<string, string> = {}) => {
        d.status = status;
        res.writeHead(status, { 'content-type': 'application/json', ...extra });
        res.end(JSON.stringify(json));
      };
      if (!verified) return answer(401, { error: 'invalid signature' });
      const b = next();
      if (b === 'accept') {
        processDelivery(d);
        return answer(200, { ok: true });
      }
      if (b === 'accept-then-drop') {
        processDelivery(d);
        d.status = 'dropped';
        return req.socket.destroy();
      }
      if (b.startsWith('delay:')) {
        processDelivery(d);
        d.status = 200;
        await new Promise((r) => setTimeout(r, Number(b.slice(6)) * 1000));
        if (!res.destroyed) answer(200, { ok: true });
        return;
      }
      if (b.startsWith('429:')) return answer(429, { error: 'slow down' }, { 'retry-after': b.slice(4) });
      return answer(Number(b), { error: b === '410' ? 'gone' : 'server error' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hooks/punctual`,
    secret: opts.secret,
    deliveries,
    accepted,
    script: (...b) => {
      queue = [...b];
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
