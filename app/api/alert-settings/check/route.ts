import { getDb } from '@/db/client';
import { checkAlertsNow } from '@/server/alerts/settings';
import { webAlertSenders } from '@/server/alerts/sender';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/alert-settings/check — admins only: evaluates this organisation's alert conditions now (as the worker's
 * minute sweep does) and sends what that planned at once. The same rules apply (a burst of dead letters is held
 * until a minute passes with no new one; at most one start per condition per hour). Answers
 * `{ planned, results }`. No settings saved → 409.
 */
export async function POST(request: Request) {
  return staffRoute(request, 'configure', (s) => checkAlertsNow(getDb(), actionContext(s), webAlertSenders()));
}
