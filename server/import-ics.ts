/**
 * Imports an iCalendar file into a tenant's events (`npm run import:ics`). The file is parsed in full
 * first (server/ics.ts), so a malformed file writes nothing; then every event is written in ONE
 * transaction, so a failure half-way (a database error, an event the use-cases reject) also writes nothing.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { getEventByExternalUid, getTenantBySlug } from '../db/queries/scheduling';
import { events, type Event } from '../db/schema';
import { AppError } from './errors';
import { parseIcs, type IcsEvent } from './ics';
import { cancelEvent, createEvent, rescheduleEvent } from './scheduling';

/** Recurring series are expanded from `now` − 30 days … */
export const IMPORT_HORIZON_PAST_DAYS = 30;
/** … to `now` + 365 days, unless `horizonDays` says otherwise. */
export const IMPORT_HORIZON_FUTURE_DAYS = 365;

const DAY_MS = 86_400_000;

/** What one import did. Each parsed event lands in exactly one bucket; `total` is their sum. */
export interface ImportIcsSummary {
  /** New events (schedule version 1). */
  created: number;
  /** Title, description or location changed; timing unchanged. */
  updated: number;
  /** Timing changed: schedule version bumped, old reminders superseded, new ones planned. */
  rescheduled: number;
  /** Nothing to change — including a cancelled VEVENT that was never imported or is already cancelled. */
  unchanged: number;
  /** STATUS:CANCELLED in the file; the event was active and is now cancelled with its reminders. */
  cancelled: number;
  total: number;
}

/**
 * Imports `text` (an .ics file) into the tenant with slug `tenantSlug`.
 *
 * Identity is (tenant, UID): an event whose `external_uid` already exists is updated, never duplicated; an
 * expanded occurrence of a recurring series has the identity `UID#RECURRENCE-ID` (see parseIcs).
 *  - new UID → `createEvent` (no reminders yet: they come with bookings);
 *  - known UID → title/description/location updated when they differ; a different start, end, zone or
 *    all-day flag → `rescheduleEvent` in the same transaction (schedule version + 1, reminders re-planned);
 *  - STATUS:CANCELLED → the existing event is cancelled with its still-sendable reminders; a cancelled
 *    VEVENT never imported before is not created;
 *  - an event cancelled in Punctual stays cancelled (its texts may still be updated; its timing is kept).
 * Events that disappear from the file, or occurrences that leave the horizon, are left as they are.
 *
 * Zones: UTC and floating times are planned in the tenant's zone; TZIDs map to IANA zones (parseIcs).
 * Horizon: recurring series are expanded to occurrences starting within [now − 30 days, now + `horizonDays`]
 * (default 365 days), at most 500 per series; non-recurring events are imported whatever their date.
 *
 * @param now the import instant (UTC): anchors the horizon, stamps `updated_at`, and plans reminders.
 * @throws AppError('not_found', field 'tenant') for an unknown slug; IcsError (server/ics.ts) for a malformed
 *   file, before any write; AppError from createEvent/rescheduleEvent (message prefixed with the UID) —
 *   in every error case nothing is imported.
 */
export async function importIcs(
  db: Db,
  tenantSlug: string,
  text: string,
  now: Date,
  opts: { horizonDays?: number } = {},
): Promise<ImportIcsSummary> {
  const horizonDays = opts.horizonDays ?? IMPORT_HORIZON_FUTURE_DAYS;
  if (!Number.isFinite(horizonDays) || horizonDays < 0) {
    throw new AppError('validation', 'horizonDays: must be a number of days, 0 or more', 'horizonDays');
  }
  const tenant = await getTenantBySlug(db, tenantSlug);
  if (!tenant) throw new AppError('not_found', `tenant "${tenantSlug}" not found`, 'tenant');

  const parsed = parseIcs(text, {
    defaultTimeZone: tenant.timeZone,
    horizonStart: new Date(now.getTime() - IMPORT_HORIZON_PAST_DAYS * DAY_MS),
    horizonEnd: new Date(now.getTime() + horizonDays * DAY_MS),
  });

  const summary: ImportIcsSummary = { created: 0, updated: 0, rescheduled: 0, unchanged: 0, cancelled: 0, total: parsed.length };
  await db.transaction(async (tx) => {
    // Two imports into one tenant at once would both miss a new UID and collide on its unique index:
    // serialise them (the lock ends with the transaction).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`import-ics:${tenant.id}`}))`);
    for (const e of parsed) {
      try {
        summary[await importOne(tx, tenant.id, e, now)]++;
      } catch (err) {
        if (err instanceof AppError) throw new AppError(err.code, `event UID ${e.uid}: ${err.message}`, err.field);
        throw err;
      }
    }
  });
  return summary;
}

type Outcome = 'created' | 'updated' | 'rescheduled' | 'unchanged' | 'cancelled';

async function importOne(tx: Tx, tenantId: string, e: IcsEvent, now: Date): Promise<Outcome> {
  const existing = await getEventByExternalUid(tx, tenantId, e.uid);
  if (!existing) {
    if (e.cancelled) return 'unchanged';
    await createEvent(tx, tenantId, {
      title: e.title,
      description: e.description,
      location: e.location,
      externalUid: e.uid,
      startsAt: e.startsAt,
      endsAt: e.endsAt,
      timeZone: e.timeZone,
      allDay: e.allDay,
    });
    return 'created';
  }

  const textChanged = existing.title !== e.title || existing.description !== e.description || existing.location !== e.location;
  if (textChanged) {
    await tx
      .update(events)
      .set({ title: e.title, description: e.description, location: e.location, updatedAt: now })
      .where(and(eq(events.tenantId, tenantId), eq(events.id, existing.id)));
  }
  if (existing.status === 'cancelled') return textChanged ? 'updated' : 'unchanged';
  if (e.cancelled) {
    // On a Tx cancelEvent runs as a savepoint: the cancellation commits or rolls back with this import.
    await cancelEvent(tx, tenantId, existing.id, 'cancelled in the imported calendar (STATUS:CANCELLED)', now);
    return 'cancelled';
  }
  if (timingChanged(existing, e)) {
    await rescheduleEvent(tx, tenantId, existing.id, { startsAt: e.startsAt, endsAt: e.endsAt, timeZone: e.timeZone, allDay: e.allDay }, now);
    return 'rescheduled';
  }
  return textChanged ? 'updated' : 'unchanged';
}

function timingChanged(existing: Event, e: IcsEvent): boolean {
  return (
    existing.startsAt.getTime() !== e.startsAt.getTime() ||
    existing.endsAt.getTime() !== e.endsAt.getTime() ||
    existing.timeZone !== e.timeZone ||
    existing.allDay !== e.allDay
  );
}
