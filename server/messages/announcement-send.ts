/**
 * The worker's side of an announcement (the `send_announcement` task, due at its send instant): CLAIM it — one guarded
 * `scheduled → sending` update, after which staff can no longer cancel it — then plan its messages and mark it `sent`.
 *
 * Planning makes one `reminders` row (kind `announcement`) per recipient and channel (domain/messages/announcements.ts
 * `announcementRecipients`), keyed by its message key `ann:<tenant>:<announcement>:<booking>:<channel>` and inserted
 * ON CONFLICT DO NOTHING, due at the announcement's send instant with its late-send window; then the dispatcher is
 * woken. From there the send path treats it like every reminder: claim of the message key, the last re-read, quiet
 * hours, the person's preferences and the suppression list at send time, the unsubscribe link, the classified outcome,
 * delivery reports (server/sending/send-reminder.ts).
 *
 * Crash-safe: the claim and the plan are two transactions; a job that died after the claim runs again, finds the
 * announcement `sending` and plans (the message keys make a second plan a no-op).
 */
import type { Db, Tx } from '@/db/client';
import { bookingsWithContacts, insertNotifications } from '@/db/queries/notifications/notify';
import { announcementById, claimAnnouncementRow, markAnnouncementSent } from '@/db/queries/messages/announcements';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { events, type AnnouncementRow, type NewReminder } from '@/db/schema';
import { and, eq } from 'drizzle-orm';
import { ANNOUNCEMENT_LATE_SEND_MS, announcementRecipients, type Audience } from '@/domain/messages/announcements';
import { announcementMessageKey } from '@/domain/keys';
import { announcementKind } from '@/domain/vocabulary';
import { TASK } from '@/jobs/registry';

type SendAnnouncementResult = { kind: 'skipped'; reason: string } | { kind: 'planned'; planned: number };

/**
 * The claim alone: `scheduled → sending` at `now`. Returns the claimed row, or null when it was not scheduled
 * (cancelled, or claimed by an earlier run).
 */
export async function claimAnnouncement(db: Db | Tx, announcementId: string, now: Date): Promise<AnnouncementRow | null> {
  return claimAnnouncementRow(db, announcementId, now);
}

/**
 * Claims announcement `announcementId` and plans its messages (module comment). `now`: the worker clock's instant.
 * @throws only for infrastructure errors (the job is retried; the claim and the message keys keep it duplicate-free).
 */
export async function sendAnnouncement(db: Db, announcementId: string, now: Date): Promise<SendAnnouncementResult> {
  const claimed = await db.transaction(async (tx) => {
    const a = await announcementById(tx, null, announcementId, true);
    if (!a) return { skip: 'announcement not found' };
    if (a.status === 'scheduled') return { row: (await claimAnnouncementRow(tx, a.id, now))! };
    if (a.status === 'sending') return { row: a }; // an earlier run claimed it and died before planning
    return { skip: `announcement is ${a.status}` };
  });
  if ('skip' in claimed) return { kind: 'skipped', reason: claimed.skip ?? '' };
  const a = claimed.row;
  return db.transaction(async (tx) => {
    const planned = await planAnnouncement(tx, a);
    await markAnnouncementSent(tx, a.id, planned);
    return { kind: 'planned', planned };
  });
}

/** Plans the messages of claimed announcement `a` (module comment) and wakes the dispatcher. Returns how many exist for it. */
async function planAnnouncement(tx: Tx, a: AnnouncementRow): Promise<number> {
  const [event] = await tx.select().from(events).where(and(eq(events.id, a.eventId), eq(events.tenantId, a.tenantId)));
  if (!event) return 0;
  const people = await bookingsWithContacts(tx, a.tenantId, a.eventId);
  const { recipients } = announcementRecipients(people, a.audience as Audience);
  const expiresAt = new Date(a.sendAt.getTime() + ANNOUNCEMENT_LATE_SEND_MS);
  const rows: NewReminder[] = recipients.flatMap((r) =>
    r.channels.map((channel) => ({
      tenantId: a.tenantId,
      eventId: a.eventId,
      bookingId: r.bookingId,
      ruleId: null,
      kind: 'announcement' as const,
      template: announcementKind,
      announcementId: a.id,
      requestedAt: a.createdAt,
      requestedBy: a.createdBy,
      scheduleVersion: event.scheduleVersion,
      channel,
      messageKey: announcementMessageKey({ tenantId: a.tenantId, announcementId: a.id, bookingId: r.bookingId, channel }),
      dueAt: a.sendAt,
      expiresAt,
      status: 'scheduled' as const,
    })),
  );
  await insertNotifications(tx, rows);
  await enqueueJob(tx, TASK.dispatchDue, { reason: 'wake' }, { jobKey: `wake:ann:${a.id}` });
  return rows.length;
}
