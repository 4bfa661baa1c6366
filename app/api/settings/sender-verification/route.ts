import { getDb } from '@/db/client';
import { resendSenderVerification } from '@/server/organisations/sender-identity';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/settings/sender-verification — admins: mail a new verification link to the organisation's current
 * sender address (at most one a minute: 429). 409 when the address needs none (it is verified, or at one of the
 * deployment's sender domains). Answers the sender's status (server/organisations/sender-identity.ts SenderStatusView).
 */
export async function POST(request: Request) {
  return staffRoute(request, 'configure', (s) => resendSenderVerification(getDb(), actionContext(s)));
}
