/**
 * Outcome classification for a Twilio-compatible Messages API answer (`POST /2010-04-01/Accounts/{sid}/
 * Messages.json`, issue #9 §4). Pure: the answer and `now` (for an HTTP-date Retry-After) in, an `Outcome` out.
 *
 * Twilio's Messages API has no idempotency key, so the one question that matters is "can a message have been
 * created?". This function only ever sees an *answer*; the adapter (channels/sms.ts) decides the no-answer
 * cases: a connection that failed before the request was written is `transient`, one lost after it (reset,
 * timeout) is `ambiguous` → `unknown`, and a person decides (invariant 6).
 *
 * Rules, first match wins:
 *   2xx with a `sid`                           → accepted (providerId = sid)
 *   2xx without a `sid`                        → ambiguous: a message may exist that we cannot name
 *   5xx                                        → transient (see below)
 *   429, or Twilio code 20429                  → rate_limited, Retry-After (seconds or HTTP-date) → ms
 *   a Twilio code in {@link twilioErrorRules}   → that row (21211/21614/21635 invalid number, 21610 unsubscribed,
 *                                                20003 auth, 21212/21606/21603/21408/21608 sender/account, …)
 *   401, 403                                   → rejected(permission): credentials or account
 *   404                                        → rejected(permission): the account path or base URL is wrong
 *   408                                        → transient: the server timed the request out before acting
 *   400, 413, 422 (code not in the table)      → rejected(validation), with Twilio's code and message
 *   any other status                           → rejected(other), with Twilio's code and message
 *
 * 5xx: issue #9 §4 says "429/5xx → retry". We read a 5xx *answer* as "the API answered and did not create the
 * message": Twilio answers a created message with 201 and its sid, and an error body carries no sid. This is
 * an assumption about the provider, not a guarantee Twilio documents (it offers no idempotency key to make a
 * retry provably safe); if a Twilio-compatible provider is found to create messages behind a 5xx, this row
 * must become `ambiguous`. Contrast domain/sending/http-outcome.ts, whose provider deduplicates, so a 5xx there is
 * safely `ambiguous` and retried under the same key.
 *
 * `code` is Twilio's error code as a string ("21211") when the body has one, else `HTTP_<status>`; `message`
 * is Twilio's message (else a description); `response` is the status and body text, truncated to 500 chars.
 * Sources: https://www.twilio.com/docs/api/errors (one page per code) and
 * https://www.twilio.com/docs/usage/twilios-response (error body `{ code, message, more_info, status }`).
 */
import { parseRetryAfter } from './http-outcome';
import type { Outcome, RejectKind } from './outcome';
import type { SuppressionReason } from '@/domain/vocabulary';

/** One Messages API answer as the adapter received it. */
export interface SmsApiResponse {
  /** HTTP status code. */
  status: number;
  /** The body parsed as JSON, or null when it was empty or not JSON. */
  body: unknown;
  /** The Retry-After header, verbatim (delay-seconds or HTTP-date), or null. */
  retryAfter: string | null;
  /** The body as received, for `response` when it was not JSON (a gateway's HTML page); optional. */
  bodyText?: string;
}

/** One row of {@link twilioErrorRules}: `why` cites Twilio's error dictionary. */
interface TwilioErrorRule {
  code: number;
  outcome: { class: 'rejected'; kind: RejectKind; suppressAs?: SuppressionReason } | { class: 'rate_limited' };
  why: string;
}

const invalidNumber = { class: 'rejected', kind: 'invalid_recipient', suppressAs: 'invalid_number' } as const;
const permission = { class: 'rejected', kind: 'permission' } as const;
const validation = { class: 'rejected', kind: 'validation' } as const;

/**
 * Twilio error codes the API answers a create-message request with, and what each means for Punctual:
 * `invalid_recipient` → delivery `failed` and the number suppressed (as `suppressAs`); `permission` → dead
 * letter owned by configuration (credentials, sender number, account); `validation` → dead letter owned by the
 * template (the message itself). Codes not listed fall back to the HTTP status (module doc).
 */
export const twilioErrorRules: readonly TwilioErrorRule[] = [
  { code: 21211, outcome: invalidNumber, why: "Twilio 21211: Invalid 'To' Phone Number — cannot exist, or is a short code / alphanumeric id" },
  { code: 21614, outcome: invalidNumber, why: "Twilio 21614: 'To' number is not a valid mobile number (landline or unreachable carrier)" },
  { code: 21635, outcome: invalidNumber, why: "Twilio 21635: 'To' number cannot be a landline" },
  {
    code: 21610,
    outcome: { class: 'rejected', kind: 'invalid_recipient', suppressAs: 'unsubscribed' },
    why: 'Twilio 21610: attempt to send to unsubscribed recipient (replied STOP); carriers require the opt-out be honoured',
  },
  { code: 20003, outcome: permission, why: 'Twilio 20003: authentication error — wrong Account SID or Auth Token' },
  { code: 21212, outcome: permission, why: "Twilio 21212: Invalid 'From' Phone Number — the tenant's sender (configuration)" },
  { code: 21606, outcome: permission, why: "Twilio 21606: the 'From' number is not a valid message-capable number for this account" },
  { code: 21603, outcome: permission, why: "Twilio 21603: a 'From' number is required — the tenant's sender (configuration)" },
  { code: 21408, outcome: permission, why: 'Twilio 21408: permission to send an SMS has not been enabled for the region of the To number (account geo permissions)' },
  { code: 21608, outcome: permission, why: "Twilio 21608: the 'To' number is not verified for this (trial) account — the account, not the recipient" },
  { code: 21602, outcome: validation, why: 'Twilio 21602: message body is required' },
  { code: 21617, outcome: validation, why: 'Twilio 21617: the concatenated message body exceeds the 1600 character limit' },
  { code: 20429, outcome: { class: 'rate_limited' }, why: 'Twilio 20429: too many requests' },
];

const rulesByCode = new Map(twilioErrorRules.map((r) => [r.code, r]));

/** Maximum length of `response` (status plus body text). */
export const responseLimit = 500;

function field(body: unknown, name: string): unknown {
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

/** Twilio's error code from an error body (`code` is a number; a numeric string is accepted too). */
function twilioCode(body: unknown): number | null {
  const c = field(body, 'code');
  if (typeof c === 'number' && Number.isInteger(c)) return c;
  if (typeof c === 'string' && /^\d+$/.test(c)) return Number(c);
  return null;
}

/** Classifies one Messages API answer (module doc for the rules). `now` reads an HTTP-date Retry-After. */
export function classifySmsResponse(res: SmsApiResponse, now: Date): Outcome {
  const { status, body } = res;
  const text = res.bodyText ?? (body === null || body === undefined ? '' : JSON.stringify(body));
  const response = (text === '' ? String(status) : `${status} ${text}`).slice(0, responseLimit);
  const tw = twilioCode(body);
  const twMessage = field(body, 'message');
  const code = tw !== null ? String(tw) : `HTTP_${status}`;
  const message = (what: string) => (typeof twMessage === 'string' && twMessage !== '' ? twMessage : what);

  if (status >= 200 && status < 300) {
    const sid = field(body, 'sid');
    if (typeof sid === 'string' && sid !== '') return { class: 'accepted', providerId: sid, response };
    return { class: 'ambiguous', code, message: `HTTP ${status} without a message sid: a message may have been created`, response };
  }
  if (status >= 500 && status < 600) {
    return { class: 'transient', code, message: message(`HTTP ${status}: the provider answered with a server error`), response };
  }
  const rule = tw !== null ? rulesByCode.get(tw) : undefined;
  if (status === 429 || rule?.outcome.class === 'rate_limited') {
    return { class: 'rate_limited', code, message: message('too many requests'), retryAfterMs: parseRetryAfter(res.retryAfter, now), response };
  }
  if (rule && rule.outcome.class === 'rejected') {
    const { kind, suppressAs } = rule.outcome;
    return { class: 'rejected', kind, code, message: message(rule.why), response, ...(suppressAs ? { suppressAs } : {}) };
  }
  if (status === 401 || status === 403) return { class: 'rejected', kind: 'permission', code, message: message(`HTTP ${status}: not authorised`), response };
  if (status === 404) return { class: 'rejected', kind: 'permission', code, message: message('HTTP 404: no such account or resource (check the base URL and Account SID)'), response };
  if (status === 408) return { class: 'transient', code, message: message('HTTP 408: the provider timed the request out'), response };
  if (status === 400 || status === 413 || status === 422) return { class: 'rejected', kind: 'validation', code, message: message(`HTTP ${status}: request refused`), response };
  return { class: 'rejected', kind: 'other', code, message: message(`unexpected HTTP ${status}`), response };
}
