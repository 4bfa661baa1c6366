/**
 * Per-test-file databases: each call clones the run's migrated template (fast: no migrations), so tests
 * never share rows and may run in parallel. Dropped by the global teardown.
 */
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { inject } from 'vitest';
import { createDb, type DbHandle } from '@/db/client';
import { databaseUrl } from './urls';

export interface TestDatabase extends DbHandle {
  url: string;
  name: string;
  /** Empties every application table and the job queue (between tests). */
  reset(): Promise<void>;
}

/** Creates a fresh database from the template. @throws when the server is unreachable. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const server = inject('pgServerUrl');
  const name = `punctual_t_${inject('runId')}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  try {
    for (let i = 0; ; i++) {
      try {
        await admin.unsafe(`create database "${name}" template "${inject('templateDb')}"`);
        break;
      } catch (e) {
        // Two clones at once can see each other as "other users" of the template; try again shortly.
        if (i > 20 || !/being accessed by other users/.test(String(e))) throw e;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const url = databaseUrl(server, name);
  const handle = createDb(url, { max: 20 });
  return {
    ...handle,
    url,
    name,
    async reset() {
      await handle.sql.unsafe(`
        truncate delivery_attempts, deliveries, reminders, reminder_rules, bookings, events, contacts,
          suppressions, caught_messages, audit_log, rate_limits, tenants cascade;
        delete from graphile_worker._private_jobs;
        delete from graphile_worker._private_job_queues;`);
    },
  };
}
