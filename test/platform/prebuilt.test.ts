/**
 * db/prebuilt.ts: a statement built once runs, on every call, on the connection of the handle or transaction it is
 * given — it sees that transaction's own uncommitted rows and its locks, and a later transaction gets its own
 * connection (not the one of the transaction that happened to build it). Real PostgreSQL, through the worker's
 * prepared-statement client (`prepareAll`) and the plain one.
 */
import { eq, sql } from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '@/db/client';
import { prebuilt } from '@/db/prebuilt';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

const probe = pgTable('prebuilt_probe', { id: text('id').primaryKey(), note: text('note') });

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
  await tdb.db.execute(sql`create table prebuilt_probe (id text primary key, note text)`);
});
afterAll(async () => {
  await tdb?.close();
});

/** Rolls the transaction back after `fn` (nothing it wrote stays). */
async function inRolledBack(db: DbHandle['db'], fn: (tx: Parameters<Parameters<DbHandle['db']['transaction']>[0]>[0]) => Promise<void>): Promise<void> {
  const rollback = new Error('rollback');
  await expect(db.transaction(async (tx) => {
    await fn(tx);
    throw rollback;
  })).rejects.toBe(rollback);
}

describe.each([false, true])('prebuilt statements (prepareAll %s)', (prepareAll) => {
  it("run in the caller's transaction: its uncommitted rows are seen there and nowhere else, and every transaction uses its own connection", async () => {
    const handle = createDb(tdb.url, { max: 3, prepareAll });
    try {
      let builds = 0;
      const byId = prebuilt((db) => {
        builds++;
        return db.select().from(probe).where(eq(probe.id, sql.placeholder('id'))).for('update').prepare(`probe_by_id_${prepareAll}`);
      });
      for (const id of ['first', 'second', 'third']) {
        await inRolledBack(handle.db, async (tx) => {
          await tx.insert(probe).values({ id, note: 'uncommitted' });
          expect(await byId(tx, { id })).toEqual([{ id, note: 'uncommitted' }]);
          // The pool (another connection) does not see the uncommitted row.
          expect(await byId(handle.db, { id })).toEqual([]);
        });
      }
      // Built once, executed six times on four connections.
      expect(builds).toBe(1);
    } finally {
      await handle.close();
    }
  });

  it("holds the caller's lock: a second transaction's FOR UPDATE through the same statement waits for the first to end", async () => {
    const handle = createDb(tdb.url, { max: 3, prepareAll });
    try {
      await handle.db.insert(probe).values({ id: `locked-${prepareAll}`, note: 'before' });
      const byId = prebuilt((db) => db.select().from(probe).where(eq(probe.id, sql.placeholder('id'))).for('update').prepare(`probe_lock_${prepareAll}`));
      const id = `locked-${prepareAll}`;
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let firstLocked!: () => void;
      const locked = new Promise<void>((r) => (firstLocked = r));
      const order: string[] = [];
      const first = handle.db.transaction(async (tx) => {
        await byId(tx, { id });
        firstLocked();
        await held;
        await tx.update(probe).set({ note: 'first' }).where(eq(probe.id, id));
        order.push('first committed');
      });
      await locked;
      const second = handle.db.transaction(async (tx) => {
        const [row] = await byId(tx, { id });
        order.push(`second read ${row?.note}`);
      });
      // The second waits on the lock: release the first only once PostgreSQL shows the wait.
      await expect.poll(async () => (await handle.db.execute(sql`select count(*)::int as n from pg_locks where not granted`))[0]?.n, { timeout: 10_000 }).toBe(1);
      release();
      await Promise.all([first, second]);
      expect(order).toEqual(['first committed', 'second read first']);
    } finally {
      await handle.close();
    }
  });
});
