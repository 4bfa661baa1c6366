/**
 * Outcome classification for an outbound webhook (issue #9 §5): what an HTTP answer — or a network failure — from
 * a tenant's webhook receiver means, as the {@link Outcome} every channel adapter returns. Pure: `now` is an
 * argument (for a Retry-After HTTP-date), nothing here reads a clock.
 *
 * Status table (Standard Webhooks spec, "Delivery success and failure"; RFC 9110 for the status meanings):
 *
 *   2xx                 → accepted; providerId = the receiver's `id` if its JSON body has one, else `http-<status>`
 *   410 Gone            → rejected(endpoint_gone): the receiver wants no more webhooks from us; the pipeline
 *                         disables the endpoint and dead-letters (decideAfterOutcome → `dead`, disableEndpoint)
 *   429                 → rate_limited, Retry-After (delay-seconds or HTTP-date relative to `now`) → ms, else null
 *   408, 5xx            → ambiguous: the receiver got the request and may have processed it. A webhook carries
 *                         `webhook-id` (the message key) and receivers deduplicate on it, so the channel is
 *                         idempotent and decideAfterOutcome retries under the same id (invariant 6)
 *   3xx                 → rejected(permission): a webhook endpoint must not redirect (the spec: "update the
 *                         webhook URL instead"); we never follow one. `permission` because the repair is the
 *                         endpoint's configuration (decideAfterOutcome owner `configuration`), not the message
 *   401, 403, 404       → rejected(permission): the endpoint or its secret is misconfigured
 *   other 4xx           → rejected(validation): the receiver refused this message (400, 409, 413, 415, 422, …)
 *   anything else       → ambiguous (1xx as a final answer or a status outside 100–599: a misbehaving receiver
 *                         that did receive the request; the retry under the same id is safe)
 *
 * Every outcome carries `code` `HTTP_<status>` and `response` = `<status> <first 500 characters of the body>`.
 */
import { parseRetryAfter } from './http-outcome';
import type { Outcome } from './outcome';

/** An HTTP answer from a webhook receiver. `retryAfter`/`location`: the raw header values, or null when absent. */
export interface WebhookAnswer {
  status: number;
  bodyText: string;
  retryAfter: string | null;
  /** The `Location` header of a 3xx, quoted in the rejection message (optional). */
  location?: string | null;
}

/** Characters of the receiver's body kept in `response` (the attempt record). */
const webhookResponseChars = 500;

/** `<status> <body, first 500 characters, not splitting a surrogate pair>` (trimmed; just the status for an empty body). */
export function webhookResponseText(status: number, bodyText: string): string {
  let snippet = bodyText.slice(0, webhookResponseChars);
  const last = snippet.charCodeAt(snippet.length - 1);
  if (snippet.length === webhookResponseChars && last >= 0xd800 && last <= 0xdbff) snippet = snippet.slice(0, -1);
  return `${status} ${snippet}`.trim();
}

/**
 * The receiver's own id for an accepted delivery: a JSON object body with a string `id` of 1–200 printable
 * characters (e.g. `{"id":"evt_123"}`). Anything else — empty body, `OK`, `{"id":42}` — gives null, and the
 * caller uses `http-<status>`. Deliberately simple: no nested paths, no other field names.
 */
export function receiverIdFrom(bodyText: string): string | null {
  let v: unknown;
  try {
    v = JSON.parse(bodyText);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const id = (v as { id?: unknown }).id;
  return typeof id === 'string' && id.length > 0 && id.length <= 200 && !/[\u0000-\u001f\u007f]/.test(id) ? id : null;
}

/** Classifies an HTTP answer from a webhook receiver (module table). @param now the instant a Retry-After HTTP-date is measured from. */
export function classifyWebhookResponse(answer: WebhookAnswer, now: Date): Outcome {
  const { status: s } = answer;
  const code = `HTTP_${s}`;
  const response = webhookResponseText(s, answer.bodyText);
  if (s >= 200 && s < 300) return { class: 'accepted', providerId: receiverIdFrom(answer.bodyText) ?? `http-${s}`, response };
  if (s === 410) {
    return {
      class: 'rejected',
      kind: 'endpoint_gone',
      code,
      message: 'the receiver answered 410 Gone: it wants no more webhooks; the endpoint is to be disabled',
      response,
    };
  }
  if (s === 429) {
    const retryAfterMs = parseRetryAfter(answer.retryAfter, now);
    return {
      class: 'rate_limited',
      code,
      message: `the receiver is rate limiting (429${retryAfterMs === null ? ', no usable Retry-After' : `, Retry-After ${retryAfterMs} ms`})`,
      retryAfterMs,
      response,
    };
  }
  if (s === 408 || (s >= 500 && s < 600)) {
    return {
      class: 'ambiguous',
      code,
      message: `the receiver answered ${s} after receiving the request; it may have processed it — retried under the same webhook-id`,
      response,
    };
  }
  if (s >= 300 && s < 400) {
    const to = answer.location ? ` to ${answer.location}` : '';
    return {
      class: 'rejected',
      kind: 'permission',
      code,
      message: `the endpoint answered a redirect (${s}${to}); a webhook endpoint must not redirect and redirects are not followed — update the endpoint URL`,
      response,
    };
  }
  if (s === 401 || s === 403 || s === 404) {
    const what = s === 404 ? 'the endpoint URL was not found' : 'the receiver refused our signature or credentials';
    return { class: 'rejected', kind: 'permission', code, message: `${what} (${s}); check the endpoint URL and its signing secret`, response };
  }
  if (s >= 400 && s < 500) {
    return { class: 'rejected', kind: 'validation', code, message: `the receiver refused this message (${s})`, response };
  }
  return { class: 'ambiguous', code, message: `the receiver answered an unexpected status ${s}; it may have processed the request`, response };
}

/**
 * A failure with no HTTP answer. `requestWritten`: whether the request had reached the receiver's socket
 * (after TCP connect for http, after the TLS handshake for https). Before that (connection refused, DNS, TLS
 * handshake, connect timeout) nothing was delivered → transient; after it (reset, timeout waiting for the
 * answer) the receiver may have processed it → ambiguous, retried under the same webhook-id. Same rule as
 * domain/sending/http-outcome.ts `classifyHttp` for the HTTP email API.
 */
export function classifyWebhookNetworkError(f: { code: string; message: string; requestWritten: boolean }): Outcome {
  if (!f.requestWritten) {
    return { class: 'transient', code: f.code, message: `could not reach the endpoint (${f.message}); nothing was delivered` };
  }
  return {
    class: 'ambiguous',
    code: f.code,
    message: `no answer after the request was sent (${f.message}); the receiver may have processed it — retried under the same webhook-id`,
  };
}
