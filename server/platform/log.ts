/**
 * Structured logs (issue #11 §3): one JSON object per line on stdout, through pino, for the web app and the
 * worker alike. Fields every line has: `level` (pino's number: 30 info, 40 warn, 50 error), `time` (UTC ISO
 * instant of the process clock — log time only, never a scheduling decision), `pid`, `hostname`, `msg`, and the
 * bindings of its child logger (`role`: `web` | `worker`, `workerId`, …). Errors go under `err` (message, stack).
 *
 * Joining a reminder, its delivery and its attempts: every send-attempt line carries `reminderId`, `deliveryId`,
 * `messageKey`, `attemptNo`, `tenantId`, `channel` and `outcome` (server/dashboards/metrics.ts `observeSend`), so filtering by
 * `reminderId` (or `deliveryId`) gives that message's whole story across processes.
 *
 * Level: PUNCTUAL_LOG_LEVEL = `fatal` | `error` | `warn` | `info` (default) | `debug` | `trace` | `silent`.
 *
 * Long values are cut (issue #12): every string in a line — fields at any depth, the message, an error's message —
 * keeps its first {@link MAX_LOG_STRING} characters and ends with `…[cut N chars]`; an error's stack keeps its frames
 * (only the message at its top is cut) up to {@link MAX_LOG_STACK} characters. A request that carried a megabyte
 * of text therefore writes a line of a few kilobytes, not the megabyte.
 */
import os from 'node:os';
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LEVELS)[number];

/**
 * The log level from PUNCTUAL_LOG_LEVEL (case-insensitive; unset or empty → `info`).
 * @throws Error naming the variable and the accepted values when it is something else.
 */
export function logLevelFromEnv(env: NodeJS.ProcessEnv = process.env): LogLevel {
  const raw = env.PUNCTUAL_LOG_LEVEL?.trim().toLowerCase();
  if (!raw) return 'info';
  if ((LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  throw new Error(`PUNCTUAL_LOG_LEVEL: "${env.PUNCTUAL_LOG_LEVEL}" is not one of ${LEVELS.join(', ')}`);
}

/** Longest string value in a log line, characters; longer ones are cut with a marker. */
export const MAX_LOG_STRING = 1_000;
/** Longest error stack in a log line, characters. */
export const MAX_LOG_STACK = 8_000;

/** `s` cut to `max` characters with the marker `…[cut N chars]`, or `s` itself when short enough. */
export function cutString(s: string, max = MAX_LOG_STRING): string {
  return s.length > max ? `${s.slice(0, max)}…[cut ${s.length - max} chars]` : s;
}

/**
 * A copy of `value` with every string longer than {@link MAX_LOG_STRING} cut ({@link cutString}); plain objects
 * and arrays are walked to depth 8 (deeper values are replaced by "[too deep]"), anything else is kept as it is.
 */
export function cutLongStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cutString(value);
  if (Array.isArray(value)) return depth >= 8 ? '[too deep]' : value.map((v) => cutLongStrings(v, depth + 1));
  if (value && typeof value === 'object' && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
    if (depth >= 8) return '[too deep]';
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = cutLongStrings(v, depth + 1);
    return out;
  }
  return value;
}

/** pino's error serializer, with the message cut and the stack's copy of the message cut too (frames kept). */
function cutErr(e: unknown): unknown {
  const x = pino.stdSerializers.err(e as Error) as unknown as Record<string, unknown>;
  if (!x || typeof x !== 'object') return x;
  const message = typeof x.message === 'string' ? x.message : '';
  const out = cutLongStrings({ ...x, stack: undefined }) as Record<string, unknown>;
  if (typeof x.stack === 'string') {
    let stack = x.stack;
    if (message.length > MAX_LOG_STRING && stack.includes(message)) stack = stack.replace(message, cutString(message));
    out.stack = cutString(stack, MAX_LOG_STACK);
  }
  return out;
}

/**
 * A new JSON logger. `destination`: where the lines go (default: stdout, written synchronously so nothing is lost
 * at exit); tests pass a stream to read the lines back. `level` default: {@link logLevelFromEnv}.
 */
export function createLogger(opts: { level?: LogLevel; destination?: DestinationStream; bindings?: Record<string, unknown> } = {}): Logger {
  const logger = pino(
    {
      level: opts.level ?? logLevelFromEnv(),
      timestamp: pino.stdTimeFunctions.isoTime,
      base: { pid: process.pid, hostname: os.hostname(), service: 'punctual' },
      serializers: { err: cutErr, msg: (m: unknown) => (typeof m === 'string' ? cutString(m) : m) },
      formatters: { log: (o) => cutLongStrings(o) as Record<string, unknown> },
    },
    opts.destination ?? pino.destination({ dest: 1, sync: true }),
  );
  return opts.bindings ? logger.child(opts.bindings) : logger;
}

const globalForLog = globalThis as unknown as { __punctualLog?: Logger };

/** The process's logger (created on first use, once per process even across Next.js module reloads). */
function rootLogger(): Logger {
  globalForLog.__punctualLog ??= createLogger();
  return globalForLog.__punctualLog;
}

/**
 * Makes `logger` the process's logger from now on (every later {@link rootLogger} and {@link childLogger} call
 * returns it or its children). `npm start` uses it to send the in-process worker's JSON lines to a log file.
 * Children made before the call keep writing where they did.
 */
export function setRootLogger(logger: Logger): void {
  globalForLog.__punctualLog = logger;
}

/** A child of the process's logger whose lines all carry `bindings` (e.g. `{ role: 'worker', workerId }`). */
export function childLogger(bindings: Record<string, unknown>): Logger {
  return rootLogger().child(bindings);
}

/** An unknown thrown value as a loggable `err` field (an Error keeps its stack; anything else becomes a message). */
export function errField(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
