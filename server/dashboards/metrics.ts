/**
 * Metrics (issue #11 §3), Prometheus text format through prom-client.
 *
 * Where they come from. The worker processes send; the endpoint (`GET /api/metrics`, app/api/metrics/route.ts)
 * lives in the web app. So:
 * - each worker keeps its own prom-client Registry ({@link createWorkerMetrics}): the send path reports into it
 *   through the `observe` hook of SendDeps (server/sending/send-reminder.ts) and the dispatcher through
 *   `DispatchPolicy.onClaimBatch` (server/sending/dispatch.ts); it also carries the worker's default process metrics.
 *   Every series of a worker's registry is labelled `role="worker"`, `worker_id="<hostname:pid:random>"`;
 * - every {@link SNAPSHOT_INTERVAL_MS} the worker upserts `registry.getMetricsAsJSON()` into `worker_metrics`
 *   ({@link publishWorkerMetrics}); a stopping worker deletes its row;
 * - at scrape time the web process ({@link scrapeMetrics}) reads the snapshots refreshed within the last
 *   {@link SNAPSHOT_MAX_AGE_SECONDS} s, merges them with prom-client's `AggregatorRegistry.aggregate`, adds the
 *   gauges computed from the database (db/queries/dashboards/metrics.ts) and its own default process metrics (`role="web"`).
 *
 * Why the worker label stays on the counters: `aggregate` sums values with the same name and labels. Summed
 * without a per-worker label, a counter would go DOWN when a worker stops or restarts (its share vanishes) and
 * Prometheus would read that as a reset and count the whole remaining sum again in `rate()`/`increase()`. With
 * `worker_id` every worker's counters stay monotonic series of their own, `aggregate` merges the families, and a
 * query sums them: `sum by (channel) (rate(punctual_send_outcomes_total[5m]))`. The one default metric whose
 * aggregator is `omit` (`process_start_time_seconds`) is kept per worker for the same reason.
 *
 * Metric names (units in the names; seconds throughout):
 *   worker-side (per worker_id)       punctual_send_lag_seconds{channel}                 histogram
 *                                     punctual_send_attempts_total{channel}              counter
 *                                     punctual_send_outcomes_total{class,channel}        counter
 *                                     punctual_claim_batch_duration_seconds              histogram
 *                                     punctual_claimed_reminders_total                   counter
 *   scrape time, from the database    punctual_dead_letters{channel}                     gauge
 *                                     punctual_unknown_outcomes{channel}                 gauge
 *                                     punctual_expired_unsent{stage,channel}             gauge
 *                                     punctual_oldest_due_unsent_age_seconds             gauge
 *                                     punctual_queue_jobs{task,state}                    gauge
 *                                     punctual_workers_reporting                         gauge
 *                                     punctual_database_up                               gauge
 *   prom-client defaults              process_cpu_seconds_total, process_resident_memory_bytes,
 *                                     nodejs_eventloop_lag_seconds, nodejs_heap_size_used_bytes, … per process
 *
 * Lag: due instant → provider call, on the sender's clock (the database's, invariant 10), of a delivery's FIRST
 * attempt only (a retry's wait is the retry policy, not lag), measured from `greatest(due_at, created_at)` — a
 * reminder planned after its due instant (a late booking) cannot have been sent before it existed; the same
 * definition as the `dispatch_lag` alert (db/queries/alerts/alerts.ts dispatchLagP95).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Outcome } from '@/channels/types';
import type { Db, DbOrTx } from '@/db/client';
import { deleteWorkerSnapshot, freshWorkerSnapshots, readMetricsGauges, upsertWorkerSnapshot } from '@/db/queries/dashboards/metrics';
import type { Delivery, Reminder } from '@/db/schema';
import { channels } from '@/domain/vocabulary';
import { errField, type Logger } from '@/server/platform/log';

/** How often a worker writes its snapshot, ms. */
const SNAPSHOT_INTERVAL_MS = 15_000;
/** Snapshots older than this (database clock) are left out of a scrape: their worker is gone or stuck, s. */
const SNAPSHOT_MAX_AGE_SECONDS = 120;
/** Lag buckets, s: 50 ms … 60 s (the idle target is p50 ≤ 100 ms, p99 ≤ 300 ms; a late-send window is minutes). */
const LAG_BUCKETS_S = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Claim batch buckets, s: 1 ms … 2.5 s (target ≤ 2 ms per 100-row claim at 1,000,000 reminders). */
const CLAIM_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * What the send path reports (server/sending/send-attempt.ts `attempt`, for `sendReminder` and `deliver`), through `SendDeps.observe`:
 * - `call`: a provider attempt starts (the delivery is `sending`, `attemptCount` is this attempt's number);
 * - `outcome`: the provider answered (or the adapter threw: `ambiguous`), before the outcome is recorded.
 * `at`: the sender's clock (`deps.clock.now()`, UTC). The rows are the ones `deliver` holds; read, never written.
 */
export type SendObservation =
  | { phase: 'call'; delivery: Delivery; reminder: Reminder; at: Date }
  | { phase: 'outcome'; delivery: Delivery; reminder: Reminder; outcome: Outcome; at: Date };

/** A worker's metrics: its registry and the hooks that feed it. */
export interface WorkerMetrics {
  registry: Registry;
  /** This worker's id (`worker_id` label), or null for a label-less registry (the endpoint's empty families). */
  workerId: string | null;
  /** The `SendDeps.observe` hook: counts, lag, and one log line per attempt outcome. Never throws. */
  observeSend(e: SendObservation): void;
  /** The `DispatchPolicy.onClaimBatch` hook: one claim transaction took `seconds` and claimed `claimed` reminders. */
  observeClaimBatch(seconds: number, claimed: number): void;
}

/**
 * A new registry with Punctual's worker-side metrics (see module doc).
 * @param opts.workerId labels every series `role="worker", worker_id=<id>` (omit for the empty template).
 * @param opts.processMetrics also collect prom-client's default process metrics into it (default: true with a workerId).
 * @param opts.logger where each attempt's outcome is logged (fields: reminderId, deliveryId, messageKey, attemptNo,
 *   tenantId, channel, provider, outcome, lagSeconds on the first attempt, errorCode/errorMessage when not accepted).
 */
export function createWorkerMetrics(opts: { workerId?: string; processMetrics?: boolean; logger?: Logger } = {}): WorkerMetrics {
  const registry = new Registry();
  const registers = [registry];
  if (opts.workerId) registry.setDefaultLabels({ role: 'worker', worker_id: opts.workerId });
  if (opts.processMetrics ?? !!opts.workerId) collectDefaultMetrics({ register: registry });
  const lag = new Histogram({
    name: 'punctual_send_lag_seconds',
    help: 'Due instant (or creation, if later) to provider call of a delivery\'s first attempt, seconds, on the database clock.',
    labelNames: ['channel'],
    buckets: LAG_BUCKETS_S,
    registers,
  });
  const attempts = new Counter({ name: 'punctual_send_attempts_total', help: 'Provider attempts started (a retry is another attempt).', labelNames: ['channel'], registers });
  const outcomes = new Counter({
    name: 'punctual_send_outcomes_total',
    help: 'Provider answers by outcome class (accepted, transient, rate_limited, ambiguous, rejected) and channel.',
    labelNames: ['class', 'channel'],
    registers,
  });
  const claimBatch = new Histogram({
    name: 'punctual_claim_batch_duration_seconds',
    help: 'Duration of one dispatcher claim transaction (due reminders claimed and their send jobs added), seconds.',
    buckets: CLAIM_BUCKETS_S,
    registers,
  });
  const claimed = new Counter({ name: 'punctual_claimed_reminders_total', help: 'Reminders claimed by the dispatcher.', registers });
  const log = opts.logger;
  return {
    registry,
    workerId: opts.workerId ?? null,
    observeSend(e) {
      try {
        const d = e.delivery;
        const fields = {
          reminderId: d.reminderId,
          deliveryId: d.id,
          messageKey: d.messageKey,
          attemptNo: d.attemptCount,
          tenantId: d.tenantId,
          channel: d.channel,
          provider: d.provider,
        };
        if (e.phase === 'call') {
          attempts.inc({ channel: d.channel });
          let lagSeconds: number | undefined;
          if (d.attemptCount === 1) {
            const from = Math.max(e.reminder.dueAt.getTime(), e.reminder.createdAt.getTime());
            lagSeconds = Math.max(0, (e.at.getTime() - from) / 1000);
            lag.observe({ channel: d.channel }, lagSeconds);
          }
          log?.debug({ ...fields, lagSeconds }, 'provider call');
          return;
        }
        const o = e.outcome;
        outcomes.inc({ class: o.class, channel: d.channel });
        if (o.class === 'accepted') log?.info({ ...fields, outcome: o.class, providerId: o.providerId }, 'send attempt');
        else log?.warn({ ...fields, outcome: o.class, errorCode: o.code, errorMessage: o.message }, 'send attempt');
      } catch (err) {
        log?.warn({ err: errField(err) }, 'metrics: send observation failed');
      }
    },
    observeClaimBatch(seconds, n) {
      claimBatch.observe(seconds);
      claimed.inc(n);
    },
  };
}

/** A running snapshot publisher (see {@link publishWorkerMetrics}). */
interface MetricsPublisher {
  /** Writes the snapshot now. @throws the database's error. */
  publishNow(): Promise<void>;
  /** Stops the timer, waits for a write in progress, deletes this worker's row. Never throws (logs instead). */
  stop(): Promise<void>;
}

/**
 * Writes `metrics`' snapshot to `worker_metrics` now and every `intervalMs` (default {@link SNAPSHOT_INTERVAL_MS})
 * until stopped. A failed periodic write is logged (`logger.warn`) and retried at the next tick.
 * @throws when `metrics` has no worker id.
 */
export function publishWorkerMetrics(db: Db, metrics: WorkerMetrics, opts: { intervalMs?: number; logger?: Logger } = {}): MetricsPublisher {
  const workerId = metrics.workerId;
  if (!workerId) throw new Error('publishWorkerMetrics: the registry has no worker id');
  let inFlight: Promise<void> | null = null;
  const publishNow = async () => {
    const run = (async () => upsertWorkerSnapshot(db, workerId, await metrics.registry.getMetricsAsJSON()))();
    inFlight = run.catch(() => {});
    return run;
  };
  const timer = setInterval(() => {
    if (inFlight) return;
    publishNow()
      .catch((e) => opts.logger?.warn({ err: errField(e) }, 'metrics snapshot not written'))
      .finally(() => (inFlight = null));
  }, opts.intervalMs ?? SNAPSHOT_INTERVAL_MS);
  timer.unref();
  let stopped = false;
  return {
    publishNow,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await inFlight;
      await deleteWorkerSnapshot(db, workerId).catch((e) => opts.logger?.warn({ err: errField(e) }, 'metrics snapshot not deleted'));
    },
  };
}

// ---------------------------------------------------------------------------------------------- the endpoint

/** The variable that holds the scrape token. */
const METRICS_TOKEN_VAR = 'PUNCTUAL_METRICS_TOKEN';
/** Shortest accepted token (a guessable token would expose the installation's counts). */
const METRICS_TOKEN_MIN_LENGTH = 16;

type MetricsAuth = { ok: true } | { ok: false; status: 401 | 503; message: string };

/**
 * Checks a scrape's `Authorization` header against PUNCTUAL_METRICS_TOKEN (`Bearer <token>`, scheme case-insensitive).
 * - variable unset, empty or shorter than {@link METRICS_TOKEN_MIN_LENGTH} → 503 naming the variable (the endpoint
 *   is switched off; 503 rather than 404 so an operator wiring up Prometheus is told what to set);
 * - header missing, another scheme, or another token → 401.
 * The comparison is constant-time: both tokens are hashed (SHA-256) and the digests compared with timingSafeEqual,
 * so neither the content nor the length of the expected token leaks through timing.
 */
export function checkMetricsAuth(authorization: string | null, env: NodeJS.ProcessEnv = process.env): MetricsAuth {
  const expected = env[METRICS_TOKEN_VAR]?.trim() ?? '';
  if (expected.length < METRICS_TOKEN_MIN_LENGTH) {
    return {
      ok: false,
      status: 503,
      message: `metrics are switched off: set ${METRICS_TOKEN_VAR} to a secret of at least ${METRICS_TOKEN_MIN_LENGTH} characters (e.g. \`openssl rand -hex 32\`) and scrape with "Authorization: Bearer <token>"`,
    };
  }
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  const given = digest(m?.[1] ?? '');
  if (!m || !timingSafeEqual(given, digest(expected))) return { ok: false, status: 401, message: 'a valid bearer token is required' };
  return { ok: true };
}

/** The content type of {@link scrapeMetrics}' text (Prometheus exposition format 0.0.4). */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

type Family = { name: string; help: string; type: string; aggregator?: string; values: { value: unknown; labels?: Record<string, unknown>; metricName?: string }[] };

const globalForMetrics = globalThis as unknown as { __punctualWebMetrics?: Registry; __punctualMetricFamilies?: WorkerMetrics };

/** The web process's registry: prom-client's default process metrics, labelled `role="web"` (one per process). */
function webRegistry(): Registry {
  if (!globalForMetrics.__punctualWebMetrics) {
    const r = new Registry();
    r.setDefaultLabels({ role: 'web' });
    collectDefaultMetrics({ register: r });
    globalForMetrics.__punctualWebMetrics = r;
  }
  return globalForMetrics.__punctualWebMetrics;
}

/**
 * A registry's JSON (a stored snapshot, or the web's own) made safe to aggregate: values that JSON turned into null
 * (NaN, ±Infinity) dropped; aggregator `omit` → `first` (the family's first registry decides its aggregator).
 */
function cleanSnapshot(snapshot: unknown): Family[] {
  if (!Array.isArray(snapshot)) return [];
  return (snapshot as Family[])
    .filter((f) => f && typeof f.name === 'string' && Array.isArray(f.values))
    .map((f) => ({
      ...f,
      // Every worker series carries its worker_id, so no two workers' values are ever combined; `omit` would drop them.
      aggregator: f.aggregator === 'omit' ? 'first' : (f.aggregator ?? 'sum'),
      values: f.values.filter((v) => typeof v.value === 'number' && Number.isFinite(v.value)),
    }));
}

/**
 * The whole scrape as Prometheus text: the workers' fresh snapshots merged, the database gauges, the web
 * process's defaults. When the database cannot be read, the answer still comes (web process metrics and the
 * worker families without values) with `punctual_database_up 0`, and the error is logged.
 */
export async function scrapeMetrics(db: DbOrTx, opts: { logger?: Logger; maxSnapshotAgeSeconds?: number } = {}): Promise<string> {
  const scrape = new Registry();
  const registers = [scrape];
  const up = new Gauge({ name: 'punctual_database_up', help: '1 when this scrape could read the database, else 0 (the gauges below are then absent).', registers });
  const workers = new Gauge({ name: 'punctual_workers_reporting', help: `Worker processes whose metric snapshot is at most ${SNAPSHOT_MAX_AGE_SECONDS} s old.`, registers });
  const dead = new Gauge({ name: 'punctual_dead_letters', help: 'Deliveries that will not be retried automatically (status dead) until a person replays or discards them.', labelNames: ['channel'], registers });
  const unknown = new Gauge({ name: 'punctual_unknown_outcomes', help: 'Deliveries whose provider call may or may not have sent the message (status unknown).', labelNames: ['channel'], registers });
  const expired = new Gauge({
    name: 'punctual_expired_unsent',
    help: 'Messages that passed their expiry instant unsent: stage=reminder (never claimed), stage=delivery (a retry would have landed after expiry).',
    labelNames: ['stage', 'channel'],
    registers,
  });
  const oldest = new Gauge({ name: 'punctual_oldest_due_unsent_age_seconds', help: 'Age of the oldest reminder that is due, not expired and not yet sent (scheduled or dispatched), seconds; 0 when none.', registers });
  const queue = new Gauge({ name: 'punctual_queue_jobs', help: 'graphile-worker jobs by task and state (ready: runnable now; waiting: run_at in the future; running: locked; failed: out of attempts).', labelNames: ['task', 'state'], registers });
  let snapshots: Family[][] = [];
  try {
    const [rows, g] = await Promise.all([freshWorkerSnapshots(db, opts.maxSnapshotAgeSeconds ?? SNAPSHOT_MAX_AGE_SECONDS), readMetricsGauges(db)]);
    snapshots = rows.map((r) => cleanSnapshot(r.snapshot));
    workers.set(rows.length);
    for (const channel of channels) {
      dead.set({ channel }, 0);
      unknown.set({ channel }, 0);
      expired.set({ stage: 'reminder', channel }, 0);
      expired.set({ stage: 'delivery', channel }, 0);
    }
    for (const d of g.deliveries) {
      if (d.status === 'dead') dead.set({ channel: d.channel }, d.count);
      else if (d.status === 'unknown') unknown.set({ channel: d.channel }, d.count);
      else expired.set({ stage: 'delivery', channel: d.channel }, d.count);
    }
    for (const r of g.expiredReminders) expired.set({ stage: 'reminder', channel: r.channel }, r.count);
    oldest.set(g.oldestDueAgeSeconds);
    for (const q of g.queue) queue.set({ task: q.task, state: q.state }, q.count);
    up.set(1);
  } catch (e) {
    up.set(0);
    for (const name of ['punctual_workers_reporting', 'punctual_dead_letters', 'punctual_unknown_outcomes', 'punctual_expired_unsent', 'punctual_oldest_due_unsent_age_seconds', 'punctual_queue_jobs']) scrape.removeSingleMetric(name);
    opts.logger?.error({ err: errField(e) }, 'metrics: database not readable');
  }
  // The worker families without values first, so every name is present even before any worker has reported (an
  // unlabelled counter or histogram of prom-client reports 0 from its creation: those zeros are not a worker's).
  globalForMetrics.__punctualMetricFamilies ??= createWorkerMetrics({ processMetrics: false });
  const families = (await globalForMetrics.__punctualMetricFamilies.registry.getMetricsAsJSON()).map((f) => ({ ...f, values: [] }));
  const merged = AggregatorRegistry.aggregate([
    families,
    ...snapshots,
    cleanSnapshot(await webRegistry().getMetricsAsJSON()),
    await scrape.getMetricsAsJSON(),
  ]);
  return merged.metrics();
}
