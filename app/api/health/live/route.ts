/**
 * `GET /api/health/live` — liveness for a process supervisor (server/platform/readiness.ts): 200 whenever the process
 * answers, with no database query, so a database outage never gets the web processes restarted.
 */
import { healthResponse, liveness } from '@/server/platform/readiness';

export const dynamic = 'force-dynamic';

export function GET() {
  return healthResponse(liveness());
}
