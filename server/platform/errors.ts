/**
 * The one application error type (STYLE.md). `code` is a closed union; `field` names the offending input
 * field for `validation` errors so HTTP handlers can answer 4xx naming it and the CLI can print it.
 */
import type { z } from 'zod';
import { isUuid } from '@/domain/ids';

type AppErrorCode = 'validation' | 'not_found' | 'conflict' | 'forbidden' | 'invalid_state' | 'rate_limited' | 'unprocessable';

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly field?: string,
    /** Extra members of the JSON error answer, e.g. a stale save's `{ current, version }` (server/platform/versions.ts). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  /**
   * HTTP status for this code: validation 400, not_found 404, conflict/invalid_state 409, forbidden 403,
   * rate_limited 429, unprocessable 422 (an Idempotency-Key reused with another request, IETF httpapi draft).
   */
  get httpStatus(): number {
    return { validation: 400, not_found: 404, conflict: 409, invalid_state: 409, forbidden: 403, rate_limited: 429, unprocessable: 422 }[this.code];
  }
}

/** Converts a zod error into an AppError naming the first failing field (dotted path). */
export function fromZodError(err: { issues: { path: PropertyKey[]; message: string }[] }): AppError {
  const first = err.issues[0];
  const field = first?.path.map(String).join('.') || undefined;
  return new AppError('validation', field ? `${field}: ${first.message}` : (first?.message ?? 'invalid input'), field);
}

/** Parses `input` with a zod schema. @throws AppError('validation') naming the first failing field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw fromZodError(r.error);
  return r.data;
}

/**
 * An id taken from a URL path must look like one of ours (a UUID) — else it is simply not found (404), the
 * same answer as an id of another tenant, and PostgreSQL never sees the malformed value.
 * @throws AppError('not_found') naming `field`.
 */
export function assertId(id: unknown, field: string, what: string): asserts id is string {
  if (!isUuid(id)) throw new AppError('not_found', `${what} ${String(id).slice(0, 80)} not found`, field);
}

/**
 * True when `e` (or its `cause`, as drizzle wraps driver errors) is a PostgreSQL deadlock (SQLSTATE 40P01) or
 * serialization failure (40001): the transaction was rolled back whole and may simply be run again
 * (PostgreSQL manual, "Serialization Failure Handling").
 */
export function isRetryableTransactionError(e: unknown): boolean {
  for (let x: unknown = e, depth = 0; x && typeof x === 'object' && depth < 4; x = (x as { cause?: unknown }).cause, depth++) {
    const code = (x as { code?: unknown }).code;
    if (code === '40P01' || code === '40001') return true;
  }
  return false;
}

/**
 * Runs `fn` (which must run its writes in its own transactions, so a failed try left nothing behind) and runs
 * it again, up to `attempts` times in all, when it failed with a deadlock or serialization failure — two staff
 * actions that lock the same rows in different orders then both complete (or answer 409), never 500.
 * Waits a few random milliseconds between tries. @throws the last error.
 */
export async function retryOnTransactionConflict<T>(fn: () => Promise<T>, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i >= attempts || !isRetryableTransactionError(e)) throw e;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * i));
    }
  }
}
