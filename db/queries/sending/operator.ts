/**
 * Read models for operators: dead letters and unknown outcomes on every channel with their evidence (attempts,
 * audit), and whether the tenant's webhook endpoint was switched off.
 */
import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { messageTitle } from '@/domain/sending/message-labels';
import type { Channel } from '@/domain/vocabulary';
import type { DbOrTx } from '@/db/client';
import {
  auditLog,
  deliveries,
  deliveryAttempts,
  events,
  notificationSettings,
  reminderRules,
  reminders,
  type AuditEntry,
  type Delivery,
  type DeliveryAttempt,
} from '@/db/schema';

export interface DeliveryCase {
  delivery: Delivery;
  /** The event the reminder is for (null for a delivery without a reminder). */
  event: { id: string; title: string; timeZone: string } | null;
  /** What the message is: rule name, "Manual reminder", or the notification's type in plain words; null without a reminder. */
  title: string | null;
  attempts: DeliveryAttempt[];
  audit: AuditEntry[];
}

/**
 * Deliveries of one tenant in `statuses` (e.g. `dead`, `unknown`) on every channel, or only on `opts.channel`,
 * newest first, each with every attempt (outcome class, error code and message) and its audit entries.
 */
export async function listDeliveryCases(
  db: DbOrTx,
  tenantId: string,
  statuses: Delivery['status'][],
  limit = 100,
  opts: { channel?: Channel } = {},
): Promise<DeliveryCase[]> {
  const conds: SQL[] = [eq(deliveries.tenantId, tenantId), inArray(deliveries.status, statuses)];
  if (opts.channel) conds.push(eq(deliveries.channel, opts.channel));
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
    .where(and(...conds))
    .orderBy(desc(deliveries.updatedAt))
    .limit(limit);
  if (rows.length === 0) return [];
  const ds = rows.map((r) => r.delivery);
  const ids = ds.map((d) => d.id);
  const attempts = await db.select().from(deliveryAttempts).where(inArray(deliveryAttempts.deliveryId, ids)).orderBy(asc(deliveryAttempts.attemptNo));
  const audits = await db.select().from(auditLog).where(inArray(auditLog.deliveryId, ids)).orderBy(asc(auditLog.createdAt));
  return rows.map(({ delivery, eventId, eventTitle, eventZone, kind, notificationType, ruleName }) => ({
    delivery,
    event: eventId && eventTitle && eventZone ? { id: eventId, title: eventTitle, timeZone: eventZone } : null,
    title: kind ? messageTitle({ kind, ruleName, notificationType }) : null,
    attempts: attempts.filter((a) => a.deliveryId === delivery.id),
    audit: audits.filter((a) => a.deliveryId === delivery.id),
  }));
}

/** The tenant's webhook endpoint, switched off: when (null if not recorded), why, and the URL it had. */
interface WebhookSwitchedOff {
  at: Date | null;
  reason: string;
  url: string | null;
}

/**
 * Whether the tenant's outbound webhook endpoint was switched off (`notification_settings.webhook_enabled`
 * false WITH a `webhook_disabled_reason`: a 410 from the receiver, or staff). An endpoint that was never set
 * up (no row, or off without a reason) is not "switched off": null.
 */
export async function webhookSwitchedOff(db: DbOrTx, tenantId: string): Promise<WebhookSwitchedOff | null> {
  const [row] = await db
    .select({
      enabled: notificationSettings.webhookEnabled,
      reason: notificationSettings.webhookDisabledReason,
      at: notificationSettings.webhookDisabledAt,
      url: notificationSettings.webhookUrl,
    })
    .from(notificationSettings)
    .where(eq(notificationSettings.tenantId, tenantId));
  if (!row || row.enabled || !row.reason) return null;
  return { at: row.at, reason: row.reason, url: row.url };
}
