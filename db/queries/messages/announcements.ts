/**
 * SQL of announcements (server/messages/announcements.ts, announcement-send.ts): the create keyed by the dialog's
 * idempotency key, the guarded status moves (claim: scheduled → sending; cancel: scheduled → cancelled at the version
 * the staff member saw; sent), and the event's list with what became of each announcement's messages.
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { announcements, deliveries, reminders, type AnnouncementRow } from '@/db/schema';

/** The row to create (status `scheduled`). */
export type NewAnnouncement = Pick<AnnouncementRow, 'tenantId' | 'eventId' | 'audience' | 'texts' | 'sendAt' | 'idempotencyKey' | 'createdBy'>;

/**
 * Inserts an announcement unless its (tenant, idempotency key) exists: a concurrent repeat waits on the unique index
 * and then inserts nothing. Returns the new row, or null when the key was taken.
 */
export async function insertAnnouncement(db: DbOrTx, row: NewAnnouncement): Promise<AnnouncementRow | null> {
  const [r] = await db.insert(announcements).values(row).onConflictDoNothing({ target: [announcements.tenantId, announcements.idempotencyKey] }).returning();
  return r ?? null;
}

/** The tenant's announcement made with `key`, if any. */
export async function announcementByKey(db: DbOrTx, tenantId: string, key: string): Promise<AnnouncementRow | undefined> {
  const [r] = await db.select().from(announcements).where(and(eq(announcements.tenantId, tenantId), eq(announcements.idempotencyKey, key)));
  return r;
}

/** One announcement of the tenant (`lock`: FOR UPDATE). */
export async function announcementById(db: DbOrTx, tenantId: string | null, id: string, lock = false): Promise<AnnouncementRow | undefined> {
  const q = db
    .select()
    .from(announcements)
    .where(tenantId ? and(eq(announcements.id, id), eq(announcements.tenantId, tenantId)) : eq(announcements.id, id));
  const [r] = lock ? await q.for('update') : await q;
  return r;
}

/** The worker's claim: `scheduled` → `sending` (one guarded statement). Returns the claimed row, or null when it was not `scheduled`. */
export async function claimAnnouncementRow(db: DbOrTx, id: string, now: Date): Promise<AnnouncementRow | null> {
  const [r] = await db
    .update(announcements)
    .set({ status: 'sending', claimedAt: now, rowVersion: sql`${announcements.rowVersion} + 1`, updatedAt: sql`now()` })
    .where(and(eq(announcements.id, id), eq(announcements.status, 'scheduled')))
    .returning();
  return r ?? null;
}

/** `sending` → `sent` with the number of messages planned. */
export async function markAnnouncementSent(db: DbOrTx, id: string, planned: number): Promise<void> {
  await db
    .update(announcements)
    .set({ status: 'sent', plannedCount: planned, rowVersion: sql`${announcements.rowVersion} + 1`, updatedAt: sql`now()` })
    .where(and(eq(announcements.id, id), eq(announcements.status, 'sending')));
}

/** Staff cancel: `scheduled` → `cancelled` only at `version` (invariant 11). Returns the row, or null when either guard failed. */
export async function cancelAnnouncementRow(db: DbOrTx, tenantId: string, id: string, version: number, actor: string, now: Date): Promise<AnnouncementRow | null> {
  const [r] = await db
    .update(announcements)
    .set({ status: 'cancelled', statusReason: `cancelled by ${actor}`, cancelledBy: actor, cancelledAt: now, rowVersion: sql`${announcements.rowVersion} + 1`, updatedAt: sql`now()` })
    .where(and(eq(announcements.id, id), eq(announcements.tenantId, tenantId), eq(announcements.status, 'scheduled'), eq(announcements.rowVersion, version)))
    .returning();
  return r ?? null;
}

/** Per announcement, how many of its messages are in each state (the reminder's while no delivery exists, else the delivery's). */
export type OutcomeCounts = Record<string, number>;

/** The event's announcements, newest first, each with {@link OutcomeCounts}. */
export async function announcementsOfEvent(db: DbOrTx, tenantId: string, eventId: string): Promise<{ row: AnnouncementRow; outcomes: OutcomeCounts }[]> {
  const rows = await db
    .select()
    .from(announcements)
    .where(and(eq(announcements.tenantId, tenantId), eq(announcements.eventId, eventId)))
    .orderBy(desc(announcements.createdAt), asc(announcements.id));
  if (rows.length === 0) return [];
  const counts = await db
    .select({ id: reminders.announcementId, state: sql<string>`coalesce(${deliveries.status}::text, ${reminders.status}::text)`, n: sql<number>`count(*)::int` })
    .from(reminders)
    .leftJoin(deliveries, eq(deliveries.reminderId, reminders.id))
    .where(and(eq(reminders.tenantId, tenantId), eq(reminders.eventId, eventId), eq(reminders.kind, 'announcement')))
    .groupBy(reminders.announcementId, sql`2`);
  const by = new Map<string, OutcomeCounts>();
  for (const c of counts) if (c.id) by.set(c.id, { ...(by.get(c.id) ?? {}), [c.state]: c.n });
  return rows.map((row) => ({ row, outcomes: by.get(row.id) ?? {} }));
}
