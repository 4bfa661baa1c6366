/**
 * Issue #13 (accounts), the better-auth side: a small plugin of our own, listed in server/auth.ts beside
 * better-auth's `twoFactor`, so the accounts rules live here and auth.ts only names it.
 *
 * - A disabled account (staff_users.disabled_at set by an admin, server/staff.ts) gets no new session: the
 *   `session.create.before` database hook refuses it with 403 `ACCOUNT_DISABLED` ("This account has been
 *   disabled…"). That covers every way a session is made — `/sign-in/email` (after the password was compared, so a
 *   stranger learns nothing about an account without its password, and the sign-in limits give the owner's tokens
 *   back: domain/sign-in-limits.ts counts only wrong secrets), the two-factor step `/two-factor/verify-totp` /
 *   `/verify-backup-code`, and the session better-auth re-issues after a password change or a two-factor switch.
 *   Its existing sessions are deleted by the disabling transaction; server/session.ts treats a disabled user as
 *   signed out should one still be found.
 * - `/change-password` always ends every other session of the account (`revokeOtherSessions` is forced on) and,
 *   when it succeeded, is audited as `password_change` (never the password: `{ email, otherSessionsEnded }`).
 * - Two-factor switched on (a first TOTP code confirmed the setup, `/two-factor/verify-totp` from a signed-in
 *   session of an account that had it off) → `two_factor_on`; `/two-factor/disable` → `two_factor_off`.
 *
 * The audit rows are written right after better-auth's own writes (its adapter does not join our transactions);
 * a failure to write one is logged, the answer stands.
 */
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { count, eq } from 'drizzle-orm';
import { getDb } from '../db/client';
import { appendAudit } from '../db/queries/audit';
import { resetTokenRow } from '../db/queries/tenant-setup';
import { staffSessions, staffUsers } from '../db/schema';
import type { AuditAction } from '../domain/vocabulary';
import { appClock } from './clock';
import { childLogger, errField } from './log';

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
export async function isStaffDisabled(userId: string): Promise<boolean> {
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
          matcher: (ctx: { path?: string }) => AUDITED_PATHS.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const p = ctx.headers ? pending.get(ctx.headers) : undefined;
            if (!p || !ctx.headers) return;
            pending.delete(ctx.headers);
            if (isAPIError(ctx.context.returned)) return;
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
