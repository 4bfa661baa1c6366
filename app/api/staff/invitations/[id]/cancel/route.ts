import { getDb } from '@/db/client';
import { actionContext, staffRoute } from '@/app/_http/session';
import { cancelInvitationAction } from '@/server/accounts/staff-invitations';

export const dynamic = 'force-dynamic';

/** POST /api/staff/invitations/:id/cancel `{ version }` — an admin cancels a pending invitation; stale version → 409. */
export async function POST(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return staffRoute(request, 'configure', (s, body) => cancelInvitationAction(getDb(), actionContext(s), id, body ?? {}));
}
