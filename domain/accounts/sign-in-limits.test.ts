import { describe, expect, it } from 'vitest';
import { accountKey, checkOutcome, reserveCheck, retryAfterSeconds, settleCheck, SIGN_IN_LIMITS, signInBucketKeys, tooManyAttemptsMessage, waitText, type SignInBucketStates } from './sign-in-limits';

const T0 = Date.UTC(2027, 0, 1, 9);
const full: SignInBucketStates = { client: null, accountClient: null };

describe('the documented numbers', () => {
  it('per client 20, one back a minute; per (account, client) 10, one back every 3 minutes', () => {
    expect(SIGN_IN_LIMITS).toEqual({ client: { capacity: 20, refillMs: 60_000 }, accountClient: { capacity: 10, refillMs: 180_000 } });
  });
});

describe('reserveCheck + settleCheck', () => {
  /** Runs checks with their outcomes at offsets (ms), keeping one account on one client. */
  function run(steps: { at: number; outcome: 'wrong_password' | 'accepted' | 'not_checked' }[]) {
    let s: SignInBucketStates = full;
    return steps.map(({ at, outcome }) => {
      const d = reserveCheck(s, T0 + at);
      if (!d.allowed) return `429 ${d.bucket} ${d.retryAfterMs}`;
      s = settleCheck(outcome, d.states, T0 + at);
      return outcome;
    });
  }

  it('10 wrong passwords for one account, then the 11th waits 3 minutes', () => {
    const r = run(Array.from({ length: 12 }, () => ({ at: 0, outcome: 'wrong_password' as const })));
    expect(r.slice(0, 10).every((x) => x === 'wrong_password')).toBe(true);
    expect(r.slice(10)).toEqual(['429 accountClient 180000', '429 accountClient 180000']);
  });

  it('correct passwords cost nothing: one every 15 s for a day never runs dry', () => {
    const r = run(Array.from({ length: 5760 }, (_, i) => ({ at: i * 15_000, outcome: 'accepted' as const })));
    expect(r.every((x) => x === 'accepted')).toBe(true);
  });

  it("the owner's correct password refills their (account, client) bucket", () => {
    let s: SignInBucketStates = full;
    for (let i = 0; i < 9; i++) s = settleCheck('wrong_password', (reserveCheck(s, T0) as { states: SignInBucketStates }).states, T0);
    const d = reserveCheck(s, T0);
    expect(d.allowed).toBe(true);
    s = settleCheck('accepted', (d as { states: SignInBucketStates }).states, T0);
    expect(s.accountClient).toBeNull();
    // The client bucket keeps the 9 wrong guesses (a correct password of one account does not pay for guesses at others).
    expect(s.client).toBe(T0 + 9 * 60_000);
  });

  it('a check refused before a password was compared gives both tokens back', () => {
    const d = reserveCheck(full, T0) as { states: SignInBucketStates };
    expect(settleCheck('not_checked', d.states, T0)).toEqual(full);
  });

  it('a refusal names the bucket with the longest wait and changes nothing', () => {
    const clientEmpty: SignInBucketStates = { client: T0 + 20 * 60_000, accountClient: null };
    expect(reserveCheck(clientEmpty, T0)).toEqual({ allowed: false, bucket: 'client', retryAfterMs: 60_000 });
    const both: SignInBucketStates = { client: T0 + 20 * 60_000, accountClient: T0 + 10 * 180_000 };
    expect(reserveCheck(both, T0)).toEqual({ allowed: false, bucket: 'accountClient', retryAfterMs: 180_000 });
  });
});

describe('checkOutcome', () => {
  it('only a password that was compared and did not match counts', () => {
    expect(checkOutcome({ ok: true })).toBe('accepted');
    expect(checkOutcome({ ok: false, code: 'INVALID_EMAIL_OR_PASSWORD' })).toBe('wrong_password');
    expect(checkOutcome({ ok: false, code: 'INVALID_PASSWORD' })).toBe('wrong_password');
    expect(checkOutcome({ ok: false, code: 'PASSWORD_TOO_LONG' })).toBe('not_checked');
    expect(checkOutcome({ ok: false, code: 'SESSION_NOT_FRESH' })).toBe('not_checked');
    expect(checkOutcome({ ok: false })).toBe('not_checked');
  });

  it('a wrong two-factor code (TOTP or backup code) counts like a wrong password; a disabled account does not (issue #13)', () => {
    expect(checkOutcome({ ok: false, code: 'INVALID_CODE' })).toBe('wrong_password');
    expect(checkOutcome({ ok: false, code: 'INVALID_BACKUP_CODE' })).toBe('wrong_password');
    expect(checkOutcome({ ok: false, code: 'INVALID_TWO_FACTOR_COOKIE' })).toBe('not_checked');
    expect(checkOutcome({ ok: false, code: 'ACCOUNT_DISABLED' })).toBe('not_checked');
  });
});

describe('keys, accounts and messages', () => {
  it('the account is the trimmed lower-case email; none without one', () => {
    expect(accountKey('  Ada@Example.TEST ')).toBe('ada@example.test');
    expect(accountKey('')).toBeNull();
    expect(accountKey('   ')).toBeNull();
    expect(accountKey(undefined)).toBeNull();
    expect(accountKey(42)).toBeNull();
    expect(accountKey('a'.repeat(300))).toHaveLength(254);
  });

  it('bucket keys: the client first (it holds no space), so no account can be mistaken for another client', () => {
    expect(signInBucketKeys('ada@example.test', '198.51.100.7')).toEqual({ client: 'signin:client:198.51.100.7', accountClient: 'signin:account:198.51.100.7 ada@example.test' });
  });

  it('Retry-After in whole seconds, rounded up; words a person reads', () => {
    expect([retryAfterSeconds(1), retryAfterSeconds(1000), retryAfterSeconds(1001), retryAfterSeconds(0)]).toEqual([1, 1, 2, 1]);
    expect([waitText(1000), waitText(45_000), waitText(60_000), waitText(61_000), waitText(180_000)]).toEqual(['1 second', '45 seconds', '1 minute', '2 minutes', '3 minutes']);
    expect(tooManyAttemptsMessage('client', 60_000)).toBe('Too many wrong passwords from your network. Try again in 1 minute.');
    expect(tooManyAttemptsMessage('accountClient', 180_000)).toBe('Too many wrong passwords for this account from your network. Try again in 3 minutes.');
  });
});

describe('password reset requests (issue #13)', () => {
  it('3 per address in a burst, then one every 20 minutes — from any client; the client bucket is shared with sign-in', async () => {
    const { reserveResetRequest, RESET_REQUEST_LIMIT, tooManyResetsMessage } = await import('./sign-in-limits');
    let address: number | null = null;
    const t0 = Date.UTC(2027, 0, 1);
    const allowed: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      // A fresh client every time: spreading requests over many addresses does not help.
      const d = reserveResetRequest({ client: null, address }, t0);
      allowed.push(d.allowed);
      if (d.allowed) address = d.states.address;
      else expect(d).toMatchObject({ bucket: 'address', retryAfterMs: RESET_REQUEST_LIMIT.refillMs });
    }
    expect(allowed).toEqual([true, true, true, false, false]);
    expect(reserveResetRequest({ client: null, address }, t0 + RESET_REQUEST_LIMIT.refillMs).allowed).toBe(true);
    // An empty client bucket (20 wrong passwords) refuses a reset request too.
    const d = reserveResetRequest({ client: t0 + 20 * 60_000, address: null }, t0);
    expect(d).toMatchObject({ allowed: false, bucket: 'client' });
    expect(tooManyResetsMessage('address', 20 * 60_000)).toBe('Too many reset emails were asked for this address. Try again in 20 minutes, or ask an admin for a sign-in link.');
  });
});
