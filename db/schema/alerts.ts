/**
 * Alerts (issue #10 §6): where a tenant's alerts go, the state of each condition, and the outbox of alert messages.
 * Part of the Drizzle schema (db/schema/index.ts re-exports every file); relative imports only, drizzle-kit loads it.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { alertConditions, alertRoutes } from '../../domain/vocabulary';
import { createdAt, ts } from './columns';
import { tenants } from './organisations';

export const alertConditionEnum = pgEnum('alert_condition', alertConditions);
export const alertRouteEnum = pgEnum('alert_route', alertRoutes);

/**
 * Where a tenant's alerts go (issue #10 §6), edited by admins (versioned, invariant 11). No row = no alerts
 * except on the pages. `email_recipients`: staff user ids; `slack_webhook_url`: a Slack-compatible incoming webhook.
 */
export const alertSettings = pgTable('alert_settings', {
  tenantId: uuid('tenant_id').primaryKey().references(() => tenants.id),
  emailRecipients: text('email_recipients').array().notNull().default(sql`'{}'::text[]`),
  slackWebhookUrl: text('slack_webhook_url'),
  /** Dispatch lag p95 threshold, ms (due instant → first provider call), judged over 5 minutes. */
  lagP95Ms: integer('lag_p95_ms').notNull().default(60_000),
  /** Oldest due-but-unsent reminder threshold, seconds. */
  oldestDueSeconds: integer('oldest_due_seconds').notNull().default(600),
  version: integer('version').notNull().default(1),
  updatedBy: text('updated_by'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * The state of each alert condition per tenant (issue #10 §6): whether it is active, since when, what was seen
 * (grouped count, first item instant), and when a person was last told. `episode` counts starts, so every
 * alert message has a stable message key. `worker_heartbeat` rows exist per tenant too (each tenant's admins are told).
 */
export const alertStates = pgTable(
  'alert_states',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    condition: alertConditionEnum('condition').notNull(),
    active: boolean('active').notNull().default(false),
    episode: integer('episode').notNull().default(0),
    /** When the current (or last) episode started and cleared. */
    startedAt: ts('started_at'),
    clearedAt: ts('cleared_at'),
    /** Grouping: how many items (dead letters, unknown outcomes) the episode holds and when the first/latest appeared. */
    itemCount: integer('item_count').notNull().default(0),
    firstItemAt: ts('first_item_at'),
    lastItemAt: ts('last_item_at'),
    /** Human summary of what is wrong now ("12 new dead letters, first at …"). */
    detail: text('detail'),
    /** Whether this episode's start was sent to a person (a clear is sent only then), and when the last start alert went. */
    startNotified: boolean('start_notified').notNull().default(false),
    lastStartAlertAt: ts('last_start_alert_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('alert_states_pk').on(t.tenantId, t.condition)],
);

/**
 * Alert messages (the outbox of alerts): one row per (condition episode, transition, route, recipient), keyed by
 * `message_key` so a repeated evaluation or a second process plans nothing twice; sent by the `send_alert` task
 * (or, for the heartbeat, by the web process, because the queue is what failed) under a lease.
 */
export const alertMessages = pgTable(
  'alert_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    condition: alertConditionEnum('condition').notNull(),
    episode: integer('episode').notNull(),
    /** `started`, `cleared` or `test`. */
    transition: text('transition').notNull(),
    route: alertRouteEnum('route').notNull(),
    /** Email address or webhook URL. */
    address: text('address').notNull(),
    messageKey: text('message_key').notNull().unique(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** Absolute URL of the page where a person can act. */
    link: text('link').notNull(),
    /** `pending` → `sending` → `sent` | `retrying` | `failed`. */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    leaseExpiresAt: ts('lease_expires_at'),
    nextAttemptAt: ts('next_attempt_at'),
    createdAt: createdAt(),
    sentAt: ts('sent_at'),
  },
  (t) => [index('alert_messages_tenant_created_idx').on(t.tenantId, t.createdAt)],
);

export type AlertSettings = typeof alertSettings.$inferSelect;
export type AlertState = typeof alertStates.$inferSelect;
export type AlertMessage = typeof alertMessages.$inferSelect;
