/**
 * Issue #13 (accounts), the better-auth side: a small plugin of our own, listed in server/accounts/auth.ts beside
 * better-auth's `twoFactor`, so the accounts rules live here and auth.ts only names it.
 *
 * - A disabled account (staff_users.disabled_at set by an admin, server/accounts/staff.ts) gets no new session: the
 *   `session.create.before` database hook refuses it with 403 `ACCOUNT_DISABLED` ("This account has been
 *   disabled…"). That covers every way a session is made — `/sign-in/email` (after the password was compared, so a
 *   stranger learns nothing about an account without its password, and the sign-in limits give the owner's tokens
 *   back: domain/accounts/sign-in-limits.ts counts only wrong secrets), the two-factor step `/two-factor/verify-totp` /
 *   `/verify-backup-code`, and the session better-auth re-issues after a password change or a two-factor switch.
 *   Its existing sessions are deleted by the disabling transaction; app/_http/session.ts treats a disabled user as
 *   signed out should one still be found.
 * - `/change-password` always ends every other session of the account (`revokeOtherSessions` is forced on) and,
 *   when it succeeded, is audited as `password_change` (never the password: `{ email, otherSessionsEnded }`).
 * - Two-factor switched on (a first TOTP code confirmed the setup, `/two-factor/verify-totp` from a signed-in
 *   session of an account that had it off) ends every other session of the account — like a password change; this
 *   browser stays signed in — and is audited `two_factor_on` with `otherSessionsEnded`; `/two-factor/disable` →
 *   `two_factor_off`.
 * - A TOTP code is accepted once per account and time step (RFC 6238 §5.2). better-auth compares a code with the
 *   steps T-1, T, T+1 and remembers nothing, so the same code would sign in twice within its minute and a half.
 *   Before `/two-factor/verify-totp` runs, {@link claimTotpCode} finds the step the code belongs to (the account's
 *   secret, decrypted with better-auth's own `symmetricDecrypt`, codes by `@better-auth/utils/otp`) and claims it in
 *   one UPDATE (`staff_two_factors.totp_last_step`, db/queries/accounts/two-factor.ts): a step at or before the last claimed
 *   one is refused as better-auth refuses a wrong code — 401 `INVALID_CODE` "Invalid code" — and of two requests
 *   with one code exactly one gets through. A code that matches no step is left to better-auth (a wrong code claims
 *   nothing). A replay keeps its sign-in-limit token spent, like a wrong code (server/accounts/auth.ts: the limits' after-hook
 *   does not run for a request refused here), but is not counted by better-auth's own lockout. A claim whose request
 *   better-auth then refuses for another reason (account locked, sign-in challenge spent, account disabled) is given
 *   back, so the person may type the same code again after signing in afresh.
 *
 * The audit rows are written right after better-auth's own writes (its adapter does not join our transactions);
 * a failure to write one is logged, the answer stands.
 */
import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { symmetricDecrypt } from 'better-auth/crypto';
import { count, eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { resetTokenRow } from '@/db/queries/organisations/tenant-setup';
import { claimTotpStep, deleteOtherSessions, forgetTotpStep, releaseTotpStep, totpSecretOf } from '@/db/queries/accounts/two-factor';
import { staffSessions, staffUsers } from '@/db/schema';
import { matchedTotpStep, totpCandidateSteps, TOTP_PERIOD_SECONDS } from '@/domain/accounts/totp-steps';
import type { AuditAction } from '@/domain/vocabulary';
import { appClock } from '@/server/platform/clock';
import { childLogger, errField } from '@/server/platform/log';

/** The sentence a disabled account's sign-in is refused with (and the sign-in page shows after a disabled session). */
export const ACCOUNT_DISABLED_MESSAGE = 'This account has been disabled. Ask an admin of your organisation to turn it back on.';

type HookCtx = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The signed-in staff member a hooked request acts for, remembered by the before-hook for the after-hook. */
interface Pending {
  userId: string;
  email: string;
  tenantId: string;
  action: AuditAction;
  details: Record<string, unknown>;
}
const pending = new WeakMap<Headers, Pending>();

/** Whether this staff account is disabled (false for an unknown id: better-auth refuses those itself). */
async function isStaffDisabled(userId: string): Promise<boolean> {
  const [row] = await getDb().select({ disabledAt: staffUsers.disabledAt }).from(staffUsers).where(eq(staffUsers.id, userId));
  return !!row?.disabledAt;
}

async function signedInUser(ctx: HookCtx): Promise<{ id: string; email: string; tenantId: string; twoFactorEnabled: boolean } | null> {
  const s = await getSessionFromCtx(ctx).catch(() => null);
  if (!s) return null;
  const u = s.user as typeof s.user & { tenantId: string; twoFactorEnabled?: boolean | null };
  return { id: u.id, email: u.email, tenantId: u.tenantId, twoFactorEnabled: !!u.twoFactorEnabled };
}

const AUDITED_PATHS = new Set(['/change-password', '/two-factor/verify-totp', '/two-factor/disable']);

/** A TOTP step claimed by the before-hook, for the after-hook to give back if the request did not succeed. */
interface TotpClaim {
  userId: string;
  step: number;
  previous: number | null;
}
const totpClaims = new WeakMap<Headers, TotpClaim>();

/** better-auth's answer to a wrong TOTP code (its TWO_FACTOR_ERROR_CODES.INVALID_CODE), reused for a replayed one. */
function invalidCode(): APIError {
  return new APIError('UNAUTHORIZED', { message: 'Invalid code', code: 'INVALID_CODE' });
}

/**
 * The account a `/two-factor/verify-totp` request is for: the signed-in one (confirming a setup), else the one its
 * signed two-factor cookie names (the sign-in's second step, better-auth's own lookup); null when neither.
 */
async function totpAccount(ctx: HookCtx): Promise<string | null> {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) return session.user.id;
  const identifier = await ctx.getSignedCookie(ctx.context.createAuthCookie('two_factor').name, ctx.context.secret).catch(() => null);
  if (!identifier) return null;
  const pendingSignIn = await ctx.context.internalAdapter.findVerificationValue(identifier).catch(() => null);
  return pendingSignIn?.value ?? null;
}

/** The account's TOTP secret as better-auth's verify uses it (its `decryptTOTPSecret`: `base32:` marks an imported one). */
async function totpSecret(ctx: HookCtx, stored: string): Promise<string | Uint8Array> {
  const secret = await symmetricDecrypt({ key: ctx.context.secretConfig, data: stored });
  return secret.startsWith('base32:') ? base32.decode(secret.slice(7).toUpperCase()) : secret;
}

/**
 * Before `/two-factor/verify-totp` (module doc): claims the time step the submitted code belongs to, or refuses a
 * code whose step was used already (401 INVALID_CODE). Steps are counted on the process clock, as better-auth's
 * verify counts them right after. Nothing is claimed for a code that matches no step, a malformed body, or a
 * request without an account (better-auth answers those itself).
 */
async function claimTotpCode(ctx: HookCtx): Promise<void> {
  const code = (ctx.body as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || code.length === 0 || code.length > 20 || !ctx.headers) return;
  const userId = await totpAccount(ctx);
  if (!userId) return;
  const stored = await totpSecretOf(getDb(), userId);
  if (!stored) return;
  const otp = createOTP(await totpSecret(ctx, stored), { digits: 6, period: TOTP_PERIOD_SECONDS });
  const candidates = await Promise.all(totpCandidateSteps(Date.now()).map(async (step) => ({ step, code: await otp.hotp(step) })));
  const step = matchedTotpStep(code, candidates);
  if (step === null) return;
  const claimed = await claimTotpStep(getDb(), userId, step);
  if (!claimed) throw invalidCode();
  totpClaims.set(ctx.headers, { userId, step, previous: claimed.previous });
}

/** The plugin (module doc). */
export function punctualAccounts() {
  return {
    id: 'punctual-accounts',
    init() {
      return {
        options: {
          databaseHooks: {
            session: {
              create: {
                before: async (session: { userId: string }) => {
                  if (await isStaffDisabled(session.userId)) throw new APIError('FORBIDDEN', { message: ACCOUNT_DISABLED_MESSAGE, code: 'ACCOUNT_DISABLED' });
                },
              },
            },
          },
        },
      };
    },
    hooks: {
      before: [
        {
          matcher: (ctx: { path?: string }) => ctx.path === '/two-factor/verify-totp',
          handler: createAuthMiddleware(claimTotpCode),
        },
        {
          // A disabled account may not choose a password through a link it was sent before it was disabled (the
          // disabling transaction deletes its links too; this covers one issued meanwhile): 403, nothing changed.
          matcher: (ctx: { path?: string }) => ctx.path === '/reset-password',
          handler: createAuthMiddleware(async (ctx) => {
            const token = (ctx.body as { token?: unknown } | undefined)?.token ?? (ctx.query as { token?: unknown } | undefined)?.token;
            if (typeof token !== 'string' || token.length === 0 || token.length > 200) return; // better-auth refuses it
            const row = await resetTokenRow(getDb(), token);
            if (row && (await isStaffDisabled(row.userId))) throw new APIError('FORBIDDEN', { message: ACCOUNT_DISABLED_MESSAGE, code: 'ACCOUNT_DISABLED' });
          }),
        },
        {
          matcher: (ctx: { path?: string }) => AUDITED_PATHS.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            if (!ctx.headers) return;
            const u = await signedInUser(ctx);
            if (!u) return; // refused by better-auth for want of a session (or, for verify-totp, the sign-in step)
            const base = { userId: u.id, email: u.email, tenantId: u.tenantId };
            if (ctx.path === '/change-password') {
              const [n] = await getDb().select({ n: count() }).from(staffSessions).where(eq(staffSessions.userId, u.id));
              pending.set(ctx.headers, { ...base, action: 'password_change', details: { email: u.email, otherSessionsEnded: Math.max(0, (n?.n ?? 1) - 1) } });
              // A password change always ends the account's other sessions, whatever the client asked for.
              return { context: { body: { ...(ctx.body as Record<string, unknown>), revokeOtherSessions: true } } };
            }
            if (ctx.path === '/two-factor/verify-totp') {
              // Only the code that confirms a new setup switches two-factor on; a signed-in re-check changes nothing.
              if (!u.twoFactorEnabled) pending.set(ctx.headers, { ...base, action: 'two_factor_on', details: { email: u.email, method: 'totp' } });
              return;
            }
            if (u.twoFactorEnabled) pending.set(ctx.headers, { ...base, action: 'two_factor_off', details: { email: u.email } });
          }),
        },
      ],
      after: [
        {
          // A claimed TOTP step whose request did not succeed is given back (module doc).
          matcher: (ctx: { path?: string }) => ctx.path === '/two-factor/verify-totp',
          handler: createAuthMiddleware(async (ctx) => {
            const claim = ctx.headers ? totpClaims.get(ctx.headers) : undefined;
            if (!claim || !ctx.headers) return;
            totpClaims.delete(ctx.headers);
            if (!isAPIError(ctx.context.returned)) return;
            await releaseTotpStep(getDb(), claim.userId, claim.step, claim.previous).catch((e: unknown) =>
              childLogger({ role: 'web' }).warn({ err: errField(e) }, 'accounts: could not give back a TOTP step'),
            );
          }),
        },
        {
          // A new secret (two-factor set up again before it was confirmed): its codes start afresh.
          matcher: (ctx: { path?: string }) => ctx.path === '/two-factor/enable',
          handler: createAuthMiddleware(async (ctx) => {
            if (isAPIError(ctx.context.returned)) return;
            const u = await signedInUser(ctx);
            if (u) await forgetTotpStep(getDb(), u.id);
          }),
        },
        {
          matcher: (ctx: { path?: string }) => AUDITED_PATHS.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const p = ctx.headers ? pending.get(ctx.headers) : undefined;
            if (!p || !ctx.headers) return;
            pending.delete(ctx.headers);
            if (isAPIError(ctx.context.returned)) return;
            if (p.action === 'two_factor_on') {
              // Switching two-factor on ends the account's other sessions (they signed in without a code); better-auth
              // has just replaced this browser's session with a new one, which stays.
              const keep = ctx.context.newSession?.session.token;
              if (keep) {
                p.details.otherSessionsEnded = await deleteOtherSessions(getDb(), p.userId, keep).catch((e: unknown) => {
                  childLogger({ role: 'web' }).error({ err: errField(e), userId: p.userId }, 'accounts: could not end the other sessions after two-factor was switched on');
                  return null;
                });
              }
            }
            const clock = appClock();
            await clock.ready;
            await appendAudit(getDb(), { tenantId: p.tenantId, actor: p.email, action: p.action, at: clock.now(), details: p.details }).catch((e: unknown) =>
              childLogger({ role: 'web' }).error({ err: errField(e), action: p.action }, 'accounts: could not write the audit entry'),
            );
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
