import { getDb } from '@/db/client';
import { readRecentTestMessages, requestTestMessage } from '@/server/organisations/org-settings';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/** GET /api/settings/test-message — the organisation's latest test messages, newest first (every role). */
export async function GET(request: Request) {
  return staffRoute(request, 'read', (s) => readRecentTestMessages(getDb(), s.tenant.id));
}

/**
 * POST /api/settings/test-message `{ to? }` — admins ask a worker to send a test message through the organisation's
 * email provider (default address: their own). 400 naming `to`; 429 when the last one was asked for less than 10 s
 * ago (the sentence says when to try again). Answers the pending message `{ id, status: 'pending', … }`; poll
 * GET /api/settings/test-message/:id for the provider's answer.
 */
export async function POST(request: Request) {
  return staffRoute(request, 'configure', (s, body) => requestTestMessage(getDb(), actionContext(s), body ?? {}));
}
