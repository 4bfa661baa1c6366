/**
 * Shared set-up of the settings and preferences suites (notification-settings and contact-preferences .test.ts in
 * this folder; issue #9 §2–§5, §7): a database of this test file's own, emptied before each test, and the helpers
 * both use. Each test file calls {@link useSettingsDatabase} once: vitest runs files in parallel, each with its own
 * module instance, so every file gets its own cloned database.
 */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { auditLog } from '@/db/schema';
import { AppError } from '@/server/platform/errors';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

let tdb: TestDatabase;
/**
 * Registers this file's hooks: a fresh database before all, emptied before each test, closed after all. Call
 * once, at the top level of a test file.
 */
export function useSettingsDatabase(): void {
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.close());
  beforeEach(async () => tdb.reset());
}
/** This file's database. */
export const db = () => tdb.db;

/** The instant every save of these tests happens at. */
export const now = new Date('2027-06-01T08:00:00Z');

/** The AppError `p` rejects with (the test fails when it resolves or rejects with anything else). */
export async function rejection(p: Promise<unknown>): Promise<AppError> {
  const r = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(r).toBeInstanceOf(AppError);
  return r as AppError;
}

/** The tenant's audit entries, oldest first. */
export async function audit(tenantId: string) {
  return db().select().from(auditLog).where(eq(auditLog.tenantId, tenantId)).orderBy(asc(auditLog.createdAt), asc(auditLog.action), asc(auditLog.id));
}
