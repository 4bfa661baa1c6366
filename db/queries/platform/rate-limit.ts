/**
 * A provider send rate shared by every worker process, kept in PostgreSQL: GCRA (the generic cell rate
 * algorithm — a token bucket in its "virtual scheduling" form, ITU-T I.371). Each limiter key stores its
 * theoretical arrival time (TAT); reserving a send slot is one atomic upsert:
 *   slot = max(TAT, now);  TAT = slot + interval
 * Callers reserve slots in the order they process work (due order), so a backlog drains in due order at the
 * configured rate; a caller whose slot lies in the future waits for it (rescheduled job), without reserving
 * again.
 *
 * The same table holds the sign-in buckets (issue #12, keys `signin:…`, domain/accounts/sign-in-limits.ts): there the
 * bucket math is done in domain/ on a row locked here, so several web processes share one budget.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';

/** Reserves the next send slot for `key` at one per `intervalMs`. Returns the slot instant (≥ now). */
export async function reserveSendSlot(db: DbOrTx, key: string, intervalMs: number, now: Date): Promise<Date> {
  const nowIso = now.toISOString();
  const rows = await db.execute<{ slot: string }>(sql`
    insert into rate_limits (key, tat) values (${key}, ${nowIso}::timestamptz + ${intervalMs} * interval '1 millisecond')
    on conflict (key) do update
      set tat = greatest(rate_limits.tat, ${nowIso}::timestamptz) + ${intervalMs} * interval '1 millisecond'
    returning (tat - ${intervalMs} * interval '1 millisecond')::text as slot`);
  return new Date(rows[0].slot);
}

/** Moves `key`'s schedule to no earlier than `until` (a provider's Retry-After applies to every worker). */
export async function pushBackSendSlots(db: DbOrTx, key: string, until: Date): Promise<void> {
  await db.execute(sql`
    insert into rate_limits (key, tat) values (${key}, ${until.toISOString()}::timestamptz)
    on conflict (key) do update set tat = greatest(rate_limits.tat, excluded.tat)`);
}

/**
 * Locks the limiter row `key` (FOR UPDATE, until the transaction ends), creating it as a full bucket (TAT = `now`)
 * when there is none — one atomic upsert, so two first requests cannot both see "no row". Callers that lock
 * several keys lock them in one fixed order (no deadlock).
 * @returns the row's TAT, epoch ms.
 */
export async function lockLimiter(tx: DbOrTx, key: string, now: Date): Promise<number> {
  const rows = await tx.execute<{ tat_ms: string }>(sql`
    insert into rate_limits (key, tat) values (${key}, ${now.toISOString()}::timestamptz)
    on conflict (key) do update set tat = rate_limits.tat
    returning (extract(epoch from tat) * 1000)::text as tat_ms`);
  return Math.round(Number(rows[0].tat_ms));
}

/** Stores `key`'s TAT (epoch ms); null deletes the row (a full bucket needs none). Call with the row locked. */
export async function storeLimiter(tx: DbOrTx, key: string, tatMs: number | null): Promise<void> {
  if (tatMs === null) await tx.execute(sql`delete from rate_limits where key = ${key}`);
  else await tx.execute(sql`update rate_limits set tat = ${new Date(tatMs).toISOString()}::timestamptz where key = ${key}`);
}

/**
 * Deletes up to `limit` sign-in bucket rows that are full again (TAT before `now`: the same as no row), skipping
 * rows another request holds. Keeps the table small however many addresses and accounts were tried.
 * @returns how many rows went.
 */
export async function pruneFullSignInBuckets(db: DbOrTx, now: Date, limit = 50): Promise<number> {
  const rows = await db.execute<{ key: string }>(sql`
    delete from rate_limits where key in (
      select key from rate_limits where key like 'signin:%' and tat < ${now.toISOString()}::timestamptz
      order by tat limit ${limit} for update skip locked)
    returning key`);
  return rows.length;
}
