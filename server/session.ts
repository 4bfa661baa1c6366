/**
 * Who is asking, for pages and route handlers. Every tenant-owned query takes `session.tenant.id`; an id
 * from another tenant therefore finds nothing and the page answers 404 (never the data).
 *
 * - `getStaffSession()` / `requireStaff()` — server components: the session from the request's cookie,
 *   with the staff user's tenant. `requireStaff` redirects to /sign-in when there is none.
 * - `staffRoute(request, permission, handler)` — route handlers: same-origin check for anything but GET
 *   (cross-site requests answer 403), session (401), role (403 naming the role), JSON body, and AppError →
 *   4xx `{ error, field }`.
 */
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { eq } from 'drizzle-orm';
import { getDb } from '../db/client';
import { tenants, type Tenant } from '../db/schema';
import { can, refusalMessage, type Permission } from '../domain/permissions';
import { unstorableText } from '../domain/text';
import type { StaffRole } from '../domain/vocabulary';
import { getAuth, requestOrigin } from './auth';
import { appClock } from './clock';
import { AppError } from './errors';

export interface StaffSession {
  user: { id: string; email: string; name: string; role: StaffRole };
  tenant: Tenant;
}

/** The staff session for these request headers, or null (no cookie, expired, or unknown tenant). */
export async function sessionFromHeaders(h: Headers): Promise<StaffSession | null> {
  const s = await getAuth().api.getSession({ headers: h });
  if (!s) return null;
  const u = s.user as typeof s.user & { tenantId: string; role: StaffRole };
  const [tenant] = await getDb().select().from(tenants).where(eq(tenants.id, u.tenantId));
  if (!tenant) return null;
  return { user: { id: u.id, email: u.email, name: u.name, role: u.role }, tenant };
}

/** The current request's staff session, or null. Server components and route handlers only. */
export async function getStaffSession(): Promise<StaffSession | null> {
  return sessionFromHeaders(await headers());
}

/** The current request's staff session; redirects to /sign-in when signed out. */
export async function requireStaff(): Promise<StaffSession> {
  const s = await getStaffSession();
  if (!s) redirect('/sign-in');
  return s;
}

const noStore = { 'cache-control': 'no-store' };

/** A JSON error answer `{ error, field? }` with `status`. */
export function jsonError(status: number, error: string, field?: string): Response {
  return Response.json(field ? { error, field } : { error }, { status, headers: noStore });
}

/**
 * True when a state-changing request comes from our own pages: its `Origin` equals the origin it was sent
 * to (or PUNCTUAL_PUBLIC_URL); without an `Origin`, only when `Sec-Fetch-Site: same-origin`. This is the
 * OWASP "verifying origin with standard headers" CSRF defence; the SameSite=Lax cookie is the second layer.
 */
export function isSameOrigin(h: Headers): boolean {
  const origin = h.get('origin');
  if (origin && origin !== 'null') {
    const own = requestOrigin(h);
    const publicUrl = process.env.PUNCTUAL_PUBLIC_URL?.replace(/\/$/, '');
    return origin === own || (!!publicUrl && origin === publicUrl);
  }
  return h.get('sec-fetch-site') === 'same-origin';
}

/**
 * Runs a route handler for a signed-in staff member holding `permission` (see module doc for the checks,
 * in order). The handler's return value is sent as JSON (200, or `status` when it returns `{ status, body }`).
 */
export async function staffRoute(
  request: Request,
  permission: Permission,
  handler: (session: StaffSession, body: unknown) => Promise<unknown>,
): Promise<Response> {
  const mutating = request.method !== 'GET' && request.method !== 'HEAD';
  if (mutating && !isSameOrigin(request.headers)) return jsonError(403, 'cross-site request refused: this action must come from the Punctual app itself');
  const session = await sessionFromHeaders(request.headers);
  if (!session) return jsonError(401, 'not signed in');
  if (!can(session.user.role, permission)) return jsonError(403, refusalMessage(session.user.role, permission));
  let body: unknown = undefined;
  if (mutating) {
    const text = await request.text();
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        return jsonError(400, 'request body: not valid JSON', 'body');
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return jsonError(400, 'request body: must be a JSON object', 'body');
      const bad = unstorableText(body);
      if (bad) return jsonError(400, `${bad}: contains a character that cannot be stored (NUL or a broken surrogate pair)`, bad);
    }
  }
  try {
    // actionContext's `now` is the database's clock (invariant 10): sampled once per process, before the first decision.
    await appClock().ready;
    const result = await handler(session, body);
    if (result instanceof Response) return result;
    return Response.json(result ?? { ok: true }, { headers: noStore });
  } catch (e) {
    if (e instanceof AppError) return jsonError(e.httpStatus, e.message, e.field);
    throw e;
  }
}

/**
 * The action context for a session: its tenant, the staff member's email as audit actor, and the request
 * instant on the database's clock (it decides due-ness of what the action plans, and a nudge's key and rate).
 */
export function actionContext(s: StaffSession): { tenantId: string; actor: string; now: Date } {
  return { tenantId: s.tenant.id, actor: s.user.email, now: appClock().now() };
}
