/**
 * `GET /api/health` — the readiness check under its old name (kept for load balancers and `npm start`'s wait):
 * exactly `/api/health/ready` (server/platform/readiness.ts). 200 `{ ok: true, schema }`; 503 `{ ok: false, error }` when
 * shutting down, when PostgreSQL does not answer within 2 s (issue #12: it used to hang for over 20 s), or when the
 * database schema is behind this version.
 */
import { getDb } from '@/db/client';
import { healthResponse, readiness } from '@/server/platform/readiness';

export const dynamic = 'force-dynamic';

export async function GET() {
  return healthResponse(await readiness(getDb));
}
