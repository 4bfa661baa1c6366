/**
 * Idempotent creates (issue #8 §4): a create request that carries an `Idempotency-Key` runs its creation
 * and the key's row in ONE transaction (the rules are in domain/platform/idempotency.ts):
 *
 * 1. claim the key (INSERT on the unique index). A concurrent request with the same key waits here until
 *    the first one commits or rolls back — so two requests fired at once never both create, and the second
 *    never sees a half-done first one;
 * 2. key already stored: same route and body → the stored response (`replayed: true`), nothing runs;
 *    another body or route → AppError `unprocessable` (422) naming the header, nothing is written;
 * 3. key is new: run `create(tx)` inside the transaction, store its response under the key, commit both.
 *    If the creation fails (AppError or anything else), the whole transaction rolls back and leaves no key:
 *    a retry runs again. Only successful creations are remembered.
 *
 * Keys are scoped per tenant and staff user, kept IDEMPOTENCY_KEY_TTL_HOURS hours (then reusable), and
 * deleted by the minute sweep after that (jobs/tasks/dispatch-due.ts).
 */
import type { Db, DbOrTx, Tx } from '@/db/client';
import { claimIdempotencyKey, findIdempotencyKey, storeIdempotentResponse } from '@/db/queries/platform/idempotency';
import { decideRepeat, IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_TTL_HOURS, parseIdempotencyKey, requestFingerprint } from '@/domain/platform/idempotency';
import { AppError } from './errors';

interface IdempotentRequest {
  tenantId: string;
  /** The staff user's id (not the email: an account keeps its id). */
  actorId: string;
  /** The parsed `Idempotency-Key` (domain/platform/idempotency.ts parseIdempotencyKey). */
  key: string;
  /** `METHOD path`, e.g. `POST /api/events/<id>/bookings`: a key used on another route is a mismatch. */
  route: string;
  /** The parsed JSON request body (fingerprinted as canonical JSON). */
  body: unknown;
}

interface IdempotentResponse<T> {
  /** HTTP status of the (first) response. */
  status: number;
  /** Its JSON body, exactly as stored (a JSON round trip of what `create` returned). */
  body: T;
  /** True when this is the stored answer to an earlier request with the same key. */
  replayed: boolean;
}

/**
 * Runs `create` at most once per (tenant, actor, key) — see the module doc.
 * @param create the creation; it MUST write only through `tx` (a use-case that opens its own transaction on
 *   `tx` gets a savepoint inside this one). Its result must be JSON (it is stored as jsonb).
 * @param status HTTP status to store with a successful response (default 200).
 * @throws AppError('unprocessable', field `Idempotency-Key`) for a key reused with another body or route;
 *   whatever `create` throws (nothing is then stored).
 */
async function withIdempotency<T>(db: Db, req: IdempotentRequest, create: (tx: Tx) => Promise<T>, status = 200): Promise<IdempotentResponse<T>> {
  const id = { tenantId: req.tenantId, actorId: req.actorId, key: req.key };
  const incoming = { route: req.route, fingerprint: requestFingerprint(req.body) };
  return db.transaction(async (tx) => {
    if (!(await claimIdempotencyKey(tx, id, incoming, IDEMPOTENCY_KEY_TTL_HOURS))) {
      // Taken by a committed request (we may have waited for it above). READ COMMITTED: this new statement
      // sees that commit.
      const stored = await findIdempotencyKey(tx, id);
      if (!stored) throw new Error(`idempotency key vanished between claim and read (tenant ${req.tenantId})`);
      const d = decideRepeat(stored, incoming);
      if (d.kind === 'mismatch') throw new AppError('unprocessable', d.message, IDEMPOTENCY_HEADER);
      return { status: stored.responseStatus, body: stored.responseBody as T, replayed: true };
    }
    const result = await create(tx);
    const body = JSON.parse(JSON.stringify(result ?? { ok: true })) as T;
    await storeIdempotentResponse(tx, id, { status, body });
    return { status, body, replayed: false };
  });
}

/**
 * A create request as a route handler sees it (app/_http/session.ts `staffCreateRoute`): without an
 * `Idempotency-Key` header `create` runs on `db` as before; with one, through {@link withIdempotency}.
 * @param keyHeader the raw header value (null when absent).
 * @throws AppError('validation', field `Idempotency-Key`) for a malformed key (400, nothing runs);
 *   AppError('unprocessable') for a reused key; whatever `create` throws.
 */
export async function handleCreate<T>(
  db: Db,
  req: Omit<IdempotentRequest, 'key'> & { keyHeader: string | null },
  create: (db: DbOrTx) => Promise<T>,
): Promise<IdempotentResponse<T>> {
  const parsed = parseIdempotencyKey(req.keyHeader);
  if (!parsed.ok) throw new AppError('validation', parsed.error, IDEMPOTENCY_HEADER);
  if (parsed.key === null) return { status: 200, body: await create(db), replayed: false };
  return withIdempotency(db, { tenantId: req.tenantId, actorId: req.actorId, key: parsed.key, route: req.route, body: req.body }, create);
}
