/**
 * A small chaos run inside `npm test` (the full one is `npm run test:chaos`, N = 2 000): real worker
 * processes killed with SIGKILL, a PostgreSQL restart, faulty providers — no duplicate, nothing lost.
 */
import { describe, expect, it } from 'vitest';
import { formatChaosTable, runChaos } from '@/test/support/chaos';

describe('chaos (small)', () => {
  it('150 reminders, 3 workers killed at random, one PostgreSQL restart: no duplicate, nothing lost', async () => {
    const report = await runChaos({ n: 150, log: (m) => console.log(`[chaos] ${m}`) });
    console.log(formatChaosTable(report));
    expect(report.problems).toEqual([]);
    expect(report.table.duplicates).toBe(0);
    expect(report.table.lost).toBe(0);
    expect(report.table.delivered).toBeGreaterThan(100);
    expect(report.kills).toBeGreaterThan(3);
    expect(report.pgRestarts).toBe(1);
  }, 300_000);
});
