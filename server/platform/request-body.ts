/**
 * Reading request bodies within bounds (issue #12 "Bounded request bodies"): every API route that reads a body —
 * staff JSON routes (app/_http/session.ts), the preferences save, the provider webhooks, one-click unsubscribe and
 * better-auth's endpoints — reads it through here.
 *
 * - Size: at most PUNCTUAL_MAX_BODY_BYTES (default {@link DEFAULT_MAX_BODY_BYTES}, 1 MiB; routes may pass a smaller
 *   cap; the CSV import alone a larger one, {@link CSV_IMPORT_MAX_BODY_BYTES}). A larger `Content-Length` is refused before reading; without one, the stream is read and given up on as
 *   soon as it passes the cap. → 413 naming `body`.
 * - JSON: nesting deeper than {@link MAX_JSON_DEPTH} (32) is refused by a linear scan BEFORE parsing
 *   (domain/platform/request-limits.ts) → 400; then `JSON.parse`; invalid → 400 "not valid JSON"; any string longer than
 *   {@link MAX_TEXT_LENGTH} (10 000 characters) → 400 naming its field. Field-specific limits (an address ≤ 320, a
 *   name ≤ 200 …) are the use-cases' schemas' business (domain/platform/request-limits.ts FIELD_LIMITS).
 * - Forms (`application/x-www-form-urlencoded`, `multipart/form-data`): the same size cap, then parsed.
 *
 * Next.js buffers at most 10 MB of a body for its proxy (proxyClientMaxBodySize) and silently cuts the rest, so the
 * cap must stay below that: PUNCTUAL_MAX_BODY_BYTES is at most {@link MAX_BODY_BYTES_SETTING} (8 MiB).
 */
import { jsonDepthExceeds, MAX_JSON_DEPTH, MAX_TEXT_LENGTH, overlongText, textWithNul } from '@/domain/platform/request-limits';

/** Default largest body, bytes (1 MiB). */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;
/**
 * The body cap of the participants CSV import (POST /api/events/:id/import-csv, issue #13), bytes: 5 MiB — the one
 * route allowed more than the default, as a file of 5,000 participants (domain/people/participant-csv.ts MAX_IMPORT_ROWS)
 * with long names and ignored extra columns can pass 1 MiB. A larger PUNCTUAL_MAX_BODY_BYTES applies there too.
 */
export const CSV_IMPORT_MAX_BODY_BYTES = 5 * 1_048_576;
/** Largest accepted PUNCTUAL_MAX_BODY_BYTES, bytes (8 MiB: below Next's 10 MB proxy buffer). */
const MAX_BODY_BYTES_SETTING = 8 * 1_048_576;

/**
 * PUNCTUAL_MAX_BODY_BYTES as a number of bytes (unset → 1 MiB).
 * @throws Error naming the variable when it is not a whole number from 1024 to 8 MiB.
 */
export function maxBodyBytesFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.PUNCTUAL_MAX_BODY_BYTES?.trim();
  if (!raw) return DEFAULT_MAX_BODY_BYTES;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1024 || n > MAX_BODY_BYTES_SETTING) {
    throw new Error(`PUNCTUAL_MAX_BODY_BYTES: "${raw}" must be a whole number of bytes from 1024 to ${MAX_BODY_BYTES_SETTING}`);
  }
  return n;
}

/** A body refused before it became objects: `status` 413 (too large) or 400 (too deep, not JSON, a value too long). */
export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
    readonly field: string = 'body',
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

/** `{ error, field }` JSON answer for a {@link BodyError} (the shape of every API error, app/_http/session.ts). */
export function bodyErrorResponse(e: BodyError): Response {
  return Response.json({ error: e.message, field: e.field }, { status: e.status, headers: { 'cache-control': 'no-store' } });
}

const tooLarge = (max: number) => new BodyError(413, `body: larger than ${max} bytes (the limit of a request body)`);

/**
 * The body's bytes, at most `maxBytes`.
 * @throws BodyError 413 when `Content-Length` or the bytes read pass `maxBytes` (reading stops there).
 */
export async function readBodyBytes(request: Request, maxBytes = maxBodyBytesFromEnv()): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => {});
    throw tooLarge(maxBytes);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** The body as UTF-8 text (malformed sequences become U+FFFD), at most `maxBytes`. @throws BodyError 413. */
export async function readBodyText(request: Request, maxBytes = maxBodyBytesFromEnv()): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(request, maxBytes));
}

/**
 * The body parsed as JSON, or `undefined` when it is empty (module doc for the checks, in order).
 * @throws BodyError 413 too large; 400 nested deeper than {@link MAX_JSON_DEPTH}, not valid JSON, or a string
 *   longer than {@link MAX_TEXT_LENGTH} (naming its field).
 */
export async function readJsonBody(request: Request, opts: { maxBytes?: number } = {}): Promise<unknown> {
  const text = await readBodyText(request, opts.maxBytes);
  return parseJsonText(text);
}

/** {@link readJsonBody}'s checks on text already read (within the size cap). @throws BodyError 400. */
export function parseJsonText(text: string): unknown {
  if (!text) return undefined;
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw new BodyError(400, `body: nested deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BodyError(400, 'request body: not valid JSON');
  }
  const long = overlongText(value, MAX_TEXT_LENGTH);
  if (long) throw new BodyError(400, `${long}: longer than ${MAX_TEXT_LENGTH} characters`, long);
  const nul = textWithNul(value);
  if (nul) throw new BodyError(400, `${nul}: contains a NUL character (U+0000)`, nul);
  return value;
}

/**
 * The body of a form post (`application/x-www-form-urlencoded` or `multipart/form-data`, per `Content-Type`),
 * at most `maxBytes`. @throws BodyError 413 too large; TypeError when it is not a readable form of that type.
 */
export async function readFormBody(request: Request, maxBytes = maxBodyBytesFromEnv()): Promise<FormData> {
  const bytes = await readBodyBytes(request, maxBytes);
  return new Response(bytes, { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData();
}
