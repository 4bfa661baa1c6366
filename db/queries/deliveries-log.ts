/** The deliveries log for staff: search and filter one tenant's deliveries; one delivery's full story. */
import { and, asc, count, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { auditLog, deliveries, deliveryAttempts, events, reminderRules, reminders, type Delivery } from '../schema';
import { messageTitle } from '../../domain/message-labels';
import type { Channel, DeliveryStatus } from '../../domain/vocabulary';
import { reportsOfDelivery, reportView } from './reports';

export interface DeliveryFilter {
  /** Substring of the address or the subject (case-insensitive). */
  q?: string;
  status?: DeliveryStatus;
  /** Only deliveries on this channel (email, sms, webhook). */
  channel?: Channel;
  /** Created at or after (UTC instant). */
  from?: Date;
  /** Created before (UTC instant). */
  to?: Date;
}

export interface DeliveryLogRow {
  delivery: Delivery;
  /**
   * What the message is (domain/message-labels.ts messageTitle): the rule's name, "Manual reminder", or a
   * notification's type in plain words ("Booking confirmed"); null for a delivery without a reminder.
   */
  title: string | null;
  eventId: string | null;
  eventTitle: string | null;
  eventZone: string | null;
}

/** One page of a tenant's deliveries (every channel unless `f.channel`), newest first, with the event and the title of each. */
export async function searchDeliveries(
  db: DbOrTx,
  tenantId: string,
  f: DeliveryFilter,
  page: { limit: number; offset: number },
): Promise<{ items: DeliveryLogRow[]; total: number }> {
  const conds: SQL[] = [eq(deliveries.tenantId, tenantId)];
  if (f.q) {
    const like = `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conds.push(or(ilike(deliveries.address, like), ilike(deliveries.subject, like))!);
  }
  if (f.status) conds.push(eq(deliveries.status, f.status));
  if (f.channel) conds.push(eq(deliveries.channel, f.channel));
  if (f.from) conds.push(gte(deliveries.createdAt, f.from));
  if (f.to) conds.push(lt(deliveries.createdAt, f.to));
  const where = and(...conds);
  const [{ total }] = await db.select({ total: count() }).from(deliveries).where(where);
  const rows = await db
    .select({
      delivery: deliveries,
      eventId: events.id,
      eventTitle: events.title,
      eventZone: events.timeZone,
      kind: reminders.kind,
      notificationType: reminders.notificationType,
      ruleName: reminderRules.name,
    })
    .from(deliveries)
    .leftJoin(reminders, and(eq(reminders.id, deliveries.reminderId), eq(reminders.tenantId, tenantId)))
    .leftJoin(reminderRules, and(eq(reminderRules.id, reminders.ruleId), eq(reminderRules.tenantId, tenantId)))
    .leftJoin(events, and(eq(events.id, reminders.eventId), eq(events.tenantId, tenantId)))
    .where(where)
    .orderBy(desc(deliveries.createdAt), desc(deliveries.id))
    .limit(page.limit)
    .offset(page.offset);
  const items = rows.map(({ kind, notificationType, ruleName, ...r }) => ({
    ...r,
    title: kind ? messageTitle({ kind, ruleName, notificationType }) : null,
  }));
  return { items, total };
}

/** A delivery with its reminder, rule, event, attempts and audit entries; null when not this tenant's. */
export async function getDeliveryStory(db: DbOrTx, tenantId: string, deliveryId: string) {
  const [row] = await db
    .select({ delivery: deliveries, reminder: reminders, rule: reminderRules, event: events })
    .from(deliveries)
    .leftJoin(reminders, eq(reminders.id, deliveries.reminderId))
    .leftJoin(reminderRules, eq(reminderRules.id, reminders.ruleId))
    .leftJoin(events, eq(events.id, reminders.eventId))
    .where(and(eq(deliveries.tenantId, tenantId), eq(deliveries.id, deliveryId)));
  if (!row) return null;
  const attempts = await db.select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, deliveryId)).orderBy(asc(deliveryAttempts.attemptNo));
  // The delivery's own entries, and the request that made its reminder (a staff nudge names the reminder).
  const byReminder = row.delivery.reminderId ? sql`${auditLog.details}->>'reminderId' = ${row.delivery.reminderId}` : sql`false`;
  const audit = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.tenantId, tenantId), or(eq(auditLog.deliveryId, deliveryId), byReminder)))
    .orderBy(asc(auditLog.createdAt));
  // Delivery reports (issue #10): what the provider said after accepting it, in event-time order.
  const reports = (await reportsOfDelivery(db, deliveryId)).map(reportView);
  return { ...row, attempts, audit, reports };
}
