import { getDb } from '@/db/client';
import { parseDeliveriesQuery } from '@/domain/dashboards/log-filters';
import { deliveriesCsv } from '@/server/people/csv-exports';
import { csvResponse } from '@/app/_http/csv-response';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/exports/deliveries?q=&channel=&status=&from=&to= — the deliveries log as a CSV download, with exactly
 * the /deliveries page's filters (domain/dashboards/log-filters.ts; `page` is ignored: the export has every matching row, up
 * to the cap). Any signed-in staff role, like the page.
 */
export async function GET(request: Request) {
  return staffRoute(request, 'read', async (s) => csvResponse(await deliveriesCsv(getDb(), actionContext(s), parseDeliveriesQuery(new URL(request.url).searchParams))));
}
