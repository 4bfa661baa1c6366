import { publicBaseUrl } from '@/domain/platform/public-url';
import { actionContext, staffCreateRoute } from '@/app/_http/session';
import { inviteStaffAction } from '@/server/accounts/staff-invitations';

export const dynamic = 'force-dynamic';

/**
 * POST /api/staff `{ name, email, role }` — an admin invites someone to the tenant's staff (server/accounts/staff-invitations.ts):
 * `{ invitation, message }`, the same answer whether or not the address has an account with another organisation; the
 * person gets the email (a link to join, or — only to them — that their address is taken elsewhere). 409 when the
 * address is already a member of THIS organisation. Honours `Idempotency-Key`.
 */
export async function POST(request: Request) {
  return staffCreateRoute(request, 'configure', async (s, body, db) => inviteStaffAction(db, actionContext(s), body ?? {}, publicBaseUrl(process.env)));
}
