/**
 * Staff authentication with better-auth (email + password, database sessions through its drizzle adapter).
 *
 * - Accounts are created by the seed or an admin, never by sign-up (`disableSignUp`).
 * - Passwords chosen through a link (issue #13): `npm run tenant` prints one (24 h) for an account without a
 *   password; "Forgot your password?" mails one (1 h, sent by the worker). Both are better-auth's own reset tokens,
 *   spent on /set-password; a reset signs the account out everywhere (server/accounts/password-links.ts). Only an account's
 *   newest link works, and every link dies when its password changes by any route (triggers, migration 0023).
 * - The session lives in an httpOnly, SameSite=Lax cookie (`punctual.session_token`), 12 h, refreshed daily.
 * - better-auth refuses its own state-changing requests whose `Origin` is not trusted. Its base URL and trusted
 *   origins come from `PUNCTUAL_PUBLIC_URL` (domain/platform/public-url.ts; unset: http://127.0.0.1:$PORT and
 *   http://localhost:$PORT), never from the request's `Host`/`X-Forwarded-Host`, which the client writes (issue #12).
 * - `BETTER_AUTH_SECRET` signs cookies. `npm start` generates one per data folder (`.data/auth-secret`).
 *
 * Built lazily: `next build` imports route modules without a database.
 */
import { betterAuth } from 'better-auth';
import { twoFactor } from 'better-auth/plugins';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { getDb } from '@/db/client';
import { publicBaseUrl, trustedOrigins } from '@/domain/platform/public-url';
import { staffAccounts, staffSessions, staffTwoFactors, staffUsers, staffVerifications } from '@/db/schema';
import { accountKey, checkOutcome, retryAfterSeconds } from '@/domain/accounts/sign-in-limits';
import { CLIENT_HEADER, clientKeyOfHeaders } from '@/server/platform/client-address';
import { appClock } from '@/server/platform/clock';
import { childLogger, errField } from '@/server/platform/log';
import { reservePasswordCheck, reserveResetMail, settlePasswordCheck, type PasswordCheck } from './sign-in-limits';
import { RESET_LINK_TTL_SECONDS, setPasswordUrl } from '@/domain/organisations/tenant-setup';
import { auditPasswordReset, enqueuePasswordResetMail } from './password-links';
import { punctualAccounts } from './auth-plugin';

/**
 * better-auth endpoints that compare a password (checked against better-auth 1.7.25's routes: every caller of
 * `password.verify`, `validatePassword` or `checkPassword` that is not disabled below or in a plugin we do not
 * use). Each counts against the sign-in limits (domain/accounts/sign-in-limits.ts): `/sign-in/email` for the account it
 * names, the other two — which need a session — for the signed-in account.
 */
const PASSWORD_CHECK_PATHS = new Set([
  '/sign-in/email',
  '/verify-password',
  '/change-password',
  // Issue #13, better-auth's `twoFactor` plugin: switching it on or off asks for the password; the sign-in's second
  // step (and a signed-in setup's first code) compares a TOTP or backup code — a wrong code counts like a wrong
  // password, for the account being signed in to (its two-factor cookie) or the signed-in one.
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/verify-totp',
  '/two-factor/verify-backup-code',
]);

/** The two-factor plugin's code checks: during sign-in they have no session, only the signed `two_factor` cookie. */
const TWO_FACTOR_CODE_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code']);

/** A check let through by the before-hook, for the after-hook to settle (keyed by the call's request headers). */
const pendingChecks = new WeakMap<Headers, PasswordCheck>();

/** The account a password check is for: the email it names (sign-in), else the session's; null when none. */
async function checkedAccount(ctx: Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]): Promise<string | null> {
  if (ctx.path === '/sign-in/email') return accountKey((ctx.body as { email?: unknown } | undefined)?.email);
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session || !TWO_FACTOR_CODE_PATHS.has(ctx.path)) return accountKey(session?.user.email);
  // The sign-in's second step: the account its signed two-factor cookie names (better-auth's own lookup).
  const identifier = await ctx.getSignedCookie(ctx.context.createAuthCookie('two_factor').name, ctx.context.secret).catch(() => null);
  if (!identifier) return null;
  const pendingSignIn = await ctx.context.internalAdapter.findVerificationValue(identifier).catch(() => null);
  const user = pendingSignIn ? await ctx.context.internalAdapter.findUserById(pendingSignIn.value).catch(() => null) : null;
  return accountKey(user?.email);
}

/** better-auth's endpoint that mails a password reset link (issue #13). */
const RESET_REQUEST_PATH = '/request-password-reset';

/**
 * Issue #13: a password reset request takes a token from the client's sign-in bucket and from the address's reset
 * bucket (server/accounts/sign-in-limits.ts reserveResetMail) before better-auth looks the address up — for every address,
 * so neither the answer nor a 429 tells whether an account exists. A body without an address is left to
 * better-auth's validation.
 */
async function resetRequestLimit(ctx: Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]): Promise<void> {
  const account = accountKey((ctx.body as { email?: unknown } | undefined)?.email);
  if (!account || !ctx.headers) return;
  const clock = appClock();
  await clock.ready;
  const r = await reserveResetMail(getDb(), { account, clientKey: clientKeyOfHeaders(ctx.headers) }, clock.now());
  if (!r.allowed) throw new APIError('TOO_MANY_REQUESTS', { message: r.message, code: 'TOO_MANY_ATTEMPTS' }, { 'Retry-After': String(retryAfterSeconds(r.retryAfterMs)) });
}

function createAuth() {
  return betterAuth({
    appName: 'Punctual',
    baseURL: publicBaseUrl(process.env),
    secret: process.env.BETTER_AUTH_SECRET,
    database: drizzleAdapter(getDb(), {
      provider: 'pg',
      schema: { user: staffUsers, session: staffSessions, account: staffAccounts, verification: staffVerifications, twoFactor: staffTwoFactors },
    }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: 8,
      // Issue #13 — one-time links (`npm run tenant`, 24 h) and password reset by email (1 h) are better-auth's own
      // reset tokens; the page is /set-password. The web app only enqueues the email: the worker sends it through
      // the tenant's provider (server/accounts/password-links.ts). The request is limited in resetRequestLimit below.
      resetPasswordTokenExpiresIn: RESET_LINK_TTL_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        await enqueuePasswordResetMail(getDb(), { userId: user.id, url: setPasswordUrl(publicBaseUrl(process.env), token) });
      },
      onPasswordReset: async ({ user }) => {
        const clock = appClock();
        await clock.ready;
        await auditPasswordReset(getDb(), user, clock.now());
      },
    },
    user: {
      additionalFields: {
        tenantId: { type: 'string', required: true, input: false },
        role: { type: 'string', required: true, input: false },
      },
    },
    session: { expiresIn: 12 * 60 * 60, updateAge: 24 * 60 * 60 },
    trustedOrigins: trustedOrigins(process.env),
    // Password checks are limited by our own token buckets in PostgreSQL (hooks below, domain/accounts/sign-in-limits.ts);
    // better-auth's limiter (in memory, per process, a window that resets only after a quiet minute) is kept as a
    // flood guard for its other endpoints, keyed by the client address we resolved (advanced.ipAddress below).
    // Reset requests (issue #13) likewise: our per-client and per-address buckets (resetRequestLimit) replace
    // better-auth's in-memory 3 a minute.
    rateLimit: { enabled: true, window: 60, max: 200, customRules: Object.fromEntries([...PASSWORD_CHECK_PATHS, RESET_REQUEST_PATH].map((p) => [p, false])) },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === RESET_REQUEST_PATH) return resetRequestLimit(ctx);
        if (!PASSWORD_CHECK_PATHS.has(ctx.path) || !ctx.headers) return;
        const account = await checkedAccount(ctx);
        if (!account) return; // refused by validation or for want of a session, before any password is compared
        const check: PasswordCheck = { account, clientKey: clientKeyOfHeaders(ctx.headers) };
        const clock = appClock();
        await clock.ready;
        const r = await reservePasswordCheck(getDb(), check, clock.now());
        if (!r.allowed) {
          throw new APIError('TOO_MANY_REQUESTS', { message: r.message, code: 'TOO_MANY_ATTEMPTS' }, { 'Retry-After': String(retryAfterSeconds(r.retryAfterMs)) });
        }
        pendingChecks.set(ctx.headers, check);
      }),
      after: createAuthMiddleware(async (ctx) => {
        const check = ctx.headers ? pendingChecks.get(ctx.headers) : undefined;
        if (!check || !ctx.headers) return;
        pendingChecks.delete(ctx.headers);
        const returned = ctx.context.returned;
        const outcome = checkOutcome(isAPIError(returned) ? { ok: false, code: (returned.body as { code?: string } | undefined)?.code } : { ok: true });
        // The answer stands even if the bucket cannot be settled (the token then stays spent, as for a wrong guess).
        await settlePasswordCheck(getDb(), check, outcome, appClock().now()).catch((e: unknown) =>
          childLogger({ role: 'web' }).warn({ err: errField(e), path: ctx.path }, 'sign-in limits: could not settle a password check'),
        );
      }),
    },
    // The client address better-auth records on a session and keys its own limiter by: set by our route handler
    // from the socket peer and trusted proxies (server/platform/client-address.ts), never taken from the client.
    advanced: { cookiePrefix: 'punctual', ipAddress: { ipAddressHeaders: [CLIENT_HEADER] } },
    telemetry: { enabled: false },
    // Issue #13: optional TOTP two-factor (better-auth's plugin; its table is staff_two_factors, db/schema/accounts.ts), and our
    // accounts rules — disabled accounts, password-change and two-factor audit (server/accounts/auth-plugin.ts).
    plugins: [twoFactor({ issuer: 'Punctual' }), punctualAccounts()],
    // Accounts are managed by admins: no self-service profile, email or account changes. Of the two-factor
    // plugin only TOTP is used: its email/SMS codes are not set up, and the URI and new backup codes are shown
    // once, when two-factor is switched on (turn it off and on again for new ones).
    disabledPaths: [
      '/update-user',
      '/change-email',
      '/delete-user',
      '/sign-up/email',
      '/two-factor/send-otp',
      '/two-factor/verify-otp',
      '/two-factor/get-totp-uri',
      '/two-factor/generate-backup-codes',
    ],
  });
}

type Auth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as unknown as { __punctualAuth?: Auth };

/** The process-wide better-auth instance (created on first use). */
export function getAuth(): Auth {
  globalForAuth.__punctualAuth ??= createAuth();
  return globalForAuth.__punctualAuth;
}
