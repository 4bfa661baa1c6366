/**
 * Notification settings (issue #9): per-tenant policy, SMS sender and outbound webhook endpoint.
 * Part of the Drizzle schema (db/schema/index.ts re-exports every file); relative imports only, drizzle-kit loads it.
 */
import { boolean, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { tenants } from './organisations';

/**
 * Per-tenant notification settings (issue #9): the policy (who hears which domain event, with which
 * template; domain/notifications/notification-policy.ts), the SMS sender and the outbound webhook endpoint. One row per
 * tenant; no row = nobody is notified. Versioned: two admins editing it cannot lose each other's change.
 */
export const notificationSettings = pgTable('notification_settings', {
  tenantId: uuid('tenant_id').primaryKey().references(() => tenants.id),
  policy: jsonb('policy').notNull(),
  /** E.164 number or alphanumeric sender id SMS go out from; null = the worker's default (`SMS_FROM`). */
  smsSender: text('sms_sender'),
  /** HTTPS endpoint each notification is POSTed to (Standard Webhooks), or null. */
  webhookUrl: text('webhook_url'),
  /** `whsec_…` signing secret of the endpoint. */
  webhookSecret: text('webhook_secret'),
  webhookEnabled: boolean('webhook_enabled').notNull().default(false),
  /** Why the endpoint was switched off (a 410 from the receiver, or staff), and when. */
  webhookDisabledReason: text('webhook_disabled_reason'),
  webhookDisabledAt: ts('webhook_disabled_at'),
  version: integer('version').notNull().default(1),
  updatedBy: text('updated_by'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export type NotificationSettings = typeof notificationSettings.$inferSelect;
