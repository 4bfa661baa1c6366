/**
 * Outcome classification for an HTTP email API (the style of Resend's and Postmark's: JSON POST with an
 * `Idempotency-Key` header). Pure table, one row per case; `now` is an argument for Retry-After dates.
 *
 *   2xx                                   → accepted (provider id from the response)
 *   429                                   → rate_limited, honouring Retry-After (seconds or HTTP-date, RFC 9110 §10.2.3)
 *   401, 403                              → rejected(permission)
 *   400, 413, 422                         → rejected(validation)
 *   408, 409 (idempotent request in flight), 425 → transient: the provider did not act on this request
 *   other 4xx                             → rejected(other)
 *   connect failure before the request was written (ECONNREFUSED, DNS, TLS handshake) → transient
 *   timeout, reset or 5xx after the request was written → ambiguous (the provider may have acted)
 */
import type { RejectKind } from './outcome';

export type HttpFailure =
  | { kind: 'response'; status: number; retryAfter?: string | null }
  | { kind: 'network'; code: string; requestWritten: boolean };

type HttpClassification =
  | { class: 'accepted' }
  | { class: 'transient' }
  | { class: 'ambiguous' }
  | { class: 'rate_limited'; retryAfterMs: number | null }
  | { class: 'rejected'; kind: RejectKind };

/**
 * Parses a Retry-After header value into milliseconds from `now`: delay-seconds ("120") or an HTTP-date
 * ("Wed, 21 Oct 2026 07:28:00 GMT"). A date in the past gives 0. Anything else gives null.
 */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (value == null) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!/[a-z]/i.test(v)) return null;
  const t = Date.parse(v);
  if (Number.isNaN(t)) return null;
  return Math.max(0, t - now.getTime());
}

/** Classifies an HTTP API call (module table). */
export function classifyHttp(f: HttpFailure, now: Date): HttpClassification {
  if (f.kind === 'network') return f.requestWritten ? { class: 'ambiguous' } : { class: 'transient' };
  const s = f.status;
  if (s >= 200 && s < 300) return { class: 'accepted' };
  if (s === 429) return { class: 'rate_limited', retryAfterMs: parseRetryAfter(f.retryAfter, now) };
  if (s === 401 || s === 403) return { class: 'rejected', kind: 'permission' };
  if (s === 400 || s === 413 || s === 422) return { class: 'rejected', kind: 'validation' };
  if (s === 408 || s === 409 || s === 425) return { class: 'transient' };
  if (s >= 400 && s < 500) return { class: 'rejected', kind: 'other' };
  return { class: 'ambiguous' };
}
