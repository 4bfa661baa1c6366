/**
 * No lost updates (DESIGN.md invariant 11), the server side: every edit of a stored record carries the row
 * `version` its editor saw; inside the writing transaction, after the row lock, the stored version is
 * compared with it, and a stale save is refused with a 409 that writes nothing and hands back the current
 * record. Checks that guard a write (the actor's own role) are made under a lock as well.
 */
import { z } from 'zod';
import type { Tx } from '@/db/client';
import { actorDisplayName, lockActorForShare } from '@/db/queries/platform/actor';
import { getTenant } from '@/db/queries/scheduling/scheduling';
import { conflictMessage } from '@/domain/platform/edit-conflict';
import { can, refusalMessage, type Permission } from '@/domain/accounts/permissions';
import { AppError, parseInput } from './errors';

const versionSchema = z.object({
  version: z
    .number({ error: (i) => (i.input === undefined ? 'required: send the version of the record you opened' : 'must be the record version you opened (a whole number)') })
    .int('must be a whole number')
    .min(1, 'must be 1 or more'),
});

/**
 * The `version` field of an edit's body (a positive integer; the route fills it from `If-Match` when the
 * body has none). @throws AppError('validation', field `version`) when missing or malformed.
 */
export function parseVersion(input: unknown): number {
  return parseInput(versionSchema, input ?? {}).version;
}

/** The row-version columns every editable table has (migration 0006). */
interface VersionedRow {
  version: number;
  updatedBy: string | null;
  /** When it last changed; absent for tables without `updated_at` (suppressions). */
  updatedAt?: Date | null;
}

/**
 * Refuses a stale save: when `row.version` (read under the row lock, in the writing transaction) is not
 * `seen`, throws a 409 "<what> was changed by NAME at TIME since you opened it." naming field `version`, with
 * `{ current, version }` in the answer. NAME is the staff member's name for `updated_by` (else the
 * `updated_by` text, e.g. "import"); TIME is `updated_at` in `zone` (default: the tenant's zone), left out
 * for a table without one (suppressions).
 * @throws AppError('conflict') — nothing has been written by the caller yet, so the transaction rolls back clean.
 */
export async function assertVersion(
  tx: Tx,
  ctx: { tenantId: string },
  row: VersionedRow,
  seen: number,
  opts: { what: string; zone?: string; current: unknown },
): Promise<void> {
  if (row.version === seen) return;
  const by = await actorDisplayName(tx, ctx.tenantId, row.updatedBy ?? 'system');
  const zone = opts.zone ?? (await getTenant(tx, ctx.tenantId))?.timeZone ?? 'UTC';
  const at = row.updatedAt ?? null;
  throw new AppError('conflict', conflictMessage({ what: opts.what, by, at, zone }), 'version', {
    current: opts.current,
    version: row.version,
    changedBy: by,
    changedAt: at ? at.toISOString() : null,
  });
}

/**
 * The 409 of a stale save of a per-tenant settings row (one row per tenant, inserted by the first save at version 0):
 * no row yet → "These <noun> were never saved, so there is no version N: reload the page." (`current` as a fresh
 * form would show it, version 0); else {@link assertVersion}'s "changed by NAME at TIME" with `current`.
 * @param current the settings as the form shows them, from the stored row or (undefined) the defaults.
 * @throws AppError('conflict') always.
 */
export async function refuseStaleSettings<R extends VersionedRow>(
  tx: Tx,
  ctx: { tenantId: string },
  row: R | undefined,
  seen: number,
  opts: { noun: string; what: string; current: (row: R | undefined) => unknown },
): Promise<never> {
  if (!row) {
    throw new AppError('conflict', `These ${opts.noun} were never saved, so there is no version ${seen}: reload the page.`, 'version', { current: opts.current(undefined), version: 0 });
  }
  await assertVersion(tx, ctx, row, seen, { what: opts.what, current: opts.current(row) });
  throw new Error('unreachable: assertVersion accepted a stale version');
}

/**
 * Refuses a version the server never issued for this row: `seen` greater than the stored `row.version` (read
 * under the row lock) is not a stale save — nobody ever saw that version — but a request made up or corrupted
 * on its way, so it is a 400 naming `version`, not a 409 "changed by …" about a change that did not happen.
 * @throws AppError('validation', field `version`, `{ version: row.version }`).
 */
export function assertVersionIssued(row: { version: number }, seen: number): void {
  if (seen <= row.version) return;
  throw new AppError('validation', `version: ${seen} was never issued for this record (it is at version ${row.version}) — reload the page and try again`, 'version', {
    version: row.version,
  });
}

/**
 * Re-checks, under a lock, that the acting staff member may still do this: their row is read FOR SHARE, so
 * a request that began while they were an admin cannot complete after another admin demoted them (the
 * demotion locks the row FOR UPDATE; whichever commits first decides). A disabled account (issue #13) may do
 * nothing. Call inside the writing transaction, before the write. @throws AppError('forbidden') naming the role
 * they hold now, or saying the account was disabled.
 */
export async function assertActorMay(tx: Tx, ctx: { tenantId: string; actorId: string }, permission: Permission): Promise<void> {
  const me = await lockActorForShare(tx, ctx.tenantId, ctx.actorId);
  if (!me) throw new AppError('forbidden', 'Your account no longer exists in this organisation.');
  if (me.disabledAt) throw new AppError('forbidden', 'This account has been disabled (while this request was on its way).');
  if (!can(me.role, permission)) throw new AppError('forbidden', `${refusalMessage(me.role, permission)} (your role was changed while this request was on its way)`);
}

/**
 * {@link assertActorMay} for use-cases that also run without a staff member behind them (the seed, the calendar
 * import, tests: no `actorId`): re-checks whenever `ctx.actorId` is set, and every route handler sets it
 * (app/_http/session.ts `actionContext`). Call first thing inside the writing transaction. @throws AppError('forbidden').
 */
export async function recheckActor(tx: Tx, ctx: { tenantId: string; actorId?: string }, permission: Permission): Promise<void> {
  if (ctx.actorId) await assertActorMay(tx, { tenantId: ctx.tenantId, actorId: ctx.actorId }, permission);
}
