/** `GET /api/health/ready` — readiness for a load balancer (server/readiness.ts): 200, or 503 saying why. */
import { getDb } from '../../../../db/client';
import { healthResponse, readiness } from '../../../../server/readiness';

export const dynamic = 'force-dynamic';

export async function GET() {
  return healthResponse(await readiness(getDb));
}
