/**
 * TOTP codes are accepted once per account and time step (RFC 6238 §5.2: "the verifier MUST NOT accept the second
 * attempt of the same OTP after the successful validation has been issued for the first OTP"). better-auth 1.7.25's
 * `twoFactor` plugin compares a code with the steps one before, at and one after the current one (its
 * `@better-auth/utils/otp` verify, window 1, 30-second period) and remembers nothing; server/accounts/auth-plugin.ts finds
 * which step a submitted code belongs to (these functions) and claims that step for the account before better-auth
 * compares it (db/queries/accounts/two-factor.ts). Pure: the caller passes the instant and the codes it computed.
 */

/** Seconds per TOTP time step (X in RFC 6238 §4.1; better-auth's default, and what authenticator apps assume). */
export const TOTP_PERIOD_SECONDS = 30;
/** Steps either side of the current one a code may belong to (better-auth's verify window). */
const TOTP_WINDOW = 1;

/** The RFC 6238 time step T = floor(unix seconds / X) of the instant `nowMs` (epoch milliseconds). */
export function totpStepAt(nowMs: number, periodSeconds = TOTP_PERIOD_SECONDS): number {
  return Math.floor(nowMs / (periodSeconds * 1000));
}

/** The steps better-auth accepts a code for at `nowMs`, oldest first: [T-1, T, T+1] for window 1. */
export function totpCandidateSteps(nowMs: number, periodSeconds = TOTP_PERIOD_SECONDS, window = TOTP_WINDOW): number[] {
  const t = totpStepAt(nowMs, periodSeconds);
  const steps: number[] = [];
  for (let i = -window; i <= window; i++) steps.push(t + i);
  return steps;
}

/**
 * The step the submitted `code` belongs to among `candidates` (each step with the account's code for it), or null
 * when it matches none (a wrong code: nothing is claimed). Every candidate is compared in full (no early exit, no
 * length shortcut), so the time taken does not tell which step matched. When two steps happen to share a code
 * (one chance in a million) the later step is taken, so the code cannot be accepted again for the later step.
 */
export function matchedTotpStep(code: string, candidates: readonly { step: number; code: string }[]): number | null {
  let matched: number | null = null;
  for (const c of candidates) {
    let diff = code.length ^ c.code.length;
    for (let i = 0; i < c.code.length; i++) diff |= code.charCodeAt(i) ^ c.code.charCodeAt(i);
    if (diff === 0 && (matched === null || c.step > matched)) matched = c.step;
  }
  return matched;
}
