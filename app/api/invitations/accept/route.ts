import { getDb } from '@/db/client';
import { appClock } from '@/server/platform/clock';
import { AppError } from '@/server/platform/errors';
import { BodyError, readJsonBody } from '@/server/platform/request-body';
import { isSameOrigin, jsonError } from '@/app/_http/session';
import { acceptInvitation } from '@/server/accounts/staff-invitations';

export const dynamic = 'force-dynamic';

/**
 * POST /api/invitations/accept `{ token, password }` — public (the token is the credential): the invited person
 * chooses a password; their account is created in the inviting organisation with the invited role. 400 naming the
 * field; 409 for a link that cannot be used (one message for used, cancelled, replaced and expired).
 */
export async function POST(request: Request) {
  if (!isSameOrigin(request.headers)) return jsonError(403, 'cross-site request refused: accept the invitation from its page');
  let body: unknown;
  try {
    body = await readJsonBody(request);
  } catch (e) {
    if (e instanceof BodyError) return jsonError(e.status, e.message, e.field);
    throw e;
  }
  try {
    const r = await acceptInvitation(getDb(), body ?? {}, appClock().now());
    return Response.json(r, { headers: { 'cache-control': 'no-store' } });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return jsonError(e.httpStatus, e.message, e.field, e.details);
  }
}
