import { getDb } from '@/db/client';
import { setGuestLimitAction } from '@/server/organisations/partnerships';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * PUT /api/partnerships/:hostTenantId `{ limit: 'anyone' | 'contacts' | 'domains' | 'none', domains?, version }` (or
 * the version as `If-Match`) — admins of the GUEST tenant set whom that host may write to in their name (issue #12).
 * 400 naming the field (`limit`, `domains`, `version`); 404 when the host has no partnership with this tenant;
 * stale version → 409 with `current`. Answers the partnership as stored.
 */
export async function PUT(request: Request, context: { params: Promise<{ hostTenantId: string }> }) {
  const { hostTenantId } = await context.params;
  return staffRoute(request, 'configure', (s, body) => setGuestLimitAction(getDb(), actionContext(s), hostTenantId, body ?? {}));
}
