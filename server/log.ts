/**
 * Structured logs (issue #11 §3): one JSON object per line on stdout, through pino, for the web app and the
 * worker alike. Fields every line has: `level` (pino's number: 30 info, 40 warn, 50 error), `time` (UTC ISO
 * instant of the process clock — log time only, never a scheduling decision), `pid`, `hostname`, `msg`, and the
 * bindings of its child logger (`role`: `web` | `worker`, `workerId`, …). Errors go under `err` (message, stack).
 *
 * Joining a reminder, its delivery and its attempts: every send-attempt line carries `reminderId`, `deliveryId`,
 * `messageKey`, `attemptNo`, `tenantId`, `channel` and `outcome` (server/metrics.ts `observeSend`), so filtering by
 * `reminderId` (or `deliveryId`) gives that message's whole story across processes.
 *
 * Level: PUNCTUAL_LOG_LEVEL = `fatal` | `error` | `warn` | `info` (default) | `debug` | `trace` | `silent`.
 */
import os from 'node:os';
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LEVELS)[number];

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
      serializers: { err: pino.stdSerializers.err },
    },
    opts.destination ?? pino.destination({ dest: 1, sync: true }),
  );
  return opts.bindings ? logger.child(opts.bindings) : logger;
}

const globalForLog = globalThis as unknown as { __punctualLog?: Logger };

/** The process's logger (created on first use, once per process even across Next.js module reloads). */
export function rootLogger(): Logger {
  globalForLog.__punctualLog ??= createLogger();
  return globalForLog.__punctualLog;
}

/** A child of the process's logger whose lines all carry `bindings` (e.g. `{ role: 'worker', workerId }`). */
export function childLogger(bindings: Record<string, unknown>): Logger {
  return rootLogger().child(bindings);
}

/** An unknown thrown value as a loggable `err` field (an Error keeps its stack; anything else becomes a message). */
export function errField(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
