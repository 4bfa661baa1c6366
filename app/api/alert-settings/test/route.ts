import { getDb } from '@/db/client';
import { sendTestAlert } from '@/server/alerts/settings';
import { webAlertSenders } from '@/server/alerts/sender';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/alert-settings/test — admins only: a test message on each saved route (each chosen staff member's
 * email, the Slack-compatible webhook), sent at once. Answers `{ results: [{ route, to, status, reason }] }`
 * (`status` sent | retrying | failed | skipped — skipped: left to the worker). No route saved → 400 naming
 * `emailRecipients`.
 */
export async function POST(request: Request) {
  return staffRoute(request, 'configure', (s) => sendTestAlert(getDb(), actionContext(s), webAlertSenders()));
}
