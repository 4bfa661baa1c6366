/**
 * The task registry (jobs/registry.ts) is the one list of graphile-worker tasks: every file in jobs/tasks/ is
 * one registered task (file `send-reminder.ts` ↔ id `send_reminder`), every registered task has its file, a
 * payload schema and a handler in the worker's task list (jobs/worker.ts `taskHandlers`) — and nothing else.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TASK, taskPayloadSchemas } from '@/jobs/registry';
import { taskHandlers } from '@/jobs/worker';

const root = path.resolve(import.meta.dirname, '..', '..');
const sorted = (xs: Iterable<string>) => [...xs].sort();
const taskIds = Object.values(TASK);

describe('the job registry', () => {
  const files = readdirSync(path.join(root, 'jobs', 'tasks')).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));

  it('has one entry per task file in jobs/tasks/, and a task file per entry', () => {
    const fromFiles = files.map((f) => f.replace(/\.tsx?$/, '').replaceAll('-', '_'));
    expect(sorted(fromFiles)).toEqual(sorted(taskIds));
  });

  it('ids are distinct, and each has a payload schema and a worker handler — no more, no fewer', () => {
    expect(new Set(taskIds).size).toBe(Object.keys(TASK).length);
    expect(sorted(Object.keys(taskPayloadSchemas))).toEqual(sorted(taskIds));
    expect(sorted(Object.keys(taskHandlers))).toEqual(sorted(taskIds));
  });

  it('payload schemas refuse a malformed payload before any side effect', () => {
    expect(taskPayloadSchemas.send_reminder.safeParse({ reminderId: 'not-a-uuid' }).success).toBe(false);
    expect(taskPayloadSchemas.deliver.safeParse({ deliveryId: '3f1b7c2e-8a4d-4e5f-9b6a-1c2d3e4f5a6b' }).success).toBe(true);
    expect(taskPayloadSchemas.dispatch_due.safeParse({ _cron: { ts: '2027-01-01T00:00:00Z', backfilled: false } }).success).toBe(true);
  });
});
