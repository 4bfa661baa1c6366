/**
 * Delivery reports from providers (issue #10 §1–2): bounces, complaints, SMS statuses, DSNs.
 * Part of the Drizzle schema (db/schema/index.ts re-exports every file); relative imports only, drizzle-kit loads it.
 */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgEnum, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { reportSources, reportKinds } from '../../domain/vocabulary';
import { ts } from './columns';
import { tenants } from './organisations';
import { deliveries } from './sending';

export const reportSourceEnum = pgEnum('report_source', reportSources);
export const reportKindEnum = pgEnum('report_kind', reportKinds);

/**
 * Delivery reports (issue #10 §1–2): every report a provider sent about a message, stored once by
 * `(source, provider_event_id)` — a repeated report inserts nothing and changes nothing. A delivery's report state
 * is a fold over ALL its stored reports (domain/reports/report-state.ts), so the order of arrival cannot matter. A report
 * whose message is not (yet) known is kept with `delivery_id` null and adopted when the send records the
 * provider's message id (a fast provider can report before our own transaction commits).
 */
export const deliveryReports = pgTable(
  'delivery_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    source: reportSourceEnum('source').notNull(),
    /** The provider's id of this report (Standard Webhooks `webhook-id`; SMS `MessageSid:status[:part]`; DSN Message-ID + recipient). */
    providerEventId: text('provider_event_id').notNull(),
    /** The provider's id of the message reported on (HTTP email id, SMS MessageSid), when the report names one. */
    providerMessageId: text('provider_message_id'),
    tenantId: uuid('tenant_id').references(() => tenants.id),
    deliveryId: uuid('delivery_id').references(() => deliveries.id),
    kind: reportKindEnum('kind').notNull(),
    /** Multi-part SMS: which part (0-based) of how many this report is about; null for the whole message. */
    partIndex: integer('part_index'),
    partCount: integer('part_count'),
    /** When the provider says it happened (UTC instant). */
    occurredAt: ts('occurred_at').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
    /** The recipient address or number the report is about (for soft-bounce counting and suppressions). */
    address: text('address'),
    /** Provider error code (SMS `ErrorCode`, DSN status such as `5.1.1`), or null. */
    errorCode: text('error_code'),
    /** The provider's own words (bounce message, DSN Diagnostic-Code), cut to 1,000 characters. */
    detail: text('detail'),
    /** What processing did (e.g. "accepted → complained; suppressed ops@example.test"), for the timeline. */
    effect: text('effect'),
    /** The report as received (parsed fields only, no secrets), for the operator. */
    payload: jsonb('payload'),
  },
  (t) => [
    uniqueIndex('delivery_reports_event_uq').on(t.source, t.providerEventId),
    index('delivery_reports_delivery_idx').on(t.deliveryId),
    index('delivery_reports_unmatched_idx').on(t.source, t.providerMessageId).where(sql`delivery_id is null`),
    index('delivery_reports_address_idx').on(t.tenantId, sql`lower(${t.address})`, t.occurredAt),
  ],
);

export type DeliveryReport = typeof deliveryReports.$inferSelect;
