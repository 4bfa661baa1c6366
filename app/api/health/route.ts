/**
 * Liveness and database readiness: 200 `{ ok: true }` when PostgreSQL answers `select 1` within
 * {@link HEALTH_BUDGET_MS} (2 s), else 503 `{ ok: false, error }` saying why — "the database did not answer within
 * 2 s (it may be overloaded, locked or unreachable)" for a frozen or overloaded server, "database unavailable" when
 * it refuses. Always answers within about 2 s (issue #12: with PostgreSQL frozen it used to hang for over 20 s), so
 * a load balancer or `npm start`'s readiness wait gets an answer in time.
 */
import { sql } from 'drizzle-orm';
import { DatabaseTimeoutError, getDb, withDeadline } from '../../../db/client';

export const dynamic = 'force-dynamic';

/** How long the health check waits for the database, ms. */
const HEALTH_BUDGET_MS = 2_000;

export async function GET() {
  try {
    await withDeadline(
      Promise.resolve().then(() => getDb().execute(sql`select 1`)),
      HEALTH_BUDGET_MS,
    );
    return Response.json({ ok: true }, { headers: { 'cache-control': 'no-store' } });
  } catch (e) {
    // Not the driver's message: this route is public, and that would name hosts, ports and users.
    const error = e instanceof DatabaseTimeoutError ? e.message : 'database unavailable';
    return Response.json({ ok: false, error }, { status: 503, headers: { 'cache-control': 'no-store' } });
  }
}
