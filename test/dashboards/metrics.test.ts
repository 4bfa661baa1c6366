/**
 * Metrics and structured logs (issue #11 §3), against the real database and the real SMTP catcher:
 * - `GET /api/metrics` (the route handler called directly): 503 naming PUNCTUAL_METRICS_TOKEN while it is unset,
 *   401 without or with a wrong token, 200 with Prometheus text that parses and names every metric;
 * - a real send through sendReminder with the `observe` hook wired to a worker registry moves the lag histogram and
 *   the outcome counter, and after the worker's snapshot is written the endpoint's merged output shows them;
 *   a stale snapshot is left out, a stopped worker's row is gone; a real startWorker publishes its process metrics;
 * - the database gauges follow seeded rows (dead letters, unknown outcomes, expired, oldest due, queue depth);
 * - each attempt's log line carries reminderId and deliveryId (pino output captured through a destination stream),
 *   and an unexpected route error is logged by instrumentation.ts onRequestError.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { deliveries, reminders, workerMetrics } from '@/db/schema';
import { startWorker } from '@/jobs/worker';
import { defaultDispatchPolicy, dispatchDue } from '@/server/sending/dispatch';
import { createLogger, logLevelFromEnv } from '@/server/platform/log';
import { createWorkerMetrics, publishWorkerMetrics, type WorkerMetrics } from '@/server/dashboards/metrics';
import { createHarness, type Harness } from '@/test/support/harness';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';

const TOKEN = 'metrics-test-token-0123456789abcdef';
let h: Harness;
let metrics: WorkerMetrics;
let logLines: string[];
let route: typeof import('@/app/api/metrics/route');
let saved: { url?: string; token?: string };

beforeAll(async () => {
  logLines = [];
  // The worker registry of this file's "worker": its attempt log lines go to `logLines` (one JSON object per write).
  metrics = createWorkerMetrics({ workerId: 'test-worker-1', logger: createLogger({ level: 'info', destination: { write: (s: string) => void logLines.push(s) } }) });
  h = await createHarness({ deps: { observe: metrics.observeSend } });
  saved = { url: process.env.DATABASE_URL, token: process.env.PUNCTUAL_METRICS_TOKEN };
  // The route handler uses the process-wide pool: point it at this file's database.
  process.env.DATABASE_URL = h.tdb.url;
  delete (globalThis as { __punctualDb?: unknown }).__punctualDb;
  route = await import('@/app/api/metrics/route');
});

afterAll(async () => {
  const g = globalThis as { __punctualDb?: { close(): Promise<void> } };
  await g.__punctualDb?.close();
  delete g.__punctualDb;
  process.env.DATABASE_URL = saved?.url;
  if (saved?.token === undefined) delete process.env.PUNCTUAL_METRICS_TOKEN;
  else process.env.PUNCTUAL_METRICS_TOKEN = saved.token;
  await h?.close();
});

beforeEach(async () => {
  process.env.PUNCTUAL_METRICS_TOKEN = TOKEN;
  await h.tdb.reset();
  await h.tdb.sql`delete from worker_metrics`;
});

const db = () => h.tdb.db;

/** GET /api/metrics through the route handler, with `authorization` as given. */
async function scrape(authorization?: string): Promise<Response> {
  return route.GET(new Request('http://127.0.0.1:3999/api/metrics', { headers: authorization ? { authorization } : {} }));
}

type Sample = { name: string; labels: Record<string, string>; value: number };

/**
 * Parses Prometheus text format 0.0.4 strictly enough to fail on garbage: every line is a `# HELP`/`# TYPE`
 * comment or `name{labels} value`. Returns the samples and the declared families (name → type).
 */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const t = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (t) {
      types.set(t[1], t[2]);
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/.test(line)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?(?:[0-9.]+(?:e[+-]?[0-9]+)?|NaN|\+Inf|-Inf))$/.exec(line);
    if (!m) throw new Error(`not Prometheus text: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: m[3] === '+Inf' ? Infinity : Number(m[3]) });
  }
  return { samples, types };
}

/** The samples of `name` whose labels include `labels` (values compared as text: a registry's `le` is a number). */
function find(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] !== undefined && String(s.labels[k]) === v));
}

/** A registry's current samples, straight from prom-client (no endpoint). */
async function samplesOf(m: WorkerMetrics): Promise<Sample[]> {
  const json = await m.registry.getMetricsAsJSON();
  return json.flatMap((f) => f.values.map((v) => ({ name: (v as { metricName?: string }).metricName ?? f.name, labels: v.labels as Record<string, string>, value: v.value })));
}

async function scrapeOk(): Promise<Sample[]> {
  const res = await scrape(`Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text()).samples;
}

/** One reminder due at 2027-06-15T07:00:00Z, sent `lateBy` seconds after its due instant through the queue. */
async function sendOne(lateBy = 2, opts: { observeClaims?: WorkerMetrics } = {}) {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
  const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
  h.clock.set(new Date(Date.parse('2027-06-15T07:00:00Z') + lateBy * 1000));
  await dispatchDue(db(), h.clock.now(), { ...defaultDispatchPolicy, onClaimBatch: opts.observeClaims?.observeClaimBatch });
  await h.drain();
  const [reminder] = await db().select().from(reminders).where(eq(reminders.bookingId, booking.id));
  const [delivery] = await db().select().from(deliveries).where(eq(deliveries.reminderId, reminder.id));
  expect(delivery.status, delivery.statusReason ?? '').toBe('accepted');
  return { tenant, reminder, delivery };
}

const METRIC_NAMES = [
  'punctual_send_lag_seconds',
  'punctual_send_attempts_total',
  'punctual_send_outcomes_total',
  'punctual_claim_batch_duration_seconds',
  'punctual_claimed_reminders_total',
  'punctual_dead_letters',
  'punctual_unknown_outcomes',
  'punctual_expired_unsent',
  'punctual_oldest_due_unsent_age_seconds',
  'punctual_queue_jobs',
  'punctual_workers_reporting',
  'punctual_database_up',
  // prom-client's default process metrics (of the web process here)
  'process_cpu_seconds_total',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_seconds',
  'nodejs_heap_size_used_bytes',
];

describe('GET /api/metrics: the bearer token', () => {
  it('answers 503 naming PUNCTUAL_METRICS_TOKEN while it is unset or too short to be a secret', async () => {
    delete process.env.PUNCTUAL_METRICS_TOKEN;
    let res = await scrape(`Bearer ${TOKEN}`);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('PUNCTUAL_METRICS_TOKEN');
    process.env.PUNCTUAL_METRICS_TOKEN = 'short';
    res = await scrape('Bearer short');
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('PUNCTUAL_METRICS_TOKEN');
  });

  it('answers 401 without a token, with a wrong one, a longer one, or another scheme', async () => {
    for (const auth of [undefined, 'Bearer wrong-token-wrong-token-wrong', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await scrape(auth);
      expect(res.status, String(auth)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await res.text()).not.toContain('punctual_');
    }
  });

  it('the proxy lets /api/metrics through without a session (the bearer token is the credential), and nothing under it', async () => {
    const { NextRequest } = await import('next/server');
    const { proxy } = await import('@/proxy');
    const res = proxy(new NextRequest('http://127.0.0.1:3999/api/metrics'));
    expect(res.headers.get('x-middleware-next')).toBe('1');
    expect(proxy(new NextRequest('http://127.0.0.1:3999/api/metrics/other')).status).toBe(401);
  });

  it('answers 200 with the token: Prometheus text that parses and declares every metric, with help texts', async () => {
    const res = await scrape(`bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    const { types, samples } = parseExposition(text);
    for (const name of METRIC_NAMES) {
      expect(types.has(name), name).toBe(true);
      expect(text).toMatch(new RegExp(`^# HELP ${name} \\S`, 'm'));
    }
    expect(types.get('punctual_send_lag_seconds')).toBe('histogram');
    expect(types.get('punctual_send_outcomes_total')).toBe('counter');
    expect(types.get('punctual_dead_letters')).toBe('gauge');
    expect(find(samples, 'punctual_database_up')[0].value).toBe(1);
    // The web process's own defaults, told apart from the workers' by `role`.
    expect(find(samples, 'process_resident_memory_bytes', { role: 'web' })[0].value).toBeGreaterThan(0);
  });
});

describe('worker metrics: a real send, the snapshot, the merged scrape', () => {
  it('one send moves the lag histogram (2 s late), attempts, the accepted counter and the claim batch histogram', async () => {
    const before = find(await samplesOf(metrics), 'punctual_send_lag_seconds_count', { channel: 'email' });
    const lagCountBefore = before[0]?.value ?? 0;
    const claims = createWorkerMetrics({ workerId: 'test-dispatcher' });
    await sendOne(2, { observeClaims: claims });
    const flat = await samplesOf(metrics);
    expect(find(flat, 'punctual_send_lag_seconds_count', { channel: 'email' })[0].value).toBe(lagCountBefore + 1);
    // 2 s after the due instant: in the 2.5 s bucket, not in the 1 s one.
    const bucket = (le: string) => find(flat, 'punctual_send_lag_seconds_bucket', { channel: 'email', le })[0].value;
    expect(bucket('2.5') - bucket('1')).toBeGreaterThanOrEqual(1);
    expect(find(flat, 'punctual_send_outcomes_total', { class: 'accepted', channel: 'email' })[0].value).toBeGreaterThanOrEqual(1);
    expect(find(flat, 'punctual_send_attempts_total', { channel: 'email' })[0].value).toBeGreaterThanOrEqual(1);
    const claimFlat = await samplesOf(claims);
    expect(find(claimFlat, 'punctual_claim_batch_duration_seconds_count')[0].value).toBeGreaterThanOrEqual(1);
    expect(find(claimFlat, 'punctual_claimed_reminders_total')[0].value).toBe(1);
  });

  it('after the snapshot is written the endpoint shows the worker series; a stale snapshot is left out; a stopped worker removes its row', async () => {
    await sendOne(2);
    const publisher = publishWorkerMetrics(db(), metrics, { intervalMs: 60_000 });
    const other = createWorkerMetrics({ workerId: 'test-worker-2' });
    other.observeClaimBatch(0.003, 5);
    const otherPublisher = publishWorkerMetrics(db(), other, { intervalMs: 60_000 });
    try {
      await publisher.publishNow();
      await otherPublisher.publishNow();
      let samples = await scrapeOk();
      const mine = { worker_id: 'test-worker-1', role: 'worker' };
      expect(find(samples, 'punctual_send_lag_seconds_count', { ...mine, channel: 'email' })[0].value).toBeGreaterThanOrEqual(1);
      expect(find(samples, 'punctual_send_lag_seconds_bucket', { ...mine, channel: 'email', le: '+Inf' })[0].value).toBeGreaterThanOrEqual(1);
      expect(find(samples, 'punctual_send_outcomes_total', { ...mine, class: 'accepted', channel: 'email' })[0].value).toBeGreaterThanOrEqual(1);
      // Two workers merged into one family each, every worker's series its own (counters stay monotonic per worker).
      expect(find(samples, 'punctual_claimed_reminders_total', { worker_id: 'test-worker-2' })[0].value).toBe(5);
      expect(find(samples, 'punctual_claim_batch_duration_seconds_count', { worker_id: 'test-worker-2' })[0].value).toBe(1);
      expect(find(samples, 'punctual_workers_reporting')[0].value).toBe(2);
      // Every worker series names its worker: nothing without one (e.g. a zero from an empty registry).
      for (const s of samples.filter((x) => /^punctual_(send|claim)/.test(x.name))) expect(s.labels.worker_id, s.name).toBeDefined();
      // The workers' default process metrics (this test's registries: test-worker-1 collects them).
      expect(find(samples, 'process_resident_memory_bytes', mine)[0].value).toBeGreaterThan(0);
      expect(find(samples, 'process_start_time_seconds', mine)).toHaveLength(1);

      // A worker silent for 3 minutes is gone or stuck: its series leave the scrape.
      await h.tdb.sql`update worker_metrics set updated_at = now() - interval '3 minutes' where worker_id = 'test-worker-2'`;
      samples = await scrapeOk();
      expect(find(samples, 'punctual_claimed_reminders_total', { worker_id: 'test-worker-2' })).toHaveLength(0);
      expect(find(samples, 'punctual_workers_reporting')[0].value).toBe(1);
    } finally {
      await publisher.stop();
      await otherPublisher.stop();
    }
    expect(await db().select().from(workerMetrics)).toHaveLength(0);
    const samples = await scrapeOk();
    expect(find(samples, 'punctual_send_lag_seconds_count')).toHaveLength(0);
    expect(find(samples, 'punctual_workers_reporting')[0].value).toBe(0);
  });

  it('a real worker (startWorker) publishes its snapshot with its process metrics at start and deletes it when it stops', async () => {
    const worker = await startWorker({ databaseUrl: h.tdb.url, channel: h.ctx.channel, clock: h.clock, config: { concurrency: 2 } });
    let workerId: string;
    try {
      const rows = await db().select().from(workerMetrics);
      expect(rows).toHaveLength(1);
      workerId = rows[0].workerId;
      const samples = await scrapeOk();
      expect(find(samples, 'process_cpu_seconds_total', { role: 'worker', worker_id: workerId })[0].value).toBeGreaterThan(0);
      // Its start-up dispatcher pass was timed.
      expect(find(samples, 'punctual_claim_batch_duration_seconds_count', { worker_id: workerId })[0].value).toBeGreaterThanOrEqual(1);
    } finally {
      await worker.stop();
    }
    expect(await db().select().from(workerMetrics)).toHaveLength(0);
  });
});

describe('database gauges at scrape time', () => {
  it('follow seeded rows: dead letters, unknown outcomes, expired unsent, oldest due-but-unsent age, queue depth', async () => {
    let samples = await scrapeOk();
    expect(find(samples, 'punctual_dead_letters', { channel: 'email' })[0].value).toBe(0);
    expect(find(samples, 'punctual_oldest_due_unsent_age_seconds')[0].value).toBe(0);

    const a = await sendOne(1);
    const b = await sendOne(1);
    const c = await sendOne(1);
    await h.tdb.sql`update deliveries set status = 'dead', repair_owner = 'configuration' where id = ${a.delivery.id}`;
    await h.tdb.sql`update deliveries set status = 'unknown' where id = ${b.delivery.id}`;
    await h.tdb.sql`update deliveries set status = 'expired' where id = ${c.delivery.id}`;
    // A reminder that expired unsent, and one due 90 s ago (database clock) that is still waiting.
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }, { offset: '-PT2H' }]);
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-09-01T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    const [r1, r2] = await db().select().from(reminders).where(eq(reminders.bookingId, booking.id)).orderBy(reminders.dueAt);
    await h.tdb.sql`update reminders set status = 'expired' where id = ${r1.id}`;
    await h.tdb.sql`update reminders set due_at = now() - interval '90 seconds', expires_at = now() + interval '1 hour' where id = ${r2.id}`;
    // Queue: one job runnable now, one for later.
    await enqueueJob(db(), 'dispatch_due', { reason: 'metrics-test' });
    await enqueueJob(db(), 'send_alert', { id: 'x' }, { runAt: new Date(Date.now() + 3_600_000) });

    samples = await scrapeOk();
    expect(find(samples, 'punctual_dead_letters', { channel: 'email' })[0].value).toBe(1);
    expect(find(samples, 'punctual_dead_letters', { channel: 'sms' })[0].value).toBe(0);
    expect(find(samples, 'punctual_unknown_outcomes', { channel: 'email' })[0].value).toBe(1);
    expect(find(samples, 'punctual_expired_unsent', { stage: 'delivery', channel: 'email' })[0].value).toBe(1);
    expect(find(samples, 'punctual_expired_unsent', { stage: 'reminder', channel: 'email' })[0].value).toBe(1);
    const age = find(samples, 'punctual_oldest_due_unsent_age_seconds')[0].value;
    expect(age).toBeGreaterThanOrEqual(89);
    expect(age).toBeLessThan(300);
    expect(find(samples, 'punctual_queue_jobs', { task: 'dispatch_due', state: 'ready' })[0].value).toBe(1);
    expect(find(samples, 'punctual_queue_jobs', { task: 'send_alert', state: 'waiting' })[0].value).toBe(1);
    expect(find(samples, 'punctual_queue_jobs', { task: 'send_alert', state: 'ready' })[0].value).toBe(0);
  });

  it('the gauge statements can read their partial indexes (EXPLAIN names them)', async () => {
    const plans: string[] = [];
    await db().transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      for (const q of [
        sql`explain select status, channel, count(*) from deliveries where status in ('dead', 'unknown', 'expired') group by status, channel`,
        sql`explain select channel, count(*) from reminders where status = 'expired' group by channel`,
        sql`explain select min(due_at) from reminders where status = 'dispatched' and due_at <= now() and expires_at > now()`,
      ]) {
        const rows = await tx.execute<{ 'QUERY PLAN': string }>(q);
        plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
      }
    });
    expect(plans[0]).toContain('deliveries_attention_idx');
    expect(plans[1]).toContain('reminders_expired_idx');
    expect(plans[2]).toContain('reminders_dispatched_due_idx');
  });
});

describe('structured logs', () => {
  it('the log line of an attempt carries reminderId, deliveryId, messageKey, attemptNo, tenantId, channel and outcome', async () => {
    logLines.length = 0;
    const { reminder, delivery, tenant } = await sendOne(1);
    const entries = logLines.flatMap((l) => l.split('\n').filter(Boolean)).map((l) => JSON.parse(l) as Record<string, unknown>);
    const attempt = entries.find((e) => e.msg === 'send attempt' && e.deliveryId === delivery.id);
    expect(attempt).toMatchObject({
      level: 30,
      reminderId: reminder.id,
      deliveryId: delivery.id,
      messageKey: delivery.messageKey,
      attemptNo: 1,
      tenantId: tenant.id,
      channel: 'email',
      outcome: 'accepted',
    });
    expect(typeof attempt!.time).toBe('string');
  });

  it('PUNCTUAL_LOG_LEVEL: default info, case-insensitive, anything else refused naming the variable', () => {
    expect(logLevelFromEnv({} as NodeJS.ProcessEnv)).toBe('info');
    expect(logLevelFromEnv({ PUNCTUAL_LOG_LEVEL: 'DEBUG' } as unknown as NodeJS.ProcessEnv)).toBe('debug');
    expect(() => logLevelFromEnv({ PUNCTUAL_LOG_LEVEL: 'loud' } as unknown as NodeJS.ProcessEnv)).toThrow(/PUNCTUAL_LOG_LEVEL/);
  });

  it('an unexpected route error is logged as JSON by instrumentation.ts onRequestError', async () => {
    const lines: string[] = [];
    const g = globalThis as { __punctualLog?: unknown };
    const savedLog = g.__punctualLog;
    g.__punctualLog = createLogger({ level: 'info', destination: { write: (s: string) => void lines.push(s) } });
    const savedRuntime = process.env.NEXT_RUNTIME;
    process.env.NEXT_RUNTIME = 'nodejs';
    try {
      const { onRequestError } = await import('@/instrumentation');
      await onRequestError(new Error('boom'), { path: '/u/eyJhbGciOiJIUzI1NiJ9.secret-token?x=1', method: 'POST', headers: {} }, { routerKind: 'App Router', routePath: '/u/[token]', routeType: 'route', revalidateReason: undefined });
    } finally {
      g.__punctualLog = savedLog;
      if (savedRuntime === undefined) delete process.env.NEXT_RUNTIME;
      else process.env.NEXT_RUNTIME = savedRuntime;
    }
    const entry = JSON.parse(lines.join('').trim().split('\n')[0]) as Record<string, unknown>;
    // The route pattern, never the raw path: an unsubscribe or preferences link carries a signed token in its path.
    expect(entry).toMatchObject({ level: 50, role: 'web', method: 'POST', route: '/u/[token]' });
    expect(lines.join('')).not.toContain('secret-token');
    expect((entry.err as { message: string }).message).toBe('boom');
  });
});
