/**
 * `npm run test:chaos [-- --n 2000]`: the full chaos run (test/support/chaos.ts); prints the table and exits
 * non-zero on any duplicate or lost reminder. Needs no database: it runs its own embedded PostgreSQL (so it
 * can restart it).
 */
import { formatChaosTable, runChaos } from '@/test/support/chaos';

const i = process.argv.indexOf('--n');
const n = i > 0 ? Number(process.argv[i + 1]) : Number(process.env.CHAOS_N ?? 2000);
const report = await runChaos({ n, log: (m) => console.log(`[chaos +${process.uptime().toFixed(0)}s] ${m}`) });
console.log(formatChaosTable(report));
console.log(report.ok ? `1 passed, 0 failed` : `0 passed, 1 failed`);
process.exit(report.ok ? 0 : 1);
