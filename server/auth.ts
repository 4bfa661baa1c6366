/**
 * Staff authentication with better-auth (email + password, database sessions through its drizzle adapter).
 *
 * - Accounts are created by the seed or an admin, never by sign-up (`disableSignUp`).
 * - The session lives in an httpOnly, SameSite=Lax cookie (`punctual.session_token`), 12 h, refreshed daily.
 * - better-auth refuses its own state-changing requests whose `Origin` is not trusted. Its base URL and trusted
 *   origins come from `PUNCTUAL_PUBLIC_URL` (domain/public-url.ts; unset: http://127.0.0.1:$PORT and
 *   http://localhost:$PORT), never from the request's `Host`/`X-Forwarded-Host`, which the client writes (issue #12).
 * - `BETTER_AUTH_SECRET` signs cookies. `npm start` generates one per data folder (`.data/auth-secret`).
 *
 * Built lazily: `next build` imports route modules without a database.
 */
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { reserveSendSlot } from '../db/queries/rate-limit';
import { getDb } from '../db/client';
import { publicBaseUrl, trustedOrigins } from '../domain/public-url';
import { staffAccounts, staffSessions, staffUsers, staffVerifications } from '../db/schema';
import { appClock } from './clock';

/** Per-account sign-in limit: one attempt per SIGN_IN_INTERVAL_MS, bursts of SIGN_IN_BURST (10 a minute). */
const SIGN_IN_INTERVAL_MS = 6_000;
const SIGN_IN_BURST = 10;

function createAuth() {
  return betterAuth({
    appName: 'Punctual',
    baseURL: publicBaseUrl(process.env),
    secret: process.env.BETTER_AUTH_SECRET,
    database: drizzleAdapter(getDb(), {
      provider: 'pg',
      schema: { user: staffUsers, session: staffSessions, account: staffAccounts, verification: staffVerifications },
    }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 8 },
    user: {
      additionalFields: {
        tenantId: { type: 'string', required: true, input: false },
        role: { type: 'string', required: true, input: false },
      },
    },
    session: { expiresIn: 12 * 60 * 60, updateAge: 24 * 60 * 60 },
    trustedOrigins: trustedOrigins(process.env),
    // Sign-in attempts per client address: 10 per minute (better-auth's limiter, in memory per web process).
    // The address comes from X-Forwarded-For, which only a proxy in front can vouch for — so attempts are
    // ALSO limited per account (below), which no header can spread out.
    rateLimit: { enabled: true, window: 60, max: 200, customRules: { '/sign-in/email': { window: 60, max: 10 } } },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== '/sign-in/email') return;
        const email = String((ctx.body as { email?: unknown } | undefined)?.email ?? '').trim().toLowerCase().slice(0, 254);
        if (!email) return;
        const clock = appClock();
        await clock.ready;
        const now = clock.now();
        // GCRA in PostgreSQL (shared by every web process): one attempt per 6 s, bursts of 10.
        const slot = await reserveSendSlot(getDb(), `signin:${email}`, SIGN_IN_INTERVAL_MS, now);
        if (slot.getTime() - now.getTime() > SIGN_IN_BURST * SIGN_IN_INTERVAL_MS - SIGN_IN_INTERVAL_MS) {
          throw new APIError('TOO_MANY_REQUESTS', { message: 'Too many sign-in attempts for this account: wait a minute and try again.' });
        }
      }),
    },
    advanced: { cookiePrefix: 'punctual', ipAddress: { ipAddressHeaders: ['x-forwarded-for'] } },
    telemetry: { enabled: false },
    // Accounts are managed by admins: no self-service profile, email or account changes.
    disabledPaths: ['/update-user', '/change-email', '/delete-user', '/sign-up/email'],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as unknown as { __punctualAuth?: Auth };

/** The process-wide better-auth instance (created on first use). */
export function getAuth(): Auth {
  globalForAuth.__punctualAuth ??= createAuth();
  return globalForAuth.__punctualAuth;
}
