import { getDb } from '@/db/client';
import { parseReminderWindowHours } from '@/domain/dashboards/today';
import { appClock } from '@/server/platform/clock';
import { staffRoute } from '@/app/_http/session';
import { loadToday } from '@/server/dashboards/today';

export const dynamic = 'force-dynamic';

/**
 * GET /api/today?hours=1|3|6|12 — the front desk's today view (server/dashboards/today.ts TodayData) of the signed-in staff
 * member's tenant, as of the database's clock; `hours` is the reminders window (anything else: 3). Every role
 * may read it. 401 signed out.
 */
export async function GET(request: Request) {
  const hours = parseReminderWindowHours(new URL(request.url).searchParams.get('hours'));
  return staffRoute(request, 'read', async ({ tenant }) => loadToday(getDb(), tenant, appClock().now(), hours));
}
