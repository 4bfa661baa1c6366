/**
 * Who is asking, for pages and route handlers. Every tenant-owned query takes `session.tenant.id`; an id
 * from another tenant therefore finds nothing and the page answers 404 (never the data).
 *
 * - `getStaffSession()` / `requireStaff()` — server components: the session from the request's cookie,
 *   with the staff user's tenant. `requireStaff` redirects to /sign-in when there is none. A disabled account
 *   (issue #13) is signed out on its next request: no session, whatever its cookie says (`?disabled=1` / a 401).
 * - `staffRoute(request, permission, handler)` — route handlers: same-origin check for anything but GET
 *   (cross-site requests answer 403), session (401), role (403 naming the role), JSON body (bounded: 413 over
 *   PUNCTUAL_MAX_BODY_BYTES, 400 too deep or a string too long — server/platform/request-body.ts; an
 *   `If-Match: "<version>"` header becomes the body's `version`, invariant 11), and AppError → 4xx
 *   `{ error, field, ...details }` (a stale save's 409 adds `current` and `version`).
 * - `staffCreateRoute(request, permission, handler)` — the same for a POST that creates, honouring an
 *   `Idempotency-Key` header (server/platform/idempotency.ts): 400 for a malformed key, the first answer again for a
 *   repeat, 422 for the key reused with another body.
 */
import { getSessionCookie } from 'better-auth/cookies';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { eq } from 'drizzle-orm';
import { getDb, type DbOrTx } from '@/db/client';
import { staffUsers, tenants, type Tenant } from '@/db/schema';
import { can, refusalMessage, type Permission } from '@/domain/accounts/permissions';
import { versionFromIfMatch } from '@/domain/platform/edit-conflict';
import { unstorableText } from '@/domain/text';
import type { StaffRole } from '@/domain/vocabulary';
import { isTrustedOrigin } from '@/domain/platform/public-url';
import { sessionEndedByDisabling } from '@/db/queries/accounts/staff';
import { getAuth } from '@/server/accounts/auth';
import { appClock } from '@/server/platform/clock';
import { AppError, retryOnTransactionConflict } from '@/server/platform/errors';
import { handleCreate } from '@/server/platform/idempotency';
import { BodyError, readBodyText, readJsonBody } from '@/server/platform/request-body';

interface StaffSession {
  user: { id: string; email: string; name: string; role: StaffRole };
  tenant: Tenant;
}

/**
 * The staff session for these request headers: the session, or why there is none — `signed_out` (no cookie,
 * expired, ended, unknown tenant) or `disabled` (issue #13: the account was disabled by an admin; its sessions
 * are deleted by that change, and their cookies are recognised by a marker it leaves; a session of a disabled
 * account found anyway is refused too). Read on every request, never cached.
 */
export async function sessionStateFromHeaders(h: Headers): Promise<{ session: StaffSession } | { session: null; refused: 'signed_out' | 'disabled' }> {
  const s = await getAuth().api.getSession({ headers: h });
  if (!s) return { session: null, refused: (await endedByDisabling(h)) ? 'disabled' : 'signed_out' };
  const u = s.user as typeof s.user & { tenantId: string; role: StaffRole };
  const [row] = await getDb()
    .select({ tenant: tenants, disabledAt: staffUsers.disabledAt })
    .from(staffUsers)
    .innerJoin(tenants, eq(tenants.id, staffUsers.tenantId))
    .where(eq(staffUsers.id, u.id));
  if (!row) return { session: null, refused: 'signed_out' };
  if (row.disabledAt) return { session: null, refused: 'disabled' };
  return { session: { user: { id: u.id, email: u.email, name: u.name, role: u.role }, tenant: row.tenant } };
}

/**
 * Whether the request's session cookie names a session that was deleted because an admin disabled its account
 * (db/queries/accounts/staff.ts keeps a marker — a hash of the token — until the session would have expired). Only asked
 * when a cookie is there but its session is not.
 */
async function endedByDisabling(h: Headers): Promise<boolean> {
  const cookie = getSessionCookie(h, { cookiePrefix: 'punctual' });
  if (!cookie) return false;
  let token: string;
  try {
    token = decodeURIComponent(cookie).split('.')[0];
  } catch {
    return false;
  }
  if (!token) return false;
  await appClock().ready;
  return sessionEndedByDisabling(getDb(), token, appClock().now());
}

/** The staff session for these request headers, or null (no cookie, expired, unknown tenant, or a disabled account). */
async function sessionFromHeaders(h: Headers): Promise<StaffSession | null> {
  return (await sessionStateFromHeaders(h)).session;
}

/** The sign-in page's address for a refused session: `?disabled=1` makes it say the account has been disabled. */
export function signInPathFor(refused: 'signed_out' | 'disabled'): string {
  return refused === 'disabled' ? '/sign-in?disabled=1' : '/sign-in';
}

/** The current request's staff session, or null. Server components and route handlers only. */
export async function getStaffSession(): Promise<StaffSession | null> {
  return sessionFromHeaders(await headers());
}

/** The current request's staff session; redirects to /sign-in when signed out (saying so when the account is disabled). */
export async function requireStaff(): Promise<StaffSession> {
  const s = await sessionStateFromHeaders(await headers());
  if (!s.session) redirect(signInPathFor(s.refused));
  return s.session;
}

const noStore = { 'cache-control': 'no-store' };

/** A JSON error answer `{ error, field?, ...details }` with `status` (details: e.g. a 409's `current` record). */
export function jsonError(status: number, error: string, field?: string, details?: Record<string, unknown>): Response {
  return Response.json({ ...details, error, ...(field ? { field } : {}) }, { status, headers: noStore });
}

/**
 * True when a state-changing request comes from our own pages: its `Origin` is the configured public origin
 * (domain/platform/public-url.ts: PUNCTUAL_PUBLIC_URL, else http://127.0.0.1:$PORT and http://localhost:$PORT) — never
 * an origin derived from `Host`/`X-Forwarded-Host`, which the client writes itself (issue #12); without an
 * `Origin` (or with `Origin: null`), only when `Sec-Fetch-Site: same-origin`. This is the OWASP "verifying origin with standard
 * headers" CSRF defence; the SameSite=Lax cookie is the second layer.
 */
export function isSameOrigin(h: Headers): boolean {
  const origin = h.get('origin');
  if (origin && origin !== 'null') return isTrustedOrigin(origin, process.env);
  // `Origin: null` is what a browser sends for a POST from a page with `Referrer-Policy: no-referrer` (the
  // preferences page, domain/platform/security-headers.ts): then only the browser's own Sec-Fetch-Site can vouch.
  return h.get('sec-fetch-site') === 'same-origin';
}

/**
 * Runs a route handler for a signed-in staff member holding `permission` (see module doc for the checks,
 * in order). The handler's return value is sent as JSON (200, or `status` when it returns `{ status, body }`).
 * `opts.textBody`: the body is plain text (a CSV file, issue #13) read up to that many bytes and handed over as a
 * string, with no JSON checks and no If-Match (413 past the cap, as for JSON).
 */
export async function staffRoute(
  request: Request,
  permission: Permission,
  handler: (session: StaffSession, body: unknown) => Promise<unknown>,
  opts: { textBody?: { maxBytes: number } } = {},
): Promise<Response> {
  const mutating = request.method !== 'GET' && request.method !== 'HEAD';
  if (mutating && !isSameOrigin(request.headers)) return jsonError(403, 'cross-site request refused: this action must come from the Punctual app itself');
  const state = await sessionStateFromHeaders(request.headers);
  if (!state.session) return jsonError(401, state.refused === 'disabled' ? 'This account has been disabled' : 'not signed in');
  const session = state.session;
  if (!can(session.user.role, permission)) return jsonError(403, refusalMessage(session.user.role, permission));
  let body: unknown = undefined;
  if (mutating && opts.textBody) {
    try {
      body = await readBodyText(request, opts.textBody.maxBytes);
    } catch (e) {
      if (e instanceof BodyError) return jsonError(e.status, e.message, e.field);
      throw e;
    }
  } else if (mutating) {
    try {
      body = await readJsonBody(request);
    } catch (e) {
      if (e instanceof BodyError) return jsonError(e.status, e.message, e.field);
      throw e;
    }
    if (body !== undefined) {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return jsonError(400, 'request body: must be a JSON object', 'body');
      const bad = unstorableText(body);
      if (bad) return jsonError(400, `${bad}: contains a character that cannot be stored (NUL or a broken surrogate pair)`, bad);
    }
    // An edit may name the version it saw as `If-Match: "<version>"` instead of a `version` member (invariant 11).
    const ifMatch = versionFromIfMatch(request.headers.get('if-match'));
    if (ifMatch === 'malformed') return jsonError(400, 'version: If-Match must be one quoted record version, such as "3"', 'version');
    if (ifMatch !== null) {
      const b = (body ?? {}) as Record<string, unknown>;
      if (b.version !== undefined && b.version !== ifMatch) return jsonError(400, `version: the body says ${JSON.stringify(b.version)} but If-Match says "${ifMatch}"`, 'version');
      body = { ...b, version: ifMatch };
    }
  }
  try {
    // actionContext's `now` is the database's clock (invariant 10): sampled once per process, before the first decision.
    await appClock().ready;
    // A deadlock with another staff action rolled this one back whole: run it again (server/platform/errors.ts).
    const result = await retryOnTransactionConflict(() => handler(session, body));
    if (result instanceof Response) return result;
    return Response.json(result ?? { ok: true }, { headers: noStore });
  } catch (e) {
    if (e instanceof AppError) return jsonError(e.httpStatus, e.message, e.field, e.details);
    throw e;
  }
}

/**
 * {@link staffRoute} for a POST that creates something. The handler writes through `db`: the pool, or — when
 * the request carries an `Idempotency-Key` — the transaction that also stores the key and its answer, so the
 * creation and the key commit together. A replayed answer has the first one's status and body, plus the
 * header `Idempotent-Replayed: true`.
 */
export async function staffCreateRoute(
  request: Request,
  permission: Permission,
  handler: (session: StaffSession, body: unknown, db: DbOrTx) => Promise<unknown>,
): Promise<Response> {
  return staffRoute(request, permission, async (s, body) => {
    const r = await handleCreate(
      getDb(),
      { tenantId: s.tenant.id, actorId: s.user.id, route: `${request.method} ${new URL(request.url).pathname}`, body, keyHeader: request.headers.get('idempotency-key') },
      (db) => handler(s, body, db),
    );
    return Response.json(r.body ?? { ok: true }, { status: r.status, headers: { ...noStore, ...(r.replayed ? { 'idempotent-replayed': 'true' } : {}) } });
  });
}

/**
 * The action context for a session: its tenant, the staff member's email as audit actor (and row-version
 * `updated_by`), their user id (for re-checking their role under a lock, server/platform/versions.ts), and the request
 * instant on the database's clock (invariant 10: it decides due-ness of what the action plans, and a nudge's
 * key and rate).
 */
export function actionContext(s: StaffSession): { tenantId: string; actor: string; actorId: string; now: Date } {
  return { tenantId: s.tenant.id, actor: s.user.email, actorId: s.user.id, now: appClock().now() };
}
