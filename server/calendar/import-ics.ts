/**
 * Imports an iCalendar file into a tenant's events (`npm run import:ics`). The file is read in full first
 * (domain/calendar/ics.ts: bytes → unfolded UTF-8 → one component at a time), so a malformed file writes nothing; then
 * every event is written in ONE transaction, in batches, so a failure half-way (a database error, an event the
 * use-cases reject) also writes nothing.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { setActor } from '@/db/queries/platform/actor';
import { externalUidsMatching, getTenantBySlug, lockEventsByExternalUids, updateEventTexts } from '@/db/queries/scheduling/scheduling';
import type { Event } from '@/db/schema';
import { GROUP_MEMBER_PATTERN, groupOfIdentity, matchSessions } from '@/domain/calendar/ics-identity';
import type { ImportIcsSummary } from '@/domain/calendar/import-summary';
import { AppError } from '@/server/platform/errors';
import { readIcs, type IcsEvent } from '@/domain/calendar/ics';
import { cancelEvent, createEvents, rescheduleEvent } from '@/server/scheduling/events';
import type { CreateEventInput } from '@/server/scheduling/inputs';

export type { ImportIcsSummary } from '@/domain/calendar/import-summary';

/** Recurring series are expanded from `now` − 30 days … */
export const IMPORT_HORIZON_PAST_DAYS = 30;
/** … to `now` + 365 days, unless `horizonDays` says otherwise. */
export const IMPORT_HORIZON_FUTURE_DAYS = 365;
/** Events looked up and inserted per statement. */
const IMPORT_BATCH_SIZE = 1000;

const DAY_MS = 86_400_000;

/** Progress of a long import: `read` counts VEVENTs parsed, `write` counts events written. */
export interface ImportProgress {
  phase: 'read' | 'write';
  done: number;
  total: number;
}

/**
 * Imports `input` (an .ics file, preferably its bytes) into the tenant with slug `tenantSlug`.
 *
 * Identity is (tenant, identity) with the identity stored in `events.external_uid` (domain/calendar/ics.ts readIcs,
 * domain/calendar/ics-identity.ts): the UID; `UID#c-<hash>` for each VEVENT of a UID the file repeats; `nouid:<hash>`
 * without UID; `…#RECURRENCE-ID` for an occurrence. An event whose identity is stored is updated, never
 * duplicated:
 *  - new identity → created (no reminders yet: they come with bookings) — unless it belongs to a UID that has
 *    other stored records (a repeated UID, or records stored as `UID#2` by earlier versions): then it is a
 *    session that changed, matched to the remaining records of that UID by content (`matchSessions`: same
 *    start+title+location, else same title+location, else same start), only when unambiguous; an ambiguous
 *    one is listed in `skipped` and nothing is changed for it; one that resembles no record is created;
 *  - known identity → title/description/location updated when they differ; a different start, end, zone or
 *    all-day flag → `rescheduleEvent` in the same transaction (schedule version + 1, reminders re-planned);
 *  - STATUS:CANCELLED → the existing event is cancelled with its still-sendable reminders; a cancelled
 *    VEVENT never imported before is not created;
 *  - an event cancelled in Punctual stays cancelled (its texts may still be updated; its timing is kept).
 * Events that disappear from the file, or occurrences that leave the horizon, are left as they are. A
 * UID-less event whose start, title or location changes gets a new identity: it is created anew.
 *
 * Memory: the file's text, one small record per VEVENT and per event; rows are read and written in batches of
 * IMPORT_BATCH_SIZE inside the one transaction (multi-row INSERT; updates one by one).
 *
 * @param now the import instant (UTC): anchors the horizon, stamps `updated_at`, and plans reminders.
 * @param opts.onProgress called after every batch read or written.
 * @returns the summary of every VEVENT and occurrence read (domain/calendar/import-summary.ts).
 * @throws AppError('not_found', field 'tenant') for an unknown slug; IcsError (domain/calendar/ics.ts) for a malformed
 *   file, before any write; AppError from createEvents/rescheduleEvent (message prefixed with the UID) —
 *   in every error case nothing is imported.
 */
export async function importIcs(
  db: Db,
  tenantSlug: string,
  input: string | Uint8Array,
  now: Date,
  opts: { horizonDays?: number; onProgress?: (p: ImportProgress) => void } = {},
): Promise<ImportIcsSummary> {
  const horizonDays = opts.horizonDays ?? IMPORT_HORIZON_FUTURE_DAYS;
  if (!Number.isFinite(horizonDays) || horizonDays < 0) {
    throw new AppError('validation', 'horizonDays: must be a number of days, 0 or more', 'horizonDays');
  }
  const tenant = await getTenantBySlug(db, tenantSlug);
  if (!tenant) throw new AppError('not_found', `tenant "${tenantSlug}" not found`, 'tenant');

  const window = { start: new Date(now.getTime() - IMPORT_HORIZON_PAST_DAYS * DAY_MS), end: new Date(now.getTime() + horizonDays * DAY_MS) };
  const { events: parsed, stats } = readIcs(input, {
    defaultTimeZone: tenant.timeZone,
    horizonStart: window.start,
    horizonEnd: window.end,
    onProgress: opts.onProgress && ((done, total) => opts.onProgress!({ phase: 'read', done, total })),
  });

  const summary: ImportIcsSummary = {
    created: 0,
    updated: 0,
    rescheduled: 0,
    unchanged: 0,
    cancelled: 0,
    total: 0,
    read: { vevents: stats.vevents, occurrences: stats.occurrences },
    withoutUid: stats.withoutUid,
    repeatedUids: stats.repeatedUids,
    window,
    outsideWindow: { before: stats.beforeWindow, after: stats.afterWindow, seriesContinuing: stats.seriesContinuing },
    beyondLimit: stats.beyondLimit,
    duplicates: stats.duplicates,
    skipped: [],
    past: 0,
  };
  await db.transaction(async (tx) => {
    // Two imports into one tenant at once would both miss a new identity and collide on its unique index:
    // serialise them (the lock ends with the transaction).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`import-ics:${tenant.id}`}))`);
    // Rows this import changes name it as their last editor (a stale staff save then says "changed by import").
    await setActor(tx, 'import');
    // Stored identities that name one member of a repeated UID (`UID#c-…`, or `UID#2` from earlier versions).
    const members = new Map<string, string[]>();
    for (const id of await externalUidsMatching(tx, tenant.id, GROUP_MEMBER_PATTERN)) {
      const g = groupOfIdentity(id);
      if (g !== null) members.set(g, [...(members.get(g) ?? []), id]);
    }
    /** Stored events already matched by identity in this import: not available to content matching. */
    const claimed = new Set<string>();
    /** Sessions of a UID with other stored records, whose own identity is new: matched by content at the end. */
    const deferred = new Map<string, IcsEvent[]>();

    for (let i = 0; i < parsed.length; i += IMPORT_BATCH_SIZE) {
      const batch = parsed.slice(i, i + IMPORT_BATCH_SIZE);
      const lookup = new Set<string>();
      for (const e of batch) {
        lookup.add(e.uid);
        if (e.group !== null && e.group !== e.uid) lookup.add(e.group);
      }
      const byUid = new Map((await lockEventsByExternalUids(tx, tenant.id, [...lookup])).map((r) => [r.externalUid!, r]));
      const creates: IcsEvent[] = [];
      for (const e of batch) {
        const existing = byUid.get(e.uid);
        if (existing) {
          claimed.add(existing.id);
          summary[await withUid(e, () => applyChanges(tx, tenant.id, existing, e, now))]++;
        } else if (e.group !== null && (members.has(e.group) || (e.group !== e.uid && byUid.has(e.group)))) {
          deferred.set(e.group, [...(deferred.get(e.group) ?? []), e]);
        } else creates.push(e);
      }
      await createAll(tx, tenant.id, creates, summary);
      opts.onProgress?.({ phase: 'write', done: Math.min(i + IMPORT_BATCH_SIZE, parsed.length), total: parsed.length });
    }

    for (const [group, sessions] of deferred) {
      const records = (await lockEventsByExternalUids(tx, tenant.id, [group, ...(members.get(group) ?? [])])).filter((r) => !claimed.has(r.id));
      const byKey = new Map(sessions.map((s) => [s.uid, s]));
      const m = matchSessions(
        sessions.map((s) => ({ key: s.uid, startsAt: s.startsAt.getTime(), title: s.title, location: s.location })),
        records.map((r) => ({ id: r.id, startsAt: r.startsAt.getTime(), title: r.title, location: r.location })),
      );
      for (const [key, id] of m.matched) {
        const e = byKey.get(key)!;
        const row = records.find((r) => r.id === id)!;
        // The stored record takes the session's position-free identity, then gets its changes.
        await updateEventTexts(tx, tenant.id, row.id, { externalUid: e.uid }, now);
        summary[await withUid(e, () => applyChanges(tx, tenant.id, { ...row, externalUid: e.uid }, e, now))]++;
      }
      await createAll(tx, tenant.id, m.create.map((k) => byKey.get(k)!), summary);
      for (const a of m.ambiguous) {
        const e = byKey.get(a.key)!;
        summary.skipped.push({
          uid: e.uid,
          title: e.title,
          reason: `UID ${group} is shared by several sessions and this one changed; it resembles ${a.candidates} stored events (or shares one with another session), so it was not matched and nothing was changed for it`,
        });
      }
    }
  });
  summary.total = summary.created + summary.updated + summary.rescheduled + summary.unchanged + summary.cancelled;
  // One-off events are imported whatever their age (only recurring series are windowed): say how many are past.
  const notImported = new Set(summary.skipped.map((k) => k.uid));
  summary.past = parsed.filter((e) => !e.cancelled && !notImported.has(e.uid) && e.startsAt.getTime() < now.getTime()).length;
  return summary;
}

type Outcome = 'created' | 'updated' | 'rescheduled' | 'unchanged' | 'cancelled';

async function withUid<T>(e: IcsEvent, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (err instanceof AppError) throw new AppError(err.code, `event UID ${e.uid}: ${err.message}`, err.field);
    throw err;
  }
}

/** Creates the new events (a cancelled one is not created: `unchanged`), one multi-row insert. */
async function createAll(tx: Tx, tenantId: string, es: IcsEvent[], summary: ImportIcsSummary): Promise<void> {
  const inputs: CreateEventInput[] = [];
  for (const e of es) {
    if (e.cancelled) {
      summary.unchanged++;
      continue;
    }
    inputs.push({
      title: e.title,
      description: e.description,
      location: e.location,
      externalUid: e.uid,
      startsAt: e.startsAt,
      endsAt: e.endsAt,
      timeZone: e.timeZone,
      allDay: e.allDay,
    });
  }
  await createEvents(tx, tenantId, inputs);
  summary.created += inputs.length;
}

async function applyChanges(tx: Tx, tenantId: string, existing: Event, e: IcsEvent, now: Date): Promise<Outcome> {
  const textChanged = existing.title !== e.title || existing.description !== e.description || existing.location !== e.location;
  if (textChanged) await updateEventTexts(tx, tenantId, existing.id, { title: e.title, description: e.description, location: e.location }, now);
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
