/**
 * Writing to the people of an event (docs/architecture.md "How a reminder travels"): create one (send now or at a chosen instant), cancel
 * a scheduled one, list an event's. The words and the audience are checked before anything is stored
 * (domain/messages/announcements.ts); the announcement row, its audit entry and its `send_announcement` job (due at
 * the send instant) commit in ONE transaction (invariant 1). The job claims it and plans one message per recipient and
 * channel (server/messages/announcement-send.ts), which the send path delivers like every reminder.
 *
 * A double click sends once: the dialog makes an idempotency key when it opens (as the nudge dialog does); a second
 * create with the same key returns the first announcement (`replayed: true`) and writes nothing — also when both
 * arrive at once (the unique index on (tenant, key) makes the second wait, then insert nothing).
 *
 * A scheduled announcement can be cancelled until the worker claims it; the cancel carries the row version the staff
 * member saw (409 with `current` when it changed, 409 naming the claim when it was already claimed).
 */
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx } from '@/db/client';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { announcementById, announcementByKey, announcementsOfEvent, cancelAnnouncementRow, insertAnnouncement, type OutcomeCounts } from '@/db/queries/messages/announcements';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { events, tenants, type AnnouncementRow } from '@/db/schema';
import { audienceSchema, checkAnnouncementTexts, resolveSendAt, type Audience, type AnnouncementTexts } from '@/domain/messages/announcements';
import type { AnnouncementStatus } from '@/domain/vocabulary';
import { catalogLocales } from '@/emails/messages';
import { TASK } from '@/jobs/registry';
import { AppError, assertId, fromZodError } from '@/server/platform/errors';
import { recheckActor } from '@/server/platform/versions';

/** Who acts, when (route handlers: app/_http/session.ts actionContext). */
export interface AnnouncementContext {
  tenantId: string;
  actor: string;
  actorId?: string;
  now: Date;
}

/** An announcement as the staff UI and the API show it. Instants as ISO strings. */
export interface AnnouncementView {
  id: string;
  eventId: string;
  status: AnnouncementStatus;
  statusReason: string | null;
  audience: Audience;
  texts: AnnouncementTexts;
  sendAt: string;
  createdBy: string;
  createdAt: string;
  claimedAt: string | null;
  plannedCount: number | null;
  cancelledBy: string | null;
  version: number;
  /** What became of its messages: count per state (delivery status, or the planned message's while it has none). */
  outcomes: OutcomeCounts;
}

/** The job key of an announcement's send job. */
const jobKeyOf = (id: string) => `announce:${id}`;

/** {@link AnnouncementView} of a row. */
export function viewOf(r: AnnouncementRow, outcomes: OutcomeCounts = {}): AnnouncementView {
  return {
    id: r.id,
    eventId: r.eventId,
    status: r.status,
    statusReason: r.statusReason,
    audience: r.audience as Audience,
    texts: r.texts as AnnouncementTexts,
    sendAt: r.sendAt.toISOString(),
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    claimedAt: r.claimedAt?.toISOString() ?? null,
    plannedCount: r.plannedCount,
    cancelledBy: r.cancelledBy,
    version: r.rowVersion,
    outcomes,
  };
}

const keySchema = z.string({ error: 'required: the key the dialog made when it opened' }).trim().min(8, 'at least 8 characters').max(200);

/** The event of the tenant with the tenant's zone and default language. @throws AppError not_found (field `eventId`). */
async function eventOf(db: DbOrTx, tenantId: string, eventId: string) {
  assertId(eventId, 'eventId', 'event');
  const [row] = await db
    .select({ event: events, zone: tenants.timeZone, locale: tenants.locale, smsSegmentLimit: tenants.smsSegmentLimit })
    .from(events)
    .innerJoin(tenants, eq(tenants.id, events.tenantId))
    .where(and(eq(events.id, eventId), eq(events.tenantId, tenantId)));
  if (!row) throw new AppError('not_found', `event ${eventId} not found`, 'eventId');
  return row;
}

/**
 * Checks an announcement's input: `{ audience, texts, sendAt? }` (domain/messages/announcements.ts). `zone`: the
 * organisation's, for a local send time; `smsSegmentLimit`:
 * the organisation's most SMS segments per text (tenants.sms_segment_limit).
 * @throws AppError validation naming the field (`audience.roles`, `texts.en.subject`, `sendAt`, …).
 */
export function parseAnnouncementInput(input: Record<string, unknown>, now: Date, zone: string, smsSegmentLimit: number): { audience: Audience; texts: AnnouncementTexts; sendAt: Date; sendNow: boolean } {
  const a = audienceSchema.safeParse(input.audience);
  if (!a.success) {
    const e = fromZodError(a.error);
    const field = e.field ? `audience.${e.field}` : 'audience';
    throw new AppError('validation', `${field}: ${e.message.replace(/^[^:]*: /, '')}`, field);
  }
  const t = checkAnnouncementTexts(input.texts, catalogLocalesList, smsSegmentLimit);
  if (!t.ok) throw new AppError('validation', t.message, t.field);
  const s = resolveSendAt(input.sendAt, now, zone);
  if (!s.ok) throw new AppError('validation', s.message, s.field);
  return { audience: a.data, texts: t.texts, sendAt: s.at, sendNow: s.now };
}
const catalogLocalesList: readonly string[] = catalogLocales;

/**
 * Creates an announcement to the people of event `eventId` (module comment). Input: `{ audience, texts, sendAt?,
 * idempotencyKey }`.
 * @returns the announcement and `replayed` (true when the key was used before: nothing new was written).
 * @throws AppError validation (400, naming the field), not_found (404: event), conflict (409: the key was used for
 *   another event), forbidden (403: the actor may no longer operate).
 */
export async function createAnnouncement(db: Db, ctx: AnnouncementContext, eventId: string, input: unknown): Promise<{ announcement: AnnouncementView; replayed: boolean }> {
  const body = (input ?? {}) as Record<string, unknown>;
  const key = keySchema.safeParse(body.idempotencyKey);
  if (!key.success) throw new AppError('validation', `idempotencyKey: ${key.error.issues[0]?.message}`, 'idempotencyKey');
  return db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    const { event, zone, smsSegmentLimit } = await eventOf(tx, ctx.tenantId, eventId);
    const replay = async (r: AnnouncementRow) => {
      if (r.eventId !== event.id) throw new AppError('conflict', 'idempotencyKey: already used for an announcement to another event', 'idempotencyKey');
      return { announcement: viewOf(r), replayed: true };
    };
    const earlier = await announcementByKey(tx, ctx.tenantId, key.data);
    if (earlier) return replay(earlier);
    const v = parseAnnouncementInput(body, ctx.now, zone, smsSegmentLimit);
    const row = await insertAnnouncement(tx, { tenantId: ctx.tenantId, eventId: event.id, audience: v.audience, texts: v.texts, sendAt: v.sendAt, idempotencyKey: key.data, createdBy: ctx.actor });
    if (!row) return replay((await announcementByKey(tx, ctx.tenantId, key.data))!);
    // Due at the send instant on the database's clock; "now" is runnable at once.
    await enqueueJob(tx, TASK.sendAnnouncement, { announcementId: row.id }, { runAt: v.sendNow ? null : v.sendAt, jobKey: jobKeyOf(row.id) });
    const languages = Object.keys(v.texts);
    await appendAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: 'announcement_create',
      at: ctx.now,
      details: { eventId: event.id, announcementId: row.id, subject: v.texts[languages[0]].subject, languages, audience: v.audience, sendAt: v.sendAt.toISOString(), sendNow: v.sendNow },
    });
    return { announcement: viewOf(row), replayed: false };
  });
}

/**
 * Cancels a scheduled announcement (module comment). Input `{ version }`: the row version the staff member saw.
 * @throws AppError not_found (404), validation (400: `version` missing), invalid_state (409: already claimed, sent or
 *   cancelled — the message says which and since when), conflict (409 with `current`: changed since it was read).
 */
export async function cancelAnnouncement(db: Db, ctx: AnnouncementContext, announcementId: string, input: unknown): Promise<AnnouncementView> {
  assertId(announcementId, 'announcementId', 'announcement');
  const version = (input as { version?: unknown } | null)?.version;
  if (typeof version !== 'number' || !Number.isInteger(version)) throw new AppError('validation', 'version: required — the version of the announcement you saw', 'version');
  return db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    // Locked: a claim committing right now is waited for and then seen (the check runs under the lock that writes).
    const current = await announcementById(tx, ctx.tenantId, announcementId, true);
    if (!current) throw new AppError('not_found', `announcement ${announcementId} not found`, 'announcementId');
    if (current.status !== 'scheduled') {
      const why =
        current.status === 'cancelled'
          ? `it was already cancelled${current.cancelledBy ? ` by ${current.cancelledBy}` : ''}`
          : `the worker already claimed it at ${current.claimedAt?.toISOString() ?? 'its send time'} and its messages are ${current.status === 'sent' ? 'planned' : 'being planned'}`;
      throw new AppError('invalid_state', `This announcement can no longer be cancelled: ${why}. Messages not yet sent can be followed on the deliveries page.`, 'announcementId', { current: viewOf(current) });
    }
    if (current.rowVersion !== version) throw new AppError('conflict', 'This announcement was changed since you opened it — here is how it is now.', 'version', { current: viewOf(current), version: current.rowVersion });
    const row = await cancelAnnouncementRow(tx, ctx.tenantId, announcementId, version, ctx.actor, ctx.now);
    if (!row) throw new Error(`announcement ${announcementId} locked as scheduled at version ${version} but not cancelled`);
    const texts = row.texts as AnnouncementTexts;
    await appendAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: 'announcement_cancel',
      at: ctx.now,
      details: { eventId: row.eventId, announcementId: row.id, subject: Object.values(texts)[0]?.subject, sendAt: row.sendAt.toISOString() },
    });
    return viewOf(row);
  });
}

/** The event's announcements, newest first, with what became of their messages. @throws AppError not_found (404: event). */
export async function listAnnouncements(db: DbOrTx, ctx: { tenantId: string }, eventId: string): Promise<AnnouncementView[]> {
  await eventOf(db, ctx.tenantId, eventId);
  return (await announcementsOfEvent(db, ctx.tenantId, eventId)).map(({ row, outcomes }) => viewOf(row, outcomes));
}
