import { getDb } from '@/db/client';
import { parseAuditQuery } from '@/domain/dashboards/log-filters';
import { auditCsv } from '@/server/people/csv-exports';
import { csvResponse } from '@/app/_http/csv-response';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/exports/audit?action=&from=&to= — the audit log as a CSV download, with exactly the /audit page's
 * filters (domain/dashboards/log-filters.ts; `page` ignored). Any signed-in staff role, like the page. The export itself is
 * recorded in the audit log (action `export`, with the filters).
 */
export async function GET(request: Request) {
  return staffRoute(request, 'read', async (s) => csvResponse(await auditCsv(getDb(), actionContext(s), parseAuditQuery(new URL(request.url).searchParams))));
}
