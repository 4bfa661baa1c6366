/**
 * A provider send rate shared by every worker process, kept in PostgreSQL: GCRA (the generic cell rate
 * algorithm — a token bucket in its "virtual scheduling" form, ITU-T I.371). Each limiter key stores its
 * theoretical arrival time (TAT); reserving a send slot is one atomic upsert:
 *   slot = max(TAT, now);  TAT = slot + interval
 * Callers reserve slots in the order they process work (due order), so a backlog drains in due order at the
 * configured rate; a caller whose slot lies in the future waits for it (rescheduled job), without reserving
 * again.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';

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
