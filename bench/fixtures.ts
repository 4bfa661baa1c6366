/**
 * Fast fixtures in plain SQL (generate_series): events, contacts, bookings and their rule reminders, shaped
 * exactly as planning makes them (server/scheduling/planning.ts: one reminder per booking and rule, schedule version 1,
 * channel email, expiry = due + the rule's late-send window), but thousands per statement.
 *
 * The due instant follows the planning (issue #11): `plantBatch` plans every reminder a month ahead; only
 * after it has committed does `makeDue` move the batch's events so that their reminders fall due at
 * `T0 + eventIndex × stepMs` (T0 = the database's now() + `leadMs`), and adds one dispatcher wake-up per
 * (event, rule) at that instant — as planning does (job key `wake:<event>:<rule>`, domain/keys.ts).
 */
import postgres from 'postgres';
import { wakeJobKey } from '@/domain/keys';
import { createTenant } from '@/server/organisations/tenants';
import { createReminderRule } from '@/server/rules/reminder-rule';
import { createDb } from '@/db/client';

export interface BenchTenant {
  tenantId: string;
  ruleId: string;
}

const LATE_WINDOW_S = 3600;

/** A tenant with one active rule: attendee reminder 1 h before start, late-send window 1 h. */
export async function setupTenant(url: string): Promise<BenchTenant> {
  const h = createDb(url, { max: 1 });
  try {
    const t = await createTenant(h.db, { slug: 'bench', name: 'Studio Noord', timeZone: 'Europe/Amsterdam' });
    const r = await createReminderRule(h.db, t.id, { name: '1h before', anchor: 'start', offset: '-PT1H', audience: ['attendee'], template: 'attendee-reminder', lateSendWindowSeconds: LATE_WINDOW_S });
    return { tenantId: t.id, ruleId: r.id };
  } finally {
    await h.close();
  }
}

/**
 * Plans `n` bookings spread over `events` events (booking g → event g mod events) with one scheduled reminder
 * each, a month ahead. `tag` names the batch (events' external_uid = `<tag>:<index>`). Returns nothing; rows
 * are committed when it resolves.
 */
export async function plantBatch(sql: postgres.Sql, t: BenchTenant, tag: string, n: number, events: number): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`
      insert into events (id, tenant_id, title, location, starts_at, ends_at, time_zone, external_uid)
      select md5(${tag} || ':e:' || e)::uuid, ${t.tenantId}, 'Workshop ' || e, 'Studio Noord, Kanaalstraat 12, Amsterdam',
             date_trunc('minute', now()) + interval '30 days', date_trunc('minute', now()) + interval '30 days 1 hour',
             'Europe/Amsterdam', ${tag} || ':' || e
      from generate_series(0, ${events - 1}) e`;
    await tx`
      insert into contacts (id, tenant_id, name, email, locale)
      select md5(${tag} || ':c:' || g)::uuid, ${t.tenantId}, 'Bee ' || g, 'bee' || g || '.' || ${tag} || '@bench.test', 'en'
      from generate_series(0, ${n - 1}) g`;
    await tx`
      insert into bookings (id, tenant_id, event_id, contact_id, role)
      select md5(${tag} || ':b:' || g)::uuid, ${t.tenantId}, md5(${tag} || ':e:' || (g % ${events}))::uuid, md5(${tag} || ':c:' || g)::uuid, 'attendee'
      from generate_series(0, ${n - 1}) g`;
    await tx`
      insert into reminders (tenant_id, event_id, booking_id, rule_id, schedule_version, channel, due_at, expires_at)
      select ${t.tenantId}, b.event_id, b.id, ${t.ruleId}, 1, 'email', e.starts_at - interval '1 hour', e.starts_at - interval '1 hour' + ${LATE_WINDOW_S} * interval '1 second'
      from bookings b join events e on e.id = b.event_id
      where b.id = any (select md5(${tag} || ':b:' || g)::uuid from generate_series(0, ${n - 1}) g)`;
  });
}

/**
 * Moves the batch's events so that event i's reminders fall due at T0 + i × stepMs (T0 = the database's
 * now() + leadMs), and adds one wake-up per event at its due instant, in one transaction.
 * @returns T0 as a Date (database clock).
 */
export async function makeDue(sql: postgres.Sql, t: BenchTenant, tag: string, opts: { leadMs: number; stepMs: number }): Promise<Date> {
  return sql.begin(async (tx) => {
    const [{ t0 }] = await tx<{ t0: Date }[]>`select now() + ${opts.leadMs} * interval '1 millisecond' as t0`;
    await tx`
      update events e set starts_at = ${t0} + (split_part(e.external_uid, ':', 2)::int * ${opts.stepMs}) * interval '1 millisecond' + interval '1 hour',
                           ends_at = ${t0} + (split_part(e.external_uid, ':', 2)::int * ${opts.stepMs}) * interval '1 millisecond' + interval '2 hours'
      where e.tenant_id = ${t.tenantId} and e.external_uid like ${tag + ':%'}`;
    await tx`
      update reminders r set due_at = e.starts_at - interval '1 hour', expires_at = e.starts_at - interval '1 hour' + ${LATE_WINDOW_S} * interval '1 second'
      from events e where e.id = r.event_id and e.tenant_id = ${t.tenantId} and e.external_uid like ${tag + ':%'}`;
    const evs = await tx<{ id: string; due: Date }[]>`
      select id, starts_at - interval '1 hour' as due from events where tenant_id = ${t.tenantId} and external_uid like ${tag + ':%'}`;
    for (let i = 0; i < evs.length; i += 1000) {
      const chunk = evs.slice(i, i + 1000);
      await tx`
        select graphile_worker.add_job('dispatch_due', json_build_object('reason', 'wake'), run_at := x.due, job_key := x.key, job_key_mode := 'replace')
        from unnest(${tx.array(chunk.map((e) => e.due.toISOString()))}::timestamptz[], ${tx.array(chunk.map((e) => wakeJobKey(e.id, t.ruleId)))}::text[]) as x(due, key)`;
    }
    return new Date(t0);
  });
}
