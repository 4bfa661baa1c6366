/**
 * The provider_auth condition's reading of stored attempts (issue #10 §6: "a provider answering with an
 * authentication/permission error"): which attempt is such a rejection, and which provider is failing now. Pure.
 */
import { enhancedStatusOf } from '@/domain/sending/smtp-outcome';
import type { OutcomeClass, Provider } from '@/domain/vocabulary';

/** A provider whose latest decisive attempt was an authentication/permission rejection. */
export interface ProviderAuthFailure {
  provider: Provider;
  /** When that attempt ended (else started), UTC. */
  at: Date;
  /** The attempt's error code as stored (`535`, `HTTP_401`, `20003`, …) and the provider's words. */
  code: string;
  message: string;
}

/**
 * Is this stored attempt a provider refusing our credentials or permission? (issue #10 §6: "a provider answering
 * with an authentication/permission error".) Reads the attempt as the channels store it (`delivery_attempts`
 * `outcome`, `error_code`, `error_message`, `provider_response`):
 *   - SMTP (channels/smtp.ts stores the reply code): 530 (authentication required), 534, 535 (credentials
 *     invalid), 538 (RFC 4954 §6), nodemailer's `EAUTH`, and any 5xx whose RFC 3463 enhanced code is 5.7.x
 *     (security or policy status, e.g. `550 5.7.1`, `535 5.7.8`);
 *   - HTTP APIs and webhook receivers (code `HTTP_<status>`): 401, 403;
 *   - the SMS API: Twilio 20003 (authentication error), or HTTP 401/403 without a Twilio code.
 * Only `rejected` attempts qualify: a 4xx "try later" is not a credentials problem.
 */
export function isAuthRejection(a: {
  provider: Provider;
  outcome: OutcomeClass | null;
  errorCode: string | null;
  errorMessage?: string | null;
  providerResponse?: string | null;
}): boolean {
  if (a.outcome !== 'rejected') return false;
  const code = (a.errorCode ?? '').trim().toUpperCase();
  if (code === 'HTTP_401' || code === 'HTTP_403') return true;
  if (a.provider === 'sms_api') return code === '20003';
  if (a.provider !== 'smtp') return false;
  if (code === 'EAUTH' || code === '530' || code === '534' || code === '535' || code === '538') return true;
  if (!/^5\d\d$/.test(code)) return false;
  const text = a.providerResponse ?? a.errorMessage ?? undefined;
  const enhanced = enhancedStatusOf(a.providerResponse ?? undefined, Number(code)) ?? enhancedStatusOf(a.errorMessage ?? undefined, Number(code));
  if (!enhanced) return false;
  if (SMTP_AUTH_STATUSES.has(enhanced)) return true;
  // 5.7.1 is usually ONE recipient's policy ("delivery not authorized", a spam refusal): a per-message dead letter,
  // not a provider that refuses us. Only "relay access denied" means our server may not send through it at all.
  return enhanced === '5.7.1' && /relay/i.test(text ?? '');
}

/**
 * Enhanced status codes (RFC 3463, RFC 4954 §6, IANA registry) that mean the SMTP server refuses US, whatever the
 * recipient: 5.7.0 authentication required, 5.7.8 credentials invalid, 5.7.9 mechanism too weak, 5.7.11 encryption
 * required, 5.7.13 account disabled, 5.7.14 trust relationship required.
 */
const SMTP_AUTH_STATUSES: ReadonlySet<string> = new Set(['5.7.0', '5.7.8', '5.7.9', '5.7.11', '5.7.13', '5.7.14']);

/** One attempt of a provider, newest first, as {@link providerAuthFailure} reads it. */
export interface DecisiveAttempt {
  provider: Provider;
  outcome: OutcomeClass | null;
  errorCode: string | null;
  errorMessage: string | null;
  providerResponse: string | null;
  at: Date;
}

/**
 * The auth failure a provider is in, from its recent attempts NEWEST FIRST: the first attempt that is accepted
 * (→ null: the provider takes our credentials) or an auth rejection (→ that failure) decides; attempts that say
 * nothing about credentials (transient, a bad recipient) are skipped. Null when none decides.
 */
export function providerAuthFailure(attemptsNewestFirst: readonly DecisiveAttempt[]): ProviderAuthFailure | null {
  for (const a of attemptsNewestFirst) {
    if (a.outcome === 'accepted') return null;
    if (isAuthRejection(a)) return { provider: a.provider, at: a.at, code: a.errorCode ?? '', message: (a.providerResponse || a.errorMessage || '').slice(0, 300) };
  }
  return null;
}
