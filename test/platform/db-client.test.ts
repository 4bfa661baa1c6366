/**
 * db/client.ts `createDb({ prepareAll: true })` (the worker's handle): drizzle's query-builder statements become
 * named prepared statements on the connection — outside and inside transactions — so PostgreSQL stops planning the
 * send path's nine-table select on every execution (issue #11). Without the option they stay unnamed.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDb, type DbHandle } from '@/db/client';
import { tenants } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.close();
});

/** The prepared statements of the handle's one connection that read `tenants` by id. */
async function preparedTenantReads(h: DbHandle): Promise<string[]> {
  const rows = await h.sql<{ statement: string }[]>`select statement from pg_prepared_statements`;
  return rows.map((r) => r.statement).filter((s) => /from "tenants"/.test(s) && /"tenants"\."id" = \$1/.test(s));
}

async function readTenant(h: DbHandle, marker: string): Promise<void> {
  // A distinct SQL text per case (the alias), so each assertion sees its own statement.
  await h.db.select({ id: tenants.id, m: sql<string>`${sql.raw(`'${marker}'`)}`.as(marker) }).from(tenants).where(eq(tenants.id, '00000000-0000-4000-8000-000000000001'));
}

test('prepareAll: builder queries are named prepared statements, in a transaction too; without it they are not', async () => {
  const prepared = createDb(t.url, { max: 1, prepareAll: true });
  const plain = createDb(t.url, { max: 1 });
  try {
    await readTenant(prepared, 'outside_tx');
    await prepared.db.transaction(async (tx) => {
      await tx.select({ id: tenants.id, m: sql<string>`'inside_tx'`.as('inside_tx') }).from(tenants).where(eq(tenants.id, '00000000-0000-4000-8000-000000000001'));
      // Nested transaction = savepoint.
      await tx.transaction(async (sp) => {
        await sp.select({ id: tenants.id, m: sql<string>`'savepoint'`.as('savepoint') }).from(tenants).where(eq(tenants.id, '00000000-0000-4000-8000-000000000001'));
      });
    });
    const seen = await preparedTenantReads(prepared);
    expect(seen.some((s) => s.includes('outside_tx'))).toBe(true);
    expect(seen.some((s) => s.includes('inside_tx'))).toBe(true);
    expect(seen.some((s) => s.includes('savepoint'))).toBe(true);

    await readTenant(plain, 'plain');
    expect(await preparedTenantReads(plain)).toEqual([]);
  } finally {
    await prepared.close();
    await plain.close();
  }
});
