import { getDb } from '../../../../../db/client';
import { getEventPage } from '../../../../../db/queries/views';
import { getCurrentTenant } from '../../../../../server/current-tenant';

export const dynamic = 'force-dynamic';

const noStore = { 'cache-control': 'no-store' };

/**
 * GET /api/events/:id/timeline — the event page data as JSON (same shape as `getEventPage`), scoped to
 * the current tenant. 404 `{ error }` when there is no tenant or the event is not in it.
 */
export async function GET(_request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  const db = getDb();
  const tenant = await getCurrentTenant(db);
  if (!tenant) return Response.json({ error: 'no tenant' }, { status: 404, headers: noStore });
  const page = await getEventPage(db, tenant.id, id);
  if (!page) return Response.json({ error: 'event not found' }, { status: 404, headers: noStore });
  return Response.json(page, { headers: noStore });
}
