/**
 * A fault-injecting HTTP email API for tests, on 127.0.0.1, in the style of Resend/Postmark:
 *   POST /emails   JSON body, `Authorization: Bearer <key>`, `Idempotency-Key: <key>` → 200 { id }
 *   GET  /emails?idempotency_key=<key> → 200 { id, … } or 404 — looks a message up by its key
 * A repeated Idempotency-Key returns the first message's id and stores nothing new (the provider-side
 * deduplication that makes retrying an ambiguous call safe).
 *
 * Each POST takes the next scripted behaviour (the last one repeats):
 *   accept            store, 200
 *   accept-then-drop  store, then destroy the socket without answering (the sender sees a reset)
 *   delay:<s>         store, answer 200 after <s> seconds (a client with a shorter timeout gives up)
 *   429:<s>           429 with `Retry-After: <s>`, nothing stored
 *   500               500, nothing stored
 *   401 | 422         that status, nothing stored
 *   reject-recipient  422 `{ name: 'invalid_recipient' }`, nothing stored
 * Optional `ratePerMinute`: beyond it in any rolling minute, 429 with Retry-After 60 regardless of script.
 * `invalidRecipients`: addresses always answered with reject-recipient.
 */
import http from 'node:http';
import { randomUUID } from 'node:crypto';

type HttpPeerBehaviour = 'accept' | 'accept-then-drop' | `delay:${number}` | `429:${number}` | '500' | '401' | '422' | 'reject-recipient';

interface StoredMessage {
  id: string;
  idempotencyKey: string | null;
  /** The X-Punctual-Message-Key header the sender put on the message. */
  messageKey: string | null;
  to: string;
  subject: string;
  /** The body's `from` and `reply_to` as sent (issue #13: the organisation's sender name and reply-to). */
  from: string | null;
  replyTo: string | null;
  receivedAt: Date;
}

export interface HttpPeer {
  url: string;
  apiKey: string;
  /** Messages the provider accepted (one per idempotency key). */
  messages: StoredMessage[];
  /** Every POST the peer saw, including duplicates and refused ones. */
  requests: { at: Date; idempotencyKey: string | null; status: number | 'dropped' }[];
  script(...b: HttpPeerBehaviour[]): void;
  close(): Promise<void>;
}

export async function startHttpPeer(
  opts: {
    script?: HttpPeerBehaviour[];
    ratePerMinute?: number;
    invalidRecipients?: string[];
    apiKey?: string;
    now?: () => number;
    /** Random faults (probabilities per request, chaos runs): stored-then-dropped, 500, 429 Retry-After 1. */
    chaos?: { drop: number; serverError: number; rateLimited: number; random?: () => number };
  } = {},
): Promise<HttpPeer & { setApiKey(k: string): void }> {
  const clockNow = opts.now ?? (() => Date.now());
  let queue: HttpPeerBehaviour[] = [...(opts.script ?? ['accept'])];
  const next = () => (queue.length > 1 ? queue.shift()! : queue[0]);
  let apiKey = opts.apiKey ?? 'test-key';
  const messages: StoredMessage[] = [];
  const byKey = new Map<string, StoredMessage>();
  const requests: HttpPeer['requests'] = [];
  const recent: number[] = [];
  const invalid = new Set((opts.invalidRecipients ?? []).map((a) => a.toLowerCase()));

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      req.resume();
      return json(401, { name: 'unauthorized', message: 'invalid API key' });
    }
    if (req.method === 'GET' && url.pathname === '/emails') {
      const m = byKey.get(url.searchParams.get('idempotency_key') ?? '');
      return m ? json(200, m) : json(404, { name: 'not_found' });
    }
    if (req.method !== 'POST' || url.pathname !== '/emails') return json(404, { name: 'not_found' });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
      let body: { to?: string; subject?: string; from?: string; reply_to?: string; headers?: Record<string, string> };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        requests.push({ at: new Date(), idempotencyKey: key, status: 400 });
        return json(400, { name: 'validation_error', message: 'body is not JSON' });
      }
      const now = clockNow();
      while (recent.length && recent[0] <= now - 60_000) recent.shift();
      if (opts.ratePerMinute !== undefined && recent.length >= opts.ratePerMinute) {
        requests.push({ at: new Date(), idempotencyKey: key, status: 429 });
        return json(429, { name: 'rate_limit_exceeded' }, { 'retry-after': '60' });
      }
      recent.push(now);
      const existing = key ? byKey.get(key) : undefined;
      if (existing) {
        requests.push({ at: new Date(), idempotencyKey: key, status: 200 });
        return json(200, { id: existing.id });
      }
      const chaosDraw = opts.chaos ? (opts.chaos.random ?? Math.random)() : 1;
      const chaotic: HttpPeerBehaviour | null = !opts.chaos
        ? null
        : chaosDraw < opts.chaos.drop
          ? 'accept-then-drop'
          : chaosDraw < opts.chaos.drop + opts.chaos.serverError
            ? '500'
            : chaosDraw < opts.chaos.drop + opts.chaos.serverError + opts.chaos.rateLimited
              ? '429:1'
              : null;
      const b: HttpPeerBehaviour = body.to && invalid.has(body.to.toLowerCase()) ? 'reject-recipient' : (chaotic ?? next());
      const store = () => {
        const m: StoredMessage = {
          id: randomUUID(),
          idempotencyKey: key,
          messageKey: body.headers?.['X-Punctual-Message-Key'] ?? null,
          to: body.to ?? '',
          subject: body.subject ?? '',
          from: body.from ?? null,
          replyTo: body.reply_to ?? null,
          receivedAt: new Date(clockNow()),
        };
        messages.push(m);
        if (key) byKey.set(key, m);
        return m;
      };
      if (b === 'accept') {
        requests.push({ at: new Date(), idempotencyKey: key, status: 200 });
        return json(200, { id: store().id });
      }
      if (b === 'accept-then-drop') {
        store();
        requests.push({ at: new Date(), idempotencyKey: key, status: 'dropped' });
        return req.socket.destroy();
      }
      if (b.startsWith('delay:')) {
        const m = store();
        requests.push({ at: new Date(), idempotencyKey: key, status: 200 });
        await new Promise((r) => setTimeout(r, Number(b.slice(6)) * 1000));
        if (!res.destroyed) json(200, { id: m.id });
        return;
      }
      if (b.startsWith('429:')) {
        requests.push({ at: new Date(), idempotencyKey: key, status: 429 });
        return json(429, { name: 'rate_limit_exceeded' }, { 'retry-after': b.slice(4) });
      }
      if (b === 'reject-recipient') {
        requests.push({ at: new Date(), idempotencyKey: key, status: 422 });
        return json(422, { name: 'invalid_recipient', message: `${body.to} does not exist` });
      }
      const status = Number(b);
      requests.push({ at: new Date(), idempotencyKey: key, status });
      return json(status, { name: status === 401 ? 'unauthorized' : status === 422 ? 'validation_error' : 'internal_error' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    get apiKey() {
      return apiKey;
    },
    setApiKey: (k: string) => {
      apiKey = k;
    },
    messages,
    requests,
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
