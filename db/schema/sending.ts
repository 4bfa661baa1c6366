/**
 * The sending pipeline: planned reminders and notifications (`reminders`), the claimed deliveries (one per message
 * key, invariant 3) and every attempt at one.
 * Part of the Drizzle schema (db/schema/index.ts re-exports every file); relative imports only, drizzle-kit loads it.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { repairOwners, deliveryStatuses, providers, outcomeClasses, reminderStatuses, reminderKinds } from '../../domain/vocabulary';
import { createdAt, ts } from './columns';
import { channelEnum, domainEventTypeEnum } from './enums';
import { tenants } from './organisations';
import { announcements } from './messages';
import { reminderRules } from './rules';
import { bookings, events } from './scheduling';

export const reminderStatusEnum = pgEnum('reminder_status', reminderStatuses);
export const deliveryStatusEnum = pgEnum('delivery_status', deliveryStatuses);
export const outcomeClassEnum = pgEnum('outcome_class', outcomeClasses);
export const repairOwnerEnum = pgEnum('repair_owner', repairOwners);
/** Every provider a delivery can go through (`deliveries.provider`): the email providers, `sms_api`, `webhook`. */
export const providerEnum = pgEnum('provider', providers);
export const reminderKindEnum = pgEnum('reminder_kind', reminderKinds);

export const reminders = pgTable(
  'reminders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    eventId: uuid('event_id').notNull().references(() => events.id),
    bookingId: uuid('booking_id').notNull().references(() => bookings.id),
    /** The rule this reminder was planned from; null for a manual nudge. */
    ruleId: uuid('rule_id').references(() => reminderRules.id),
    kind: reminderKindEnum('kind').notNull().default('rule'),
    /** Nudges only: the template chosen in the dialog (rule reminders use their rule's template). */
    template: text('template'),
    /** Nudges only: the idempotency key the dialog made when it opened (a double click sends once). */
    idempotencyKey: text('idempotency_key'),
    /** Nudges only: the request instant (ms precision; part of the message key) and who asked. */
    requestedAt: ts('requested_at'),
    requestedBy: text('requested_by'),
    scheduleVersion: integer('schedule_version').notNull(),
    channel: channelEnum('channel').notNull(),
    /** Notifications only: the domain event this message tells about and its type; the message key (domain/keys.ts) for notifications and announcements. */
    domainEventId: uuid('domain_event_id'),
    notificationType: domainEventTypeEnum('notification_type'),
    messageKey: text('message_key'),
    /** Announcements only: the announcement this message is one recipient's copy of (its texts, its audience). */
    announcementId: uuid('announcement_id').references(() => announcements.id),
    /** When quiet hours moved the due instant: the instant it was due before (for the timeline). */
    deferredFrom: ts('deferred_from'),
    dueAt: ts('due_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    status: reminderStatusEnum('status').notNull().default('scheduled'),
    statusReason: text('status_reason'),
    dispatchedAt: ts('dispatched_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('reminders_business_key_uq').on(
      t.tenantId,
      t.ruleId,
      t.bookingId,
      t.scheduleVersion,
      t.channel,
    ),
    // The due query reads only rows still waiting: a partial index keeps it small however much history grows.
    index('reminders_due_idx').on(t.dueAt, t.id).where(sql`status = 'scheduled'`),
    index('reminders_booking_idx').on(t.bookingId),
    uniqueIndex('reminders_idempotency_uq').on(t.tenantId, t.idempotencyKey),
    // One planned notification per message key: a redelivered notify job inserts nothing new.
    uniqueIndex('reminders_message_key_uq').on(t.messageKey),
    index('reminders_event_idx').on(t.eventId),
    index('reminders_announcement_idx').on(t.announcementId).where(sql`announcement_id is not null`),
    // /api/metrics (issue #11): the expired-unsent gauge.
    index('reminders_expired_idx').on(t.channel).where(sql`status = 'expired'`),
    // The dispatcher's stale-dispatch recovery and /api/metrics' oldest due-but-unsent age (migration 0009).
    index('reminders_dispatched_due_idx').on(t.dueAt).where(sql`status = 'dispatched'`),
  ],
);

export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    reminderId: uuid('reminder_id').references(() => reminders.id),
    /** Unique claim: at most one delivery per message key (invariant 3). */
    messageKey: text('message_key').notNull().unique(),
    /**
     * The tenant whose name the message goes out in — its sender, its suppression list, and whose deliveries log
     * and mailbox list it (issue #12): an external guest's own organisation when the partnership allows it
     * (domain/organisations/guest-sender.ts), else the delivery's tenant. Recorded at the claim, re-decided before every
     * attempt; null (rows written by other paths) = `tenant_id`.
     */
    sendingTenantId: uuid('sending_tenant_id').references(() => tenants.id),
    channel: channelEnum('channel').notNull(),
    address: text('address').notNull(),
    template: text('template').notNull(),
    /**
     * The language the message is written in (a language Punctual ships text for, e.g. `nl`) and why
     * (domain/messages/locale-fallback.ts: `contact_language`, `base_language`, `organisation_default`, `english`),
     * fixed at the claim: a retry or replay writes in the same language. Null for rows claimed before languages were
     * recorded (and for webhooks, which carry the person's own tag instead).
     */
    messageLocale: text('message_locale'),
    localeReason: text('locale_reason'),
    /**
     * The organisation's own text the message is written in (issue #22 §2): the `message_texts.version` of
     * (tenant, template, message_locale) in effect at the claim, fixed then so a retry or replay sends the same words;
     * null = Punctual's built-in text.
     */
    messageTextVersion: integer('message_text_version'),
    /**
     * The SEQUENCE of the calendar invitation the message carries (a booking-change notification email), fixed at the
     * claim from the booking's `invite_sequence` so every retry and replay writes the same value; null for messages
     * without an invitation (and for rows claimed before it was recorded: they use the booking's value then).
     */
    inviteSequence: integer('invite_sequence'),
    subject: text('subject'),
    status: deliveryStatusEnum('status').notNull().default('claimed'),
    statusReason: text('status_reason'),
    /** Provider the delivery goes through (fixed at claim: a retry never switches provider). */
    provider: providerEnum('provider').notNull().default('smtp'),
    providerMessageId: text('provider_message_id'),
    attemptCount: integer('attempt_count').notNull().default(0),
    /** Attempts that count against the retry budget (rate-limited ones do not). */
    failureCount: integer('failure_count').notNull().default(0),
    /** For dead letters: who must act to repair it, and the last error in full. */
    repairOwner: repairOwnerEnum('repair_owner'),
    lastError: text('last_error'),
    /** While `claimed`/`sending`: when the holder's lease runs out and recovery may act. */
    leaseExpiresAt: ts('lease_expires_at'),
    /** While `retrying`: the next attempt instant. */
    nextAttemptAt: ts('next_attempt_at'),
    acceptedAt: ts('accepted_at'),
    /** Event time of the delivery report that set the current report state (issue #10), or null. */
    reportedAt: ts('reported_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('deliveries_reminder_idx').on(t.reminderId),
    // Delivery reports find their delivery by the provider's message id (HTTP email id, SMS MessageSid).
    index('deliveries_provider_message_idx').on(t.provider, t.providerMessageId).where(sql`provider_message_id is not null`),
    index('deliveries_lease_idx')
      .on(t.leaseExpiresAt)
      .where(sql`status in ('claimed', 'sending')`),
    // /api/metrics (issue #11): dead letters, unknown outcomes and expired deliveries by channel, an index-only count.
    index('deliveries_attention_idx').on(t.status, t.channel).where(sql`status in ('dead', 'unknown', 'expired')`),
    // Lease recovery's 'retrying' arm (migration 0009).
    index('deliveries_retrying_idx').on(t.nextAttemptAt).where(sql`status = 'retrying'`),
    // A guest organisation's deliveries log: the messages other tenants sent in its name (migration 0011).
    index('deliveries_sent_for_idx').on(t.sendingTenantId, t.createdAt).where(sql`sending_tenant_id <> tenant_id`),
  ],
);

export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => deliveries.id),
    attemptNo: integer('attempt_no').notNull(),
    startedAt: ts('started_at').notNull(),
    endedAt: ts('ended_at'),
    outcome: outcomeClassEnum('outcome'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    providerResponse: text('provider_response'),
  },
  (t) => [
    uniqueIndex('delivery_attempts_no_uq').on(t.deliveryId, t.attemptNo),
    // The dashboard's 24-hour charts read attempts of one tenant by start instant.
    index('delivery_attempts_tenant_started_idx').on(t.tenantId, t.startedAt),
  ],
);

export type Reminder = typeof reminders.$inferSelect;
export type NewReminder = typeof reminders.$inferInsert;
export type Delivery = typeof deliveries.$inferSelect;
export type DeliveryAttempt = typeof deliveryAttempts.$inferSelect;
