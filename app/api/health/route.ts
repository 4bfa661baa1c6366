/** Liveness and database readiness: 200 `{ ok: true }` when PostgreSQL answers, 503 otherwise. */
import { sql } from 'drizzle-orm';
import { getDb } from '../../../db/client';

export const dynamic = 'force-dynamic';

export async function GET() {
  try {
    await getDb().execute(sql`select 1`);
    return Response.json({ ok: true });
  } catch {
    return Response.json({ ok: false, error: 'database unavailable' }, { status: 503 });
  }
}
