/**
 * Injectable time. Use-cases take `now: Date` as an argument; processes get it from a Clock.
 *
 * One clock decides due-ness, leases, next-attempt instants and expiry: the database's (DESIGN invariant 10).
 * graphile-worker makes a job runnable when PostgreSQL's `now()` reaches its `run_at`, so a worker that then
 * asks "what is due?" with its own host clock sends late when that clock is behind (nothing looks due yet: the
 * reminder waits for the minute sweep) and early when it is ahead. Processes therefore use {@link dbClock}:
 * the database's instant, sampled at start and every few seconds, carried forward between samples by the
 * local monotonic clock (`performance.now()`), so neither a skewed nor a stepped host clock moves it.
 *
 * PUNCTUAL_CLOCK_OFFSET_MS (tests only) shifts a process's scheduler clock relative to the database clock on
 * purpose, to run a real worker "in the future" without waiting in real time.
 */
import { databaseNowMs } from '@/db/queries/platform/clock';
import { getDb, type DbOrTx } from '@/db/client';

export interface Clock {
  /** The current UTC instant. */
  now(): Date;
}

/** PUNCTUAL_CLOCK_OFFSET_MS (tests only), ms; 0 when unset. @throws Error naming the variable when it is not a number. */
function clockOffsetFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const off = Number(env.PUNCTUAL_CLOCK_OFFSET_MS ?? 0);
  if (!Number.isFinite(off)) throw new Error(`PUNCTUAL_CLOCK_OFFSET_MS: not a number of milliseconds (${env.PUNCTUAL_CLOCK_OFFSET_MS})`);
  return off;
}

/** A clock that follows the database's. */
interface DbClock extends Clock {
  /** Resolves after the first successful sample (before it, `now()` falls back to the host clock). Never rejects. */
  readonly ready: Promise<void>;
  /** Samples the database clock now. @throws the query's error (the previous estimate is kept). */
  sync(): Promise<void>;
  /** Database time − host time at the last sample, ms (diagnostics); null before the first sample. */
  readonly skewMs: number | null;
  /** Stops the periodic re-sampling. */
  stop(): void;
}

interface DbClockOptions {
  /** Added to the database time (PUNCTUAL_CLOCK_OFFSET_MS, tests only), ms. Default 0. */
  offsetMs?: number;
  /** Re-sampling period, ms. Default 15 000. */
  resyncMs?: number;
  /** Round trips per sample; the one with the shortest round trip wins. Default 3. */
  roundTrips?: number;
  /** Called when a periodic re-sample fails (the previous estimate stays in use). */
  onError?: (e: Error) => void;
}

/**
 * A clock that reads the database's instant. Each sample takes `roundTrips` `select clock_timestamp()` round
 * trips and keeps the shortest: the database instant is taken to belong to the local midpoint of that round
 * trip (error ≤ half its length, well under a millisecond on a LAN). Between samples the local monotonic
 * clock carries it forward; a re-sample every `resyncMs` corrects the (ppm-sized) rate difference.
 * @param sampleMs reads the database's current instant, epoch ms (db/queries/platform/clock.ts `databaseNowMs`).
 */
export function dbClock(sampleMs: () => Promise<number>, opts: DbClockOptions = {}): DbClock {
  const offsetMs = opts.offsetMs ?? 0;
  let anchor: { dbMs: number; perfMs: number; skewMs: number } | null = null;
  const sync = async () => {
    let best: { dbMs: number; perfMs: number; rttMs: number; hostMs: number } | null = null;
    for (let i = 0; i < (opts.roundTrips ?? 3); i++) {
      const t0 = performance.now();
      const h0 = Date.now();
      const dbMs = await sampleMs();
      const t1 = performance.now();
      if (!best || t1 - t0 < best.rttMs) best = { dbMs, perfMs: (t0 + t1) / 2, rttMs: t1 - t0, hostMs: h0 + (t1 - t0) / 2 };
    }
    anchor = { dbMs: best!.dbMs, perfMs: best!.perfMs, skewMs: Math.round(best!.dbMs - best!.hostMs) };
  };
  let stopped = false;
  const ready = (async () => {
    // Until the database answers, keep trying (a worker starting with its database); callers that need the
    // database clock await this before their first decision.
    for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
      try {
        await sync();
        return;
      } catch (e) {
        opts.onError?.(e as Error);
        await new Promise((r) => setTimeout(r, delay).unref());
        if (stopped) return;
      }
    }
  })();
  let timer: NodeJS.Timeout | undefined = setInterval(() => {
    sync().catch((e: Error) => opts.onError?.(e));
  }, opts.resyncMs ?? 15_000);
  timer.unref();
  return {
    ready,
    sync,
    get skewMs() {
      return anchor?.skewMs ?? null;
    },
    now() {
      const base = anchor ? anchor.dbMs + (performance.now() - anchor.perfMs) : Date.now();
      return new Date(Math.round(base + offsetMs));
    },
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

/** A database clock over `db`, honouring PUNCTUAL_CLOCK_OFFSET_MS. */
export function databaseClock(db: DbOrTx, opts: Omit<DbClockOptions, 'offsetMs'> = {}): DbClock {
  return dbClock(() => databaseNowMs(db), { ...opts, offsetMs: clockOffsetFromEnv() });
}

const globalForClock = globalThis as unknown as { __punctualClock?: DbClock };

/**
 * The web app's process-wide clock: the database clock of `getDb()` (created on first use). Request handlers
 * await `ready` once before deciding with it (app/_http/session.ts `staffRoute`).
 */
export function appClock(): DbClock {
  globalForClock.__punctualClock ??= databaseClock(getDb(), { onError: (e) => console.error(`[clock] database clock sample failed: ${e.message}`) });
  return globalForClock.__punctualClock;
}
