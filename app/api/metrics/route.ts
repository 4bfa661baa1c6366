/**
 * `GET /api/metrics`: Prometheus text format (issue #11 §3; what is in it: server/dashboards/metrics.ts). No session: the
 * credential is `Authorization: Bearer $PUNCTUAL_METRICS_TOKEN` (proxy.ts lets the path through). Answers:
 * 200 the metrics; 401 without the right token; 503 naming PUNCTUAL_METRICS_TOKEN when it is unset (metrics off).
 * Never cached. The database gauges are read at each scrape (db/queries/dashboards/metrics.ts).
 */
import { getDb } from '@/db/client';
import { childLogger } from '@/server/platform/log';
import { checkMetricsAuth, METRICS_CONTENT_TYPE, scrapeMetrics } from '@/server/dashboards/metrics';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const noStore = { 'cache-control': 'no-store' };

export async function GET(request: Request): Promise<Response> {
  const auth = checkMetricsAuth(request.headers.get('authorization'));
  if (!auth.ok) {
    const headers: Record<string, string> = { ...noStore, 'content-type': 'text/plain; charset=utf-8' };
    if (auth.status === 401) headers['www-authenticate'] = 'Bearer realm="punctual-metrics"';
    return new Response(`${auth.message}\n`, { status: auth.status, headers });
  }
  const text = await scrapeMetrics(getDb(), { logger: childLogger({ role: 'web', route: '/api/metrics' }) });
  return new Response(text, { headers: { ...noStore, 'content-type': METRICS_CONTENT_TYPE } });
}
