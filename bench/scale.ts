/**
 * Benchmark section scale (BENCHMARKS.md): the due query, a claim and an empty dispatcher pass with a large
 * reminders table.
 * Shared helpers, clocks and units: bench/common.ts.
 */
import { performance } from 'node:perf_hooks';
import { claimDueReminders } from '@/db/queries/sending/dispatch';
import { createDb } from '@/db/client';
import type { BenchServer } from './db';
import { setupTenant } from './fixtures';
import { type BenchConfig, median, r1, r2 } from './common';

/**
 * `rows` reminders in the table (1,000 bookings × rows/1,000 schedule versions): 0.1 % due now, 2 % scheduled in
 * the future, the rest `done` in the past with an accepted/delivered delivery each (0.1 % of those `retrying`
 * later). Then: the due query (median ms of 15), a 100-row claim as the dispatcher makes it (server/sending/dispatch.ts
 * claimDue with the default policy: send batches) and with one job per reminder (claimDueReminders), each inside a
 * transaction that is rolled back (medians of 15), one dispatcher pass with nothing due (server/sending/dispatch.ts
 * dispatchDue at an instant before every due_at: only the expiry/recovery scans run; median of 5), and
 * EXPLAIN (ANALYZE, BUFFERS) of the due query.
 */
export async function runScale(server: BenchServer, cfg: BenchConfig, rows: number) {
  const d = await server.freshDatabase('scale');
  const h = createDb(d.url, { max: 2 });
  const sql = h.sql;
  try {
    const t = await setupTenant(d.url);
    const fill0 = performance.now();
    await sql`
      insert into events (id, tenant_id, title, starts_at, ends_at, time_zone, external_uid)
      select md5('x:e:' || e)::uuid, ${t.tenantId}, 'Workshop ' || e, now() + interval '30 days', now() + interval '30 days 1 hour', 'Europe/Amsterdam', 'x:' || e
      from generate_series(0, 999) e`;
    await sql`
      insert into contacts (id, tenant_id, name, email) select md5('x:c:' || g)::uuid, ${t.tenantId}, 'Bee ' || g, 'bee' || g || '@bench.test' from generate_series(0, 999) g`;
    await sql`
      insert into bookings (id, tenant_id, event_id, contact_id, role)
      select md5('x:b:' || g)::uuid, ${t.tenantId}, md5('x:e:' || g)::uuid, md5('x:c:' || g)::uuid, 'attendee' from generate_series(0, 999) g`;
    await sql`
      insert into reminders (tenant_id, event_id, booking_id, rule_id, schedule_version, channel, due_at, expires_at, status, dispatched_at, created_at, updated_at)
      select ${t.tenantId}, md5('x:e:' || (g % 1000))::uuid, md5('x:b:' || (g % 1000))::uuid, ${t.ruleId}, g / 1000 + 1, 'email', due, due + interval '1 hour',
             st::reminder_status, case when st = 'done' then due end, least(due, now()), least(due, now())
      from (
        select g,
          case when g % 1000 = 7 then 'scheduled' when g % 100 in (1, 2) then 'scheduled' else 'done' end as st,
          case when g % 1000 = 7 then now() - (g % 600) * interval '1 second'
               when g % 100 in (1, 2) then now() + interval '1 day' + (g % 10000) * interval '1 minute'
               else now() - interval '1 day' - (g % 100000) * interval '1 minute' end as due
        from generate_series(0, ${rows - 1}) g
      ) x`;
    await sql`
      insert into deliveries (tenant_id, reminder_id, message_key, channel, address, template, status, attempt_count, accepted_at, next_attempt_at, created_at, updated_at)
      select r.tenant_id, r.id, 'rem:bench:' || r.id, 'email', 'bee@bench.test', 'attendee-reminder',
             case when r.schedule_version % 1000 = 3 then 'retrying' when r.schedule_version % 3 = 0 then 'accepted' else 'delivered' end::delivery_status,
             1, r.due_at, case when r.schedule_version % 1000 = 3 then now() + interval '1 hour' end, r.due_at, r.due_at
      from reminders r where r.status = 'done'`;
    await sql`analyze`;
    const fillMs = performance.now() - fill0;
    const [{ reminders: total, scheduled, due }] = await sql<{ reminders: number; scheduled: number; due: number }[]>`
      select count(*)::int as reminders, count(*) filter (where status = 'scheduled')::int as scheduled,
             count(*) filter (where status = 'scheduled' and due_at <= now())::int as due from reminders`;
    const [{ deliveries }] = await sql<{ deliveries: number }[]>`select count(*)::int as deliveries from deliveries`;
    // drizzle's driver setup returns timestamps as strings on this client: parse them.
    const [{ now: nowRaw }] = await sql<{ now: Date | string }[]>`select now() as now`;
    const now = new Date(nowRaw);
    const nowIso = now.toISOString();
    const dueSelect = (lock: boolean) => `
      select id, due_at from reminders
      where status = 'scheduled' and due_at <= '${nowIso}'::timestamptz and expires_at > '${nowIso}'::timestamptz
      order by due_at, id limit 100${lock ? ' for update skip locked' : ''}`;
    const queryMs: number[] = [];
    for (let i = 0; i < 15; i++) {
      const q0 = performance.now();
      await sql.unsafe(dueSelect(false));
      queryMs.push(performance.now() - q0);
    }
    const { claimDue, defaultDispatchPolicy } = await import('@/server/sending/dispatch');
    class Rollback extends Error {}
    // The claim as a dispatcher run makes it (the default policy: send batches, a few `send_reminders` jobs per 100)
    // and with one `send_reminder` job per reminder (PUNCTUAL_SEND_BATCH_MAX=1), each rolled back.
    const claimMs: number[] = [];
    const claimOneJobEachMs: number[] = [];
    let claimed = 0;
    for (let i = 0; i < 15; i++) {
      for (const [times, claim] of [
        [claimMs, (tx: Parameters<Parameters<typeof h.db.transaction>[0]>[0]) => claimDue(tx, now, defaultDispatchPolicy, 100, null)],
        [claimOneJobEachMs, (tx: Parameters<Parameters<typeof h.db.transaction>[0]>[0]) => claimDueReminders(tx, now, 100)],
      ] as const) {
        await h.db
          .transaction(async (tx) => {
            const c0 = performance.now();
            claimed = (await claim(tx)).claimed;
            times.push(performance.now() - c0);
            throw new Rollback();
          })
          .catch((e) => {
            if (!(e instanceof Rollback)) throw e;
          });
      }
    }
    let explain = '';
    await sql
      .begin(async (tx) => {
        const plan = await tx.unsafe<{ 'QUERY PLAN': string }[]>(`explain (analyze, buffers) ${dueSelect(true)}`);
        explain = plan.map((p) => p['QUERY PLAN']).join('\n');
        throw new Rollback();
      })
      .catch((e) => {
        if (!(e instanceof Rollback)) throw e;
      });
    const passMs: number[] = [];
    const { dispatchDue } = await import('@/server/sending/dispatch');
    const before = new Date(now.getTime() - 2 * 86_400_000 - 100_000 * 60_000);
    for (let i = 0; i < 5; i++) {
      const p0 = performance.now();
      await dispatchDue(h.db, before);
      passMs.push(performance.now() - p0);
    }
    const indexes = [...explain.matchAll(/(?:Index (?:Only )?Scan(?: Backward)? using|Bitmap Index Scan on) (\S+)/g)].map((m) => m[1]);
    const out = {
      reminders: total,
      scheduled,
      dueNow: due,
      deliveries,
      fillSeconds: r1(fillMs / 1000),
      dueQueryMs: r2(median(queryMs)),
      claim100Ms: r2(median(claimMs)),
      claim100OneJobEachMs: r2(median(claimOneJobEachMs)),
      claimedPerClaim: claimed,
      emptyDispatcherPassMs: r1(median(passMs)),
      explainIndexes: indexes,
      explainSeqScanOnReminders: /Seq Scan on reminders/.test(explain),
      explain,
    };
    cfg.log(`scale: ${total} reminders, ${deliveries} deliveries: due query ${out.dueQueryMs} ms, 100-row claim ${out.claim100Ms} ms in send batches, ${out.claim100OneJobEachMs} ms with one job each (medians of 15, rolled back), empty dispatcher pass ${out.emptyDispatcherPassMs} ms; plan uses ${indexes.join(', ') || 'no index'}`);
    return out;
  } finally {
    await h.close();
    await d.drop();
  }
}
