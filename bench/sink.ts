/**
 * The benchmark's SMTP sink as its own process (so its CPU time is its own, read from /proc by the bench):
 *   BENCH_SINK=null     bench/null-sink.ts (accepts and forgets)
 *   BENCH_SINK=catcher  dev/mail-catcher.ts (stores every message in DATABASE_URL's `caught_messages`)
 * Prints `sink ready <url>` on stdout when listening. Over the IPC channel it answers `{ type: 'stats' }` with
 * `{ type: 'stats', messages, distinctMessageIds }` (null sink: its counters; catcher: counted in the table).
 * BENCH_SINK_PORT picks the port (default: any free one). BENCH_SINK_USER and BENCH_SINK_PASS: the login the catcher
 * requires (SMTP AUTH; without them it makes its own and the printed URL carries it). SIGTERM closes it.
 */
import { sql } from 'drizzle-orm';
import { createDb, type DbHandle } from '@/db/client';
import { startMailCatcher } from '@/dev/mail-catcher';
import { startNullSink } from './null-sink';

const kind = process.env.BENCH_SINK ?? 'null';
let handle: DbHandle | undefined;
let close: () => Promise<void>;
let stats: () => Promise<{ messages: number; distinctMessageIds: number }>;
let url: string;
if (kind === 'catcher') {
  handle = createDb(process.env.DATABASE_URL!, { max: 10 });
  const auth = process.env.BENCH_SINK_USER && process.env.BENCH_SINK_PASS ? { user: process.env.BENCH_SINK_USER, pass: process.env.BENCH_SINK_PASS } : undefined;
  const catcher = await startMailCatcher({ db: handle.db, port: Number(process.env.BENCH_SINK_PORT ?? 0), auth });
  url = catcher.url;
  close = catcher.close;
  const db = handle.db;
  stats = async () => {
    const [r] = await db.execute<{ n: number; d: number }>(sql`select count(*)::int as n, count(distinct message_id)::int as d from caught_messages`);
    return { messages: r.n, distinctMessageIds: r.d };
  };
} else {
  const sink = await startNullSink(Number(process.env.BENCH_SINK_PORT ?? 0));
  url = sink.url;
  close = sink.close;
  stats = async () => sink.stats();
}
process.on('message', async (m: { type?: string }) => {
  if (m?.type === 'stats') process.send!({ type: 'stats', ...(await stats()) });
});
process.on('SIGTERM', async () => {
  setTimeout(() => process.exit(0), 3000).unref();
  await close();
  await handle?.close();
  process.exit(0);
});
console.log(`sink ready ${url}`);
