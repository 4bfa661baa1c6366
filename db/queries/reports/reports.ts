/**
 * SQL of delivery reports (issue #10 §1–3): the once-only insert, matching a report to its delivery, adopting
 * reports that arrived before their message id was recorded, the soft-bounce count, and the reports shown on a
 * delivery's page. The decisions are in domain/reports/report-state.ts; the use-case is server/reports/reports.ts.
 */
import { and, asc, eq, inArray, isNotNull, isNull, max, sql } from 'drizzle-orm';
import type { Channel, Provider, ReportKind, ReportSource } from '@/domain/vocabulary';
import type { DbOrTx } from '@/db/client';
import { bookings, deliveries, deliveryAttempts, deliveryReports, reminders, suppressions, type Delivery, type DeliveryReport } from '@/db/schema';

type NewDeliveryReport = typeof deliveryReports.$inferInsert;

/**
 * Stores a report once: `INSERT … ON CONFLICT (source, provider_event_id) DO NOTHING`. Returns the new row, or null
 * when this provider event was stored before (a repeat — nothing else may change).
 */
export async function insertReport(db: DbOrTx, r: NewDeliveryReport): Promise<DeliveryReport | null> {
  const [row] = await db
    .insert(deliveryReports)
    .values(r)
    .onConflictDoNothing({ target: [deliveryReports.source, deliveryReports.providerEventId] })
    .returning();
  return row ?? null;
}

/** The stored report of one provider event, or null. */
export async function findReportByEvent(db: DbOrTx, source: ReportSource, providerEventId: string): Promise<DeliveryReport | null> {
  const [row] = await db
    .select()
    .from(deliveryReports)
    .where(and(eq(deliveryReports.source, source), eq(deliveryReports.providerEventId, providerEventId)));
  return row ?? null;
}

/**
 * Serialises everything about one provider message id inside the caller's transaction (released at commit):
 * a report looking its message up and the send recording that id (then adopting waiting reports) cannot miss each
 * other — whichever comes second sees what the first committed (READ COMMITTED takes a new snapshot per statement).
 */
export async function lockProviderMessage(db: DbOrTx, source: ReportSource, providerMessageId: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(10010, hashtext(${`${source}:${providerMessageId}`}))`);
}

/** Serialises the soft-bounce count of one address of one tenant (two reports for two messages at once). */
export async function lockSoftBounceCount(db: DbOrTx, tenantId: string, address: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(10011, hashtext(${`${tenantId}:${address.toLowerCase()}`}))`);
}

/** The delivery a provider's message id names (provider + `provider_message_id`), or null. No lock. */
export async function findDeliveryByProviderMessage(db: DbOrTx, provider: Provider, providerMessageId: string): Promise<Delivery | null> {
  const [row] = await db
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.provider, provider), eq(deliveries.providerMessageId, providerMessageId)))
    .limit(1);
  return row ?? null;
}

/**
 * The tenant whose name a delivery went out in and whose suppression list its reports feed: the one the send path
 * recorded on it (`sending_tenant_id`, issue #12: an external guest's own organisation only when its partnership
 * allowed it); for a row without one, the external guest's own organisation when its booking names one
 * (invariant 9), else the delivery's tenant.
 */
export async function sendingTenantOf(db: DbOrTx, d: Pick<Delivery, 'tenantId' | 'reminderId'> & { sendingTenantId?: string | null }): Promise<string> {
  if (d.sendingTenantId) return d.sendingTenantId;
  if (!d.reminderId) return d.tenantId;
  const [row] = await db
    .select({ guest: bookings.guestTenantId })
    .from(reminders)
    .innerJoin(bookings, eq(bookings.id, reminders.bookingId))
    .where(eq(reminders.id, d.reminderId));
  return row?.guest ?? d.tenantId;
}

/** Every stored report of a delivery, in event-time order. */
export async function reportsOfDelivery(db: DbOrTx, deliveryId: string): Promise<DeliveryReport[]> {
  return db.select().from(deliveryReports).where(eq(deliveryReports.deliveryId, deliveryId)).orderBy(asc(deliveryReports.occurredAt), asc(deliveryReports.receivedAt));
}

/** Reports of several deliveries (a page's worth), in event-time order. */
export async function reportsOfDeliveries(db: DbOrTx, deliveryIds: string[]): Promise<DeliveryReport[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .select()
    .from(deliveryReports)
    .where(inArray(deliveryReports.deliveryId, deliveryIds))
    .orderBy(asc(deliveryReports.occurredAt), asc(deliveryReports.receivedAt));
}

/**
 * Attaches the unmatched reports of `source` naming `providerMessageId` to a delivery (tenant and address set to
 * the delivery's sending tenant and address). Returns the adopted rows.
 */
export async function adoptReports(
  db: DbOrTx,
  source: ReportSource,
  providerMessageId: string,
  to: { deliveryId: string; tenantId: string; address: string },
): Promise<DeliveryReport[]> {
  return db
    .update(deliveryReports)
    .set({ deliveryId: to.deliveryId, tenantId: to.tenantId, address: to.address })
    .where(and(eq(deliveryReports.source, source), eq(deliveryReports.providerMessageId, providerMessageId), isNull(deliveryReports.deliveryId)))
    .returning();
}

/**
 * Attaches ONE stored report that names no delivery yet (`delivery_id` null) to a delivery, replacing its content
 * with `content` (what the caller that could match it read; a report stored unmatched changed nothing, so nothing
 * that was applied is rewritten). Returns the row, or null when it is no longer unmatched (someone else adopted it).
 */
export async function adoptReport(
  db: DbOrTx,
  reportId: string,
  to: { deliveryId: string; tenantId: string; address: string },
  content: Partial<Pick<DeliveryReport, 'providerMessageId' | 'kind' | 'partIndex' | 'partCount' | 'occurredAt' | 'errorCode' | 'detail' | 'payload'>>,
): Promise<DeliveryReport | null> {
  const [row] = await db
    .update(deliveryReports)
    .set({ ...content, deliveryId: to.deliveryId, tenantId: to.tenantId, address: to.address })
    .where(and(eq(deliveryReports.id, reportId), isNull(deliveryReports.deliveryId)))
    .returning();
  return row ?? null;
}

/**
 * The number of the latest finished attempt of a delivery that may have reached the provider — it ended
 * `accepted`, or `ambiguous` (no answer: the provider may have it) — or null when none did (every attempt was
 * refused, deferred or rate-limited, or none was made).
 */
export async function attemptThatMayHaveReachedProvider(db: DbOrTx, deliveryId: string): Promise<number | null> {
  const [row] = await db
    .select({ n: max(deliveryAttempts.attemptNo) })
    .from(deliveryAttempts)
    .where(and(eq(deliveryAttempts.deliveryId, deliveryId), inArray(deliveryAttempts.outcome, ['accepted', 'ambiguous'])));
  return row?.n ?? null;
}

/** Writes what processing a report did (the timeline's "effect"). */
export async function setReportEffect(db: DbOrTx, reportId: string, effect: string): Promise<void> {
  await db.update(deliveryReports).set({ effect }).where(eq(deliveryReports.id, reportId));
}

/**
 * The soft bounces that count towards suppressing `address` (case-insensitive) of tenant `tenantId` on `channel`
 * (issue #10 §3): every soft-bounce report stored against a delivery of that tenant and address, with its delivery
 * and event time — only those whose event time is AFTER the latest removal of a suppression of that address on
 * that channel (a person removing the entry starts the count again). `resetAt` is that removal instant, or null.
 * Several reports of one delivery are all returned; counting them once is the caller's (domain/reports/soft-bounces.ts).
 */
export async function softBouncesSinceReset(
  db: DbOrTx,
  tenantId: string,
  address: string,
  channel: Channel,
): Promise<{ bounces: { deliveryId: string; at: Date }[]; resetAt: Date | null }> {
  const [reset] = await db
    .select({ at: max(suppressions.removedAt) })
    .from(suppressions)
    .where(and(eq(suppressions.tenantId, tenantId), eq(suppressions.channel, channel), sql`lower(${suppressions.address}) = lower(${address})`, isNotNull(suppressions.removedAt)));
  const resetAt = reset?.at ?? null;
  const rows = await db
    .select({ deliveryId: deliveryReports.deliveryId, at: deliveryReports.occurredAt })
    .from(deliveryReports)
    .where(
      and(
        eq(deliveryReports.tenantId, tenantId),
        sql`lower(${deliveryReports.address}) = lower(${address})`,
        eq(deliveryReports.kind, 'soft_bounce'),
        isNotNull(deliveryReports.deliveryId),
        resetAt ? sql`${deliveryReports.occurredAt} > ${resetAt.toISOString()}::timestamptz` : undefined,
      ),
    );
  return { bounces: rows.map((r) => ({ deliveryId: r.deliveryId!, at: r.at })), resetAt };
}

/**
 * Same state, new words: a later report changed the reason of a report-set state (e.g. a multi-part SMS that was
 * `failed` with an error becomes `failed` "partial" when another part is reported delivered). Guarded by the state.
 */
export async function refreshReportReason(db: DbOrTx, deliveryId: string, status: Delivery['status'], reason: string | null, reportedAt: Date | null): Promise<boolean> {
  const rows = await db
    .update(deliveries)
    .set({ statusReason: reason, reportedAt, updatedAt: sql`now()` })
    .where(and(eq(deliveries.id, deliveryId), eq(deliveries.status, status)))
    .returning({ id: deliveries.id });
  return rows.length === 1;
}

/** One delivery report as staff see it under a delivery's attempts (instants ISO-8601 UTC). */
export interface ReportView {
  id: string;
  source: ReportSource;
  kind: ReportKind;
  /** The provider's event time, and when we received it. */
  occurredAt: string;
  receivedAt: string;
  /** Multi-part SMS: 0-based part and number of parts; null for the whole message. */
  partIndex: number | null;
  partCount: number | null;
  errorCode: string | null;
  detail: string | null;
  /** What processing it did ("accepted → complained; suppressed …", "no change: …"). */
  effect: string | null;
}

/** A stored report as a {@link ReportView}. */
export function reportView(r: DeliveryReport): ReportView {
  return {
    id: r.id,
    source: r.source,
    kind: r.kind,
    occurredAt: r.occurredAt.toISOString(),
    receivedAt: r.receivedAt.toISOString(),
    partIndex: r.partIndex,
    partCount: r.partCount,
    errorCode: r.errorCode,
    detail: r.detail,
    effect: r.effect,
  };
}
