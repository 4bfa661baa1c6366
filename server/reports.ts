/**
 * STAND-IN for the reports core (issue #10 §1–3, owned by another part of the work): only the agreed interface
 * (/work/notes/interfaces.md) with the least behaviour the SMTP bounce path needs to be built and tested —
 * store the report once per (source, provider event id), move the matched delivery forward, and suppress the
 * address for a hard bounce or complaint. Replaced wholesale by the real module at merge; nothing else may
 * depend on its internals.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bookings, deliveries, deliveryReports, reminders, suppressions } from '../db/schema';
import { deliveryFromStates } from '../domain/states';
import type { DeliveryStatus, ReportKind, ReportSource } from '../domain/vocabulary';

export interface IncomingReport {
  source: ReportSource;
  providerEventId: string;
  providerMessageId?: string | null;
  deliveryId?: string | null;
  kind: ReportKind;
  occurredAt: Date;
  address?: string | null;
  errorCode?: string | null;
  detail?: string | null;
  partIndex?: number | null;
  partCount?: number | null;
  payload?: unknown;
}

export type ApplyReportResult =
  | { outcome: 'applied'; reportId: string; deliveryId: string; status: DeliveryStatus; effect: string }
  | { outcome: 'duplicate'; reportId: string }
  | { outcome: 'unmatched'; reportId: string };

const statusOf: Partial<Record<ReportKind, DeliveryStatus>> = {
  delivered: 'delivered',
  soft_bounce: 'soft_bounced',
  hard_bounce: 'bounced',
  complaint: 'complained',
  undelivered: 'failed',
  failed: 'failed',
};

/** Stores the report once and applies it in one transaction (row lock on the delivery). */
export async function applyReport(db: Db, report: IncomingReport, now: Date): Promise<ApplyReportResult> {
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(deliveryReports)
      .values({
        source: report.source,
        providerEventId: report.providerEventId,
        providerMessageId: report.providerMessageId ?? null,
        kind: report.kind,
        occurredAt: report.occurredAt,
        receivedAt: now,
        address: report.address ?? null,
        errorCode: report.errorCode ?? null,
        detail: report.detail?.slice(0, 1000) ?? null,
        payload: report.payload ?? null,
      })
      .onConflictDoNothing({ target: [deliveryReports.source, deliveryReports.providerEventId] })
      .returning({ id: deliveryReports.id });
    if (!inserted) {
      const [old] = await tx
        .select({ id: deliveryReports.id })
        .from(deliveryReports)
        .where(and(eq(deliveryReports.source, report.source), eq(deliveryReports.providerEventId, report.providerEventId)));
      return { outcome: 'duplicate', reportId: old.id };
    }
    const where = report.deliveryId
      ? eq(deliveries.id, report.deliveryId)
      : report.providerMessageId
        ? eq(deliveries.providerMessageId, report.providerMessageId)
        : sql`false`;
    const [d] = await tx
      .select({ id: deliveries.id, tenantId: deliveries.tenantId, status: deliveries.status, address: deliveries.address, role: bookings.role, guestTenantId: bookings.guestTenantId })
      .from(deliveries)
      .leftJoin(reminders, eq(reminders.id, deliveries.reminderId))
      .leftJoin(bookings, eq(bookings.id, reminders.bookingId))
      .where(where)
      .for('update', { of: deliveries })
      .limit(1);
    if (!d) return { outcome: 'unmatched', reportId: inserted.id };
    const to = statusOf[report.kind];
    let status = d.status;
    let effect = 'no change';
    if (to && deliveryFromStates(to).includes(d.status)) {
      await tx.update(deliveries).set({ status: to, reportedAt: report.occurredAt, updatedAt: sql`now()` }).where(eq(deliveries.id, d.id));
      effect = `${d.status} → ${to}`;
      status = to;
    }
    const address = report.address ?? d.address;
    if (report.kind === 'hard_bounce' || report.kind === 'complaint') {
      const tenantId = d.role === 'external' && d.guestTenantId ? d.guestTenantId : d.tenantId;
      await tx
        .insert(suppressions)
        .values({ tenantId, address, reason: report.kind === 'complaint' ? 'complained' : 'hard_bounce', source: `${report.source} report ${report.providerEventId}`, reportId: inserted.id })
        .onConflictDoNothing();
      effect += `; suppressed ${address}`;
    }
    await tx.update(deliveryReports).set({ deliveryId: d.id, tenantId: d.tenantId, effect }).where(eq(deliveryReports.id, inserted.id));
    return { outcome: 'applied', reportId: inserted.id, deliveryId: d.id, status, effect };
  });
}
