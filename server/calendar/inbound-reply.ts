/**
 * The inbound-parse webhook for calendar replies (app/api/replies/inbound/route.ts): checks the signature and hands
 * the message to server/calendar/replies.ts `ingestReply`.
 *
 * Signature: header `X-Punctual-Signature: sha256=<hex>` — HMAC-SHA-256 (RFC 2104) of the exact body bytes with the
 * secret `PUNCTUAL_INBOUND_REPLY_SECRET`, compared in constant time. Configure the provider's inbound route (or a
 * small relay in front of it) to POST the raw RFC 5322 message (`message/rfc822`, `text/plain` or
 * `application/octet-stream`), or JSON with the raw message in a string member `raw` (Postmark's inbound JSON names it
 * `RawEmail`, also accepted). A replay is harmless: the same message is stored once.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '@/db/client';
import { ingestReply, MAX_REPLY_BYTES, ReplyIngestError } from './replies';

/** Largest body read, bytes: one reply plus JSON escaping. */
export const MAX_INBOUND_REPLY_BODY_BYTES = 2 * MAX_REPLY_BYTES;

/** The signature header value for `body` with `secret` (`sha256=` + lowercase hex). */
export function inboundSignature(body: Uint8Array, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** True when `header` is the signature of `body` with `secret` (constant-time; false for a missing or malformed header). */
export function verifyInboundSignature(body: Uint8Array, header: string | null, secret: string): boolean {
  if (!header || !/^sha256=[0-9a-f]{64}$/i.test(header.trim())) return false;
  const given = Buffer.from(header.trim().slice(7).toLowerCase(), 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** An answer: HTTP status and JSON body. */
export interface InboundAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Handles one inbound request. Answers: 503 no secret configured; 401 missing or bad signature (nothing read
 * further, nothing stored); 415 a content type that is not a message or JSON; 400 naming the field (`raw`) or the
 * problem with the message (not a calendar reply); 200 `{ outcome, reason, duplicate }` for a stored reply (a reply
 * that does not count is still a 200: it was received and stored).
 */
export async function intakeInboundReply(db: Db, req: { body: Uint8Array; headers: Headers; secret: string | undefined; now: Date }): Promise<InboundAnswer> {
  if (!req.secret) return { status: 503, body: { error: 'inbound replies are not configured: set PUNCTUAL_INBOUND_REPLY_SECRET' } };
  if (!verifyInboundSignature(req.body, req.headers.get('x-punctual-signature'), req.secret)) {
    return { status: 401, body: { error: 'x-punctual-signature: missing or not the HMAC-SHA-256 of the body with the configured secret', field: 'x-punctual-signature' } };
  }
  const type = (req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  let raw: Buffer;
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder().decode(req.body));
    } catch {
      return { status: 400, body: { error: 'body: not valid JSON', field: 'body' } };
    }
    const o = (parsed ?? {}) as Record<string, unknown>;
    const text = typeof o.raw === 'string' ? o.raw : typeof o.RawEmail === 'string' ? o.RawEmail : null;
    if (text === null) return { status: 400, body: { error: 'raw: required — the raw message as a string', field: 'raw' } };
    raw = Buffer.from(text, 'utf8');
  } else if (type === 'message/rfc822' || type === 'text/plain' || type === 'application/octet-stream') {
    raw = Buffer.from(req.body);
  } else {
    return { status: 415, body: { error: `content-type: ${type || '(none)'} is not message/rfc822, text/plain, application/octet-stream or application/json`, field: 'content-type' } };
  }
  try {
    const r = await ingestReply(db, raw, { source: 'webhook', now: req.now });
    return { status: 200, body: { id: r.id, outcome: r.outcome, reason: r.reason, duplicate: r.duplicate } };
  } catch (e) {
    if (e instanceof ReplyIngestError) return { status: 400, body: { error: `raw: ${e.message}`, field: 'raw' } };
    throw e;
  }
}
