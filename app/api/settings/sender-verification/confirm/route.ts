import { getDb } from '@/db/client';
import { confirmSenderVerification } from '@/server/organisations/sender-identity';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/settings/sender-verification/confirm `{ token }` — an admin of the link's organisation, signed in,
 * confirms a verification link: the organisation's sender address is verified from now on (its mail goes From it).
 * 400 naming `token` for a link that is not this organisation's, used, expired, or for an address it no longer
 * has; 409 when another organisation verified the address first.
 */
export async function POST(request: Request) {
  return staffRoute(request, 'configure', (s, body) => confirmSenderVerification(getDb(), actionContext(s), body ?? {}));
}
