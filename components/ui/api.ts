/**
 * Browser-side calls to Punctual's JSON route handlers. Every error answer is `{ error, field? }`
 * (app/_http/session.ts); `ApiError` carries both so forms can mark the offending field.
 */
export class ApiError extends Error {
  /** The key of a create was already used with other values (HTTP 422 naming `Idempotency-Key`): make a new one. */
  get keyReused(): boolean {
    return this.status === 422 && this.field === 'Idempotency-Key';
  }

  constructor(
    message: string,
    readonly status: number,
    readonly field?: string,
    /** The whole JSON error answer (e.g. a 409's `current` record and who changed it), when there was one. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

interface ApiCallOptions {
  /** Sent as the `Idempotency-Key` header: a repeat of a create with the same key returns the first answer. */
  idempotencyKey?: string;
}

/**
 * Sends `body` as JSON with `method` to `url` and returns the parsed answer.
 * @throws ApiError with the server's message (or a plain one for network failures, status 0).
 */
export async function apiCall<T = unknown>(url: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', body?: unknown, options: ApiCallOptions = {}): Promise<T> {
  let res: Response;
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiError('Could not reach the server — check the connection and try again.', 0);
  }
  const data = (await res.json().catch(() => null)) as ({ error?: string; field?: string } & T) | null;
  if (!res.ok) {
    const message = data?.error ?? `The server answered HTTP ${res.status}.`;
    throw new ApiError(res.status === 401 ? 'Your session ended — sign in again.' : message, res.status, data?.field, data ?? undefined);
  }
  return data as T;
}

/**
 * A fresh idempotency key (made when a dialog or create form opens, and again after each successful create,
 * so a double click or a retried request creates once; the server keeps keys 24 h).
 */
export function newIdempotencyKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}
