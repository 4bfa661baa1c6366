/** The deliveries log for staff: search and filter one tenant's deliveries; one delivery's full story. */
import { and, asc, count, desc, eq, gte, ilike, lt, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '@/db/client';
import { auditLog, bookings, contacts, deliveries, deliveryAttempts, domainEvents, events, reminderRules, reminders, tenants, type Delivery } from '@/db/schema';
import { hostActorOf } from '@/domain/organisations/guest-sender';
import { messageTitle } from '@/domain/sending/message-labels';
import type { Channel, DeliveryStatus } from '@/domain/vocabulary';
import { reportsOfDelivery, reportView } from '@/db/queries/reports/reports';

interface DeliveryFilter {
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

interface DeliveryLogRow {
  delivery: Delivery;
  /**
   * What the message is (domain/sending/message-labels.ts messageTitle): the rule's name, "Manual reminder", or a
   * notification's type in plain words ("Booking confirmed"); null for a delivery without a reminder.
   */
  title: string | null;
  eventId: string | null;
  eventTitle: string | null;
  eventZone: string | null;
  /** The person the message is about (their name, else their address): a webhook row names them beside its target. */
  participant: string | null;
  /**
   * Set when ANOTHER tenant (a host that booked one of the viewer's people as its guest) sent this message in the
   * viewer's name (issue #12): that tenant's name and who there made it happen (the staff member who nudged, the
   * actor of the change a notification tells of, the person who booked the guest, or 'system'). The event is
   * the host's: the page names it without a link.
   */
  sentBy: { tenantName: string; actor: string } | null;
  /** Set when the viewer sent it in another organisation's name (an external guest's own): that organisation's name. */
  sentAs: string | null;
}

/** The tenant a delivery belongs to (the host, for a message sent in a guest organisation's name). */
const deliveryTenant = alias(tenants, 'delivery_tenant');
/** The tenant whose name a delivery went out in, when it is not the delivery's own. */
const sendingTenant = alias(tenants, 'sending_tenant');

/**
 * The deliveries `tenantId` sees in its log: its own, those another tenant sends in its name now (issue #12;
 * `sending_tenant_id <> tenant_id` matches the partial index `deliveries_sent_for_idx`), and those of which any
 * attempt went out in its name though a later one did not (review of issue #12: a partnership narrowed between two
 * attempts moves the delivery to the host's name, yet the message already went out in the partner's — the issue
 * asks that the partner see every message sent in its name). The last are found by the `guest_message` entries
 * of its audit log, which the send path writes in the transaction that starts every attempt in its name after one
 * in another name (domain/organisations/guest-sender.ts `auditsGuestMessage`) and which are never deleted: their message keys,
 * as an array (an InitPlan), match the unique index on `deliveries.message_key`.
 */
function deliveriesOf(tenantId: string): SQL {
  return or(
    eq(deliveries.tenantId, tenantId),
    and(eq(deliveries.sendingTenantId, tenantId), sql`${deliveries.sendingTenantId} <> ${deliveries.tenantId}`),
    sql`${deliveries.messageKey} = any(array(select a.details->>'messageKey' from audit_log a where a.tenant_id = ${tenantId} and a.action = 'guest_message'))`,
  )!;
}

/** The WHERE of the deliveries log for `tenantId` and filter `f` (the page and its CSV export share it). */
function deliveriesWhere(tenantId: string, f: DeliveryFilter): SQL {
  const conds: SQL[] = [deliveriesOf(tenantId)];
  if (f.q) {
    const like = `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conds.push(or(ilike(deliveries.address, like), ilike(deliveries.subject, like))!);
  }
  if (f.status) conds.push(eq(deliveries.status, f.status));
  if (f.channel) conds.push(eq(deliveries.channel, f.channel));
  if (f.from) conds.push(gte(deliveries.createdAt, f.from));
  if (f.to) conds.push(lt(deliveries.createdAt, f.to));
  return and(...conds)!;
}

/**
 * Where a keyset page of a newest-first list ends: the last row's `created_at` at full (microsecond) precision,
 * as UTC text — a JS Date would round it to milliseconds and skip or repeat rows — and its id (the tie-break).
 */
export interface KeysetCursor {
  at: string;
  id: string;
}

/** `created_at` of a table as exact UTC text, for a {@link KeysetCursor}. */
export const cursorText = (col: AnyColumn) => sql<string>`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The log rows for `where`, newest first (ties by id), with the event and title of each, mapped for the viewer `tenantId`. */
async function deliveryLogRows(db: DbOrTx, tenantId: string, where: SQL, page: { limit: number; offset?: number }): Promise<(DeliveryLogRow & { cursor: KeysetCursor })[]> {
  const rows = await db
    .select({
      delivery: deliveries,
      cursorAt: cursorText(deliveries.createdAt),
      eventId: events.id,
      eventTitle: events.title,
      eventZone: events.timeZone,
      kind: reminders.kind,
      notificationType: reminders.notificationType,
      ruleName: reminderRules.name,
      requestedBy: reminders.requestedBy,
      changeActor: domainEvents.actor,
      bookedBy: bookings.createdBy,
      participantName: contacts.name,
      participantEmail: contacts.email,
      deliveryTenantName: deliveryTenant.name,
      sendingTenantName: sendingTenant.name,
    })
    .from(deliveries)
    // Everything joined belongs to the delivery's own tenant (the host's, for a message sent in the viewer's name).
    .leftJoin(reminders, and(eq(reminders.id, deliveries.reminderId), eq(reminders.tenantId, deliveries.tenantId)))
    .leftJoin(reminderRules, and(eq(reminderRules.id, reminders.ruleId), eq(reminderRules.tenantId, deliveries.tenantId)))
    .leftJoin(events, and(eq(events.id, reminders.eventId), eq(events.tenantId, deliveries.tenantId)))
    .leftJoin(bookings, and(eq(bookings.id, reminders.bookingId), eq(bookings.tenantId, deliveries.tenantId)))
    .leftJoin(contacts, and(eq(contacts.id, bookings.contactId), eq(contacts.tenantId, deliveries.tenantId)))
    .leftJoin(domainEvents, eq(domainEvents.id, reminders.domainEventId))
    .innerJoin(deliveryTenant, eq(deliveryTenant.id, deliveries.tenantId))
    .leftJoin(sendingTenant, and(eq(sendingTenant.id, deliveries.sendingTenantId), sql`${deliveries.sendingTenantId} <> ${deliveries.tenantId}`))
    .where(where)
    .orderBy(desc(deliveries.createdAt), desc(deliveries.id))
    .limit(page.limit)
    .offset(page.offset ?? 0);
  return rows.map(({ kind, notificationType, ruleName, requestedBy, changeActor, bookedBy, participantName, participantEmail, deliveryTenantName, sendingTenantName, cursorAt, ...r }) => {
    const byOther = r.delivery.tenantId !== tenantId;
    return {
      ...r,
      participant: participantName?.trim() || participantEmail || null,
      title: kind ? messageTitle({ kind, ruleName, notificationType }) : null,
      sentBy: byOther ? { tenantName: deliveryTenantName, actor: kind ? hostActorOf({ kind, requestedBy, changeActor, bookedBy }) : 'system' } : null,
      sentAs: !byOther && sendingTenantName ? sendingTenantName : null,
      cursor: { at: cursorAt, id: r.delivery.id },
    };
  });
}

/**
 * One page of a tenant's deliveries (every channel unless `f.channel`), newest first, with the event and the title
 * of each — its own and the messages other tenants sent in its name ({@link deliveriesOf}).
 */
export async function searchDeliveries(
  db: DbOrTx,
  tenantId: string,
  f: DeliveryFilter,
  page: { limit: number; offset: number },
): Promise<{ items: DeliveryLogRow[]; total: number }> {
  const where = deliveriesWhere(tenantId, f);
  const [{ total }] = await db.select({ total: count() }).from(deliveries).where(where);
  const items = (await deliveryLogRows(db, tenantId, where, page)).map(({ cursor: _c, ...r }) => r);
  return { items, total };
}

/**
 * The next `limit` rows of the deliveries log after `after` (null: from the newest), same rows, order and filter
 * as {@link searchDeliveries} — a keyset page for the CSV export (server/people/csv-exports.ts): however long the log,
 * each page is one index-ordered read of `limit` rows, never an OFFSET past everything before it.
 */
export async function deliveriesAfter(db: DbOrTx, tenantId: string, f: DeliveryFilter, after: KeysetCursor | null, limit: number) {
  const where = deliveriesWhere(tenantId, f);
  const keyset = after ? and(where, sql`(${deliveries.createdAt}, ${deliveries.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`)! : where;
  return deliveryLogRows(db, tenantId, keyset, { limit });
}

/**
 * A delivery with its reminder, rule, event, attempts and audit entries, and `sentAs` (the name of the organisation
 * it went out in the name of, when not this tenant's own: an external guest's, issue #12); null when not this
 * tenant's. A message another tenant sent in this tenant's name is listed in its log ({@link searchDeliveries})
 * but its story (the host's event, rule and staff) stays the host's.
 */
export async function getDeliveryStory(db: DbOrTx, tenantId: string, deliveryId: string) {
  const [row] = await db
    .select({ delivery: deliveries, reminder: reminders, rule: reminderRules, event: events, sentAs: sendingTenant.name })
    .from(deliveries)
    .leftJoin(reminders, eq(reminders.id, deliveries.reminderId))
    .leftJoin(reminderRules, eq(reminderRules.id, reminders.ruleId))
    .leftJoin(events, eq(events.id, reminders.eventId))
    .leftJoin(sendingTenant, and(eq(sendingTenant.id, deliveries.sendingTenantId), sql`${deliveries.sendingTenantId} <> ${deliveries.tenantId}`))
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
