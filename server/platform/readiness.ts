/**
 * Liveness and readiness (issue #13 part 7), for the web app's `/api/health/live` and `/api/health/ready` (and the
 * `/api/health` alias) and for the worker's optional health port (PUNCTUAL_WORKER_HEALTH_PORT, scripts/worker.ts).
 *
 *   live   the process answers; no database. Give it to the process supervisor (Kubernetes livenessProbe, a
 *          systemd/monit check): failing means "restart me".
 *   ready  the process should get work: it is not shutting down (SIGTERM received), PostgreSQL answers within
 *          {@link READY_BUDGET_MS}, and the database schema is at this build's migration or newer
 *          (domain/platform/schema-version.ts). Give it to the load balancer (readinessProbe, proxy health check): failing
 *          means "send traffic elsewhere", never "restart".
 *
 * Answers never carry the driver's error text (a public route must not name hosts, ports or users).
 */
import type { Db } from '@/db/client';
import { DatabaseTimeoutError, withDeadline } from '@/db/client';
import { buildJournal } from '@/db/journal';
import { lastAppliedMigrationWhen } from '@/db/queries/platform/migrations';
import { schemaBehindLine, schemaStatus, type JournalEntry } from '@/domain/platform/schema-version';

/** How long readiness waits for the database (both queries together), ms. */
const READY_BUDGET_MS = 2_000;

interface HealthAnswer {
  status: 200 | 503;
  body: { ok: true; schema?: 'current' | 'ahead'; note?: string } | { ok: false; error: string };
}

const globalForLifecycle = globalThis as unknown as { __punctualShuttingDown?: boolean };

/** Marks this process as shutting down: readiness answers 503 from now on (a proxy drains it). */
export function markShuttingDown(): void {
  globalForLifecycle.__punctualShuttingDown = true;
}

/** Whether {@link markShuttingDown} was called in this process. */
function isShuttingDown(): boolean {
  return globalForLifecycle.__punctualShuttingDown === true;
}

/** Liveness: always 200 — answering at all is the test. */
export function liveness(): HealthAnswer {
  return { status: 200, body: { ok: true } };
}

/**
 * Readiness of a process using `db` (see the module doc). 503 bodies: `shutting down`, `database unavailable`,
 * `the database did not answer within 2 s (…)`, or `database schema is behind this version: run npm run migrate
 * (pending: …)`. A schema newer than this build is ready, with `schema: "ahead"` and a note saying so.
 */
export async function readiness(getDb: () => Db, opts: { budgetMs?: number; journal?: readonly JournalEntry[]; stopping?: boolean } = {}): Promise<HealthAnswer> {
  if (opts.stopping ?? isShuttingDown()) return { status: 503, body: { ok: false, error: 'shutting down' } };
  let last: number | null;
  try {
    last = await withDeadline(
      Promise.resolve().then(() => lastAppliedMigrationWhen(getDb())),
      opts.budgetMs ?? READY_BUDGET_MS,
    );
  } catch (e) {
    const error = e instanceof DatabaseTimeoutError ? e.message : 'database unavailable';
    return { status: 503, body: { ok: false, error } };
  }
  const status = schemaStatus(opts.journal ?? buildJournal, last);
  if (status.state === 'behind') return { status: 503, body: { ok: false, error: schemaBehindLine(status.pending) } };
  if (status.state === 'ahead') {
    return { status: 200, body: { ok: true, schema: 'ahead', note: 'the database schema is newer than this version (a newer version migrated it): fine while a deploy replaces this process' } };
  }
  return { status: 200, body: { ok: true, schema: 'current' } };
}

/** A {@link HealthAnswer} as an HTTP response (never cached). */
export function healthResponse(a: HealthAnswer): Response {
  return Response.json(a.body, { status: a.status, headers: { 'cache-control': 'no-store' } });
}
