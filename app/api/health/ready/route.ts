/** `GET /api/health/ready` — readiness for a load balancer (server/platform/readiness.ts): 200, or 503 saying why. */
import { getDb } from '@/db/client';
import { healthResponse, readiness } from '@/server/platform/readiness';

export const dynamic = 'force-dynamic';

export async function GET() {
  return healthResponse(await readiness(getDb));
}
