/**
 * Drizzle schema: the single source of the database shape. camelCase keys map to snake_case columns
 * (`casing: 'snake_case'` is NOT used; every column names itself so migrations read plainly).
 * Migrations in db/migrations are generated from this file with `npm run db:generate` and never edited.
 *
 * Every tenant-owned table carries `tenant_id`; every query in db/queries filters on it (invariant 9).
 * Instants are `timestamptz` (UTC instants); local wall-clock times only exist together with an IANA zone.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  anchors,
  auditActions,
  bookingRoles,
  emailProviders,
  repairOwners,
  bookingStatuses,
  channels,
  deliveryStatuses,
  domainEventTypes,
  providers,
  eventStatuses,
  outcomeClasses,
  reminderStatuses,
  suppressionReasons,
  reminderKinds,
  staffRoles,
  reportSources,
  reportKinds,
  alertConditions,
  alertRoutes,
} from '../domain/vocabulary';
import { guestLimits } from '../domain/organisations/guest-sender';
import { partnershipSides, partnershipStatuses } from '../domain/organisations/partnership';
import { testMessageStatuses } from '../domain/organisations/org-settings';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

export const bookingRoleEnum = pgEnum('booking_role', bookingRoles);
export const bookingStatusEnum = pgEnum('booking_status', bookingStatuses);
export const eventStatusEnum = pgEnum('event_status', eventStatuses);
export const anchorEnum = pgEnum('reminder_anchor', anchors);
export const channelEnum = pgEnum('channel', channels);
export const reminderStatusEnum = pgEnum('reminder_status', reminderStatuses);
export const deliveryStatusEnum = pgEnum('delivery_status', deliveryStatuses);
export const outcomeClassEnum = pgEnum('outcome_class', outcomeClasses);
export const suppressionReasonEnum = pgEnum('suppression_reason', suppressionReasons);
export const repairOwnerEnum = pgEnum('repair_owner', repairOwners);
export const emailProviderEnum = pgEnum('email_provider', emailProviders);
/** Every provider a delivery can go through (`deliveries.provider`): the email providers, `sms_api`, `webhook`. */
export const providerEnum = pgEnum('provider', providers);
export const domainEventTypeEnum = pgEnum('domain_event_type', domainEventTypes);
export const auditActionEnum = pgEnum('audit_action', auditActions);
export const staffRoleEnum = pgEnum('staff_role', staffRoles);
export const reminderKindEnum = pgEnum('reminder_kind', reminderKinds);
export const reportSourceEnum = pgEnum('report_source', reportSources);
export const reportKindEnum = pgEnum('report_kind', reportKinds);
export const alertConditionEnum = pgEnum('alert_condition', alertConditions);
export const alertRouteEnum = pgEnum('alert_route', alertRoutes);
/** How far a guest partnership lets the host write in the guest organisation's name (domain/organisations/guest-sender.ts). */
export const guestLimitEnum = pgEnum('guest_limit', guestLimits);
/** A guest partnership's agreement (domain/organisations/partnership.ts): pending until the other side accepts (migration 0016). */
export const partnershipStatusEnum = pgEnum('partnership_status', partnershipStatuses);
/** Which side of a partnership proposed it: the guest organisation (offer) or the host (request). */
export const partnershipSideEnum = pgEnum('partnership_side', partnershipSides);
/** What became of a "send a test message" request (org_test_messages). */
export const testMessageStatusEnum = pgEnum('test_message_status', testMessageStatuses);

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  /** IANA zone used when an event or contact names none. */
  timeZone: text('time_zone').notNull(),
  /** Minutes before start that an online room opens, unless the event overrides it. */
  roomOpenLeadMinutes: integer('room_open_lead_minutes').notNull().default(30),
  /** From address for this tenant's mail. */
  senderEmail: text('sender_email').notNull().default('reminders@punctual.local'),
  /** Which provider this tenant's mail goes through (credentials come from the environment). */
  emailProvider: emailProviderEnum('email_provider').notNull().default('smtp'),
  /**
   * Domain of the VERP bounce address (`bounces+<token>@<bounce domain>`, issue #10 §4) that is the SMTP envelope
   * sender (Return-Path) of this tenant's mail; null = the domain of `sender_email`.
   */
  bounceDomain: text('bounce_domain'),
  /** The display name of this tenant's mail (`From: "<sender name>" <sender_email>`); null = the tenant's `name` (migrations 0015 and 0016: `npm run tenant -- create --sender-name`, the settings page). */
  senderName: text('sender_name'),
  /** Reply-To address of this tenant's mail; null = none (replies go to `sender_email`). */
  replyTo: text('reply_to'),
  /**
   * The normalised sender address this tenant PROVED it may send from (domain/organisations/sender-identity.ts): an admin opened
   * the link mailed to it, the operator set it (`npm run tenant -- create`), or it was grandfathered in (migration
   * sender_verification_backfill). It counts only while it equals the normalised `sender_email`; null = none.
   * Unique among tenants (index `tenants_sender_verified_email_uq`): one proven owner per address.
   */
  senderVerifiedEmail: text('sender_verified_email'),
  /** How `sender_verified_email` was proven: `link`, `operator` or `grandfathered`; null with it. */
  senderVerifiedVia: text('sender_verified_via'),
  senderVerifiedAt: ts('sender_verified_at'),
  /** Default BCP 47 locale (domain/locales.ts canonicalLocale) of contacts added without one. */
  locale: text('locale').notNull().default('en'),
  /** Row version (trigger `punctual_bump_row_version`, migration 0016): the settings page sends the version it saw (invariant 11). */
  version: integer('version').notNull().default(1),
  updatedBy: text('updated_by'),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [
  // Migration 0022 (sender identity): one proven owner per address; who holds an address, by its normalised form.
  // (`sender_verified_via` is also checked to be link / operator / grandfathered there.)
  uniqueIndex('tenants_sender_verified_email_uq').on(t.senderVerifiedEmail),
  index('tenants_sender_email_lower_idx').on(sql`lower(btrim(${t.senderEmail}))`),
]);

export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    name: text('name').notNull().default(''),
    email: text('email').notNull(),
    /** BCP 47 language tag, e.g. `en`, `nl-NL`. */
    locale: text('locale').notNull().default('en'),
    /** IANA zone of the person; null = unknown (templates then show the event's zone only). */
    timeZone: text('time_zone'),
    /** Mobile number in E.164 (`+31612345678`), validated with libphonenumber-js at input; null = no SMS. */
    phone: text('phone'),
    /**
     * Channels the person accepts per category (domain/notifications/preferences.ts `ChannelPreferences`), e.g.
     * `{"reminders":["email"],"booking_updates":["sms"]}`. Read with `readPreferences` (tolerant).
     */
    preferences: jsonb('preferences').notNull().default(sql`'{"reminders":["email"],"booking_updates":["email"]}'::jsonb`),
    /** `{ start: 'HH:MM', end: 'HH:MM' }` local times in the person's zone (else the tenant's), or null. */
    quietHours: jsonb('quiet_hours'),
    /** Row version (trigger `punctual_bump_row_version`): staff and the person both edit preferences (invariant 11). */
    version: integer('version').notNull().default(1),
    updatedBy: text('updated_by'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('contacts_tenant_email_uq').on(t.tenantId, sql`lower(${t.email})`)],
);

export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    title: text('title').notNull(),
    description: text('description'),
    location: text('location'),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    /** All-day event: starts_at/ends_at are local midnights in `time_zone`. */
    allDay: boolean('all_day').notNull().default(false),
    timeZone: text('time_zone').notNull(),
    roomUrl: text('room_url'),
    /** Overrides the tenant's room-open lead when set. */
    roomOpenLeadMinutes: integer('room_open_lead_minutes'),
    status: eventStatusEnum('status').notNull().default('scheduled'),
    statusReason: text('status_reason'),
    /** Incremented on every timing change; reminders planned from an older version are superseded. */
    scheduleVersion: integer('schedule_version').notNull().default(1),
    /** UID of an imported iCalendar VEVENT (plus RECURRENCE-ID for an expanded occurrence). */
    externalUid: text('external_uid'),
    /** Row version: bumped by a trigger on every UPDATE (migration 0006); an edit carries the version it saw (invariant 11). */
    version: integer('version').notNull().default(1),
    /** Who made the last change (staff email, `import`, `system`): set by the same trigger from `punctual.actor`. */
    updatedBy: text('updated_by'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('events_tenant_external_uid_uq').on(t.tenantId, t.externalUid),
    index('events_tenant_starts_idx').on(t.tenantId, t.startsAt),
  ],
);

export const bookings = pgTable(
  'bookings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    eventId: uuid('event_id').notNull().references(() => events.id),
    contactId: uuid('contact_id').notNull().references(() => contacts.id),
    role: bookingRoleEnum('role').notNull(),
    status: bookingStatusEnum('status').notNull().default('confirmed'),
    statusReason: text('status_reason'),
    /** For `external`: the guest's own tenant, whose identity and suppression list remind them. */
    guestTenantId: uuid('guest_tenant_id').references(() => tenants.id),
    /**
     * Who booked the person: the transaction's `punctual.actor` (db/queries/platform/actor.ts setActor) at insert, via the
     * column default (migration 0011); null when none was named. Shown to a guest organisation as the host actor.
     */
    createdBy: text('created_by').default(sql`nullif(current_setting('punctual.actor', true), '')`),
    /** Row version: bumped by a trigger on every UPDATE (migration 0006); an edit carries the version it saw (invariant 11). */
    version: integer('version').notNull().default(1),
    /** Who made the last change (staff email, `import`, `system`): set by the same trigger from `punctual.actor`. */
    updatedBy: text('updated_by'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // One live booking per person and event; a cancelled booking stays as history and the person may be
    // booked again (a new row, planned afresh).
    uniqueIndex('bookings_event_contact_live_uq').on(t.eventId, t.contactId).where(sql`status <> 'cancelled'`),
    // The today view (issue #13, migration 0021): every booking of an event by status, cancelled ones included.
    index('bookings_event_status_idx').on(t.eventId, t.status),
  ],
);

export const reminderRules = pgTable('reminder_rules', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
  name: text('name').notNull(),
  anchor: anchorEnum('anchor').notNull(),
  /** ISO-8601 duration relative to the anchor, e.g. `-P1D` (calendar day) or `-PT2H` (elapsed). */
  offset: text('offset').notNull(),
  /** Booking roles this rule reminds. */
  audience: bookingRoleEnum('audience').array().notNull(),
  channel: channelEnum('channel').notNull().default('email'),
  template: text('template').notNull(),
  /** How late (seconds after the due instant) a send is still useful. */
  lateSendWindowSeconds: integer('late_send_window_seconds').notNull().default(3600),
  active: boolean('active').notNull().default(true),
  /**
   * Inactive rule deactivated with "let its pending reminders go out" (issue #13, migration 0017): the send path
   * does not cancel the reminders it planned while active. False for an active rule.
   */
  pendingGoOut: boolean('pending_go_out').notNull().default(false),
  /** Row version: bumped by a trigger on every UPDATE (migration 0006); an edit carries the version it saw (invariant 11). */
  version: integer('version').notNull().default(1),
  /** Who made the last change (staff email, `import`, `system`): set by the same trigger from `punctual.actor`. */
  updatedBy: text('updated_by'),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

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
    /** Notifications only: the domain event this message tells about, its type, and its message key (domain/keys.ts). */
    domainEventId: uuid('domain_event_id'),
    notificationType: domainEventTypeEnum('notification_type'),
    messageKey: text('message_key'),
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

export const suppressions = pgTable(
  'suppressions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    address: text('address').notNull(),
    reason: suppressionReasonEnum('reason').notNull(),
    source: text('source').notNull().default('manual'),
    /**
     * The channel the entry stops (issue #10 §3): `email` for an address, `sms` for a number (a STOP at the carrier
     * stops SMS only). Set from the address's form when added.
     */
    channel: channelEnum('channel').notNull().default('email'),
    /** The delivery report that caused it (hard bounce, complaint, third soft bounce, SMS STOP), or null. */
    reportId: uuid('report_id'),
    /** Row version: bumped by a trigger on every UPDATE (migration 0006); an edit carries the version it saw (invariant 11). */
    version: integer('version').notNull().default(1),
    /** Who made the last change (staff email, `import`, `system`): set by the same trigger from `punctual.actor`. */
    updatedBy: text('updated_by'),
    createdAt: createdAt(),
    /** Soft delete (issue #10 §3): a removed entry stops nothing but stays as history, with who removed it and why. */
    removedAt: ts('removed_at'),
    removedBy: text('removed_by'),
    removedReason: text('removed_reason'),
  },
  (t) => [
    // One live entry per address and channel; removed entries are history and do not count.
    uniqueIndex('suppressions_tenant_channel_address_live_uq').on(t.tenantId, t.channel, sql`lower(${t.address})`).where(sql`removed_at is null`),
    index('suppressions_tenant_created_idx').on(t.tenantId, t.createdAt),
  ],
);

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

/** One row per worker process: the last time it ran its minute sweep (issue #10 §6, the heartbeat condition). */
export const workerHeartbeats = pgTable('worker_heartbeats', {
  workerId: text('worker_id').primaryKey(),
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  startedAt: ts('started_at').notNull(),
  lastSweepAt: ts('last_sweep_at').notNull(),
});

/**
 * One row per running worker process (issue #11 §3): its prom-client registry as `getMetricsAsJSON()` (counters,
 * histograms and process metrics, every series labelled with `worker_id`), upserted every ~15 s by the worker
 * (server/dashboards/metrics.ts) and deleted when it stops. /api/metrics merges the rows updated within the last 2 minutes.
 * `updated_at` is the database's clock (invariant 10). Not tenant data.
 */
export const workerMetrics = pgTable('worker_metrics', {
  workerId: text('worker_id').primaryKey(),
  snapshot: jsonb('snapshot').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * The outbox of domain events (DESIGN §3, invariant 12): a fact the booking side records in the SAME
 * transaction as the change — it rolls back with it. The notify task turns each row into notifications once
 * (`processed_at`); a redelivered job finds the messages already planned under their message keys.
 * `(tenant, type, entity, revision)` is unique: one fact per change.
 */
export const domainEvents = pgTable(
  'domain_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    type: domainEventTypeEnum('type').notNull(),
    /** The booking (booking_*, participant_added_as_host) or the event (event_*) the fact is about. */
    entityId: uuid('entity_id').notNull(),
    eventId: uuid('event_id').notNull().references(() => events.id),
    bookingId: uuid('booking_id').references(() => bookings.id),
    /** Distinguishes a second change of one entity: schedule version for event_*, 1 for a booking's facts. */
    revision: integer('revision').notNull(),
    /** What happened, as the booking side knows it (old/new timing, reason); shape per type in server/scheduling/domain-events.ts. */
    payload: jsonb('payload').notNull(),
    /** Who caused it (staff email, `import`, `system`). */
    actor: text('actor').notNull(),
    createdAt: createdAt(),
    processedAt: ts('processed_at'),
    /** How many notifications processing planned (for the operator). */
    notificationCount: integer('notification_count'),
  },
  (t) => [
    uniqueIndex('domain_events_identity_uq').on(t.tenantId, t.type, t.entityId, t.revision),
    index('domain_events_unprocessed_idx').on(t.createdAt).where(sql`processed_at is null`),
  ],
);

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

/**
 * Which host tenants a tenant lets book its people as external guests (invariant 9: a guest is reminded in
 * their own organisation's name, so that organisation must have agreed). Without a row, an `external`
 * booking naming `guest_tenant_id` is refused (and a send whose partnership is gone goes out in the host's
 * own name). `guest_limit` says whom of them the host may write to in the guest organisation's name.
 */
export const guestPartnerships = pgTable(
  'guest_partnerships',
  {
    guestTenantId: uuid('guest_tenant_id').notNull().references(() => tenants.id),
    hostTenantId: uuid('host_tenant_id').notNull().references(() => tenants.id),
    /**
     * Whom the host may write to in the guest organisation's name (issue #12, domain/organisations/guest-sender.ts): `anyone`,
     * `contacts` (the guest tenant's own contacts), `domains` (`allowed_domains`) or `none`. Set by the guest
     * tenant's admins; everyone else the host books as its guest is written to in the host's own name.
     */
    guestLimit: guestLimitEnum('guest_limit').notNull().default('anyone'),
    /** For `domains`: lower-case ASCII (punycode) domains, matched exactly against the address's domain. */
    allowedDomains: text('allowed_domains').array().notNull().default(sql`'{}'::text[]`),
    /**
     * Both sides agree (issue #13, migration 0016): `pending` until an admin of the side that did not propose it
     * accepts; `active` is the only status that lets the host book or write as the guest organisation; `declined`
     * (a pending one refused) and `ended` stay as history. Rows from before migration 0016 are `active`.
     */
    status: partnershipStatusEnum('status').notNull().default('pending'),
    /** Who proposed it (`guest`: an offer; `host`: a request); null for rows from before migration 0016. */
    proposedBy: partnershipSideEnum('proposed_by'),
    /** When the status last changed (proposal, acceptance, decline, end). */
    statusChangedAt: ts('status_changed_at').notNull().defaultNow(),
    /** Row version: bumped by a trigger on every UPDATE (migration 0011); an edit carries the version it saw (invariant 11). */
    version: integer('version').notNull().default(1),
    updatedBy: text('updated_by'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /**
     * The short name (slug) its proposer typed (migration 0026): the proposer's admins see a proposal they made by
     * this slug, never the other organisation's name, until the other side accepts it (no oracle across tenants).
     */
    proposedSlug: text('proposed_slug'),
  },
  (t) => [uniqueIndex('guest_partnerships_pair_uq').on(t.guestTenantId, t.hostTenantId)],
);

/**
 * A partnership proposal to a slug that no organisation had when it was made (migration 0026): kept for its
 * proposer only, shown by the slug exactly like a proposal to an existing organisation that was not answered, and
 * never matched to an organisation (not even one created with that slug later) nor shown to anyone else. Pending
 * until its proposer withdraws it (`declined`); a row version like guest_partnerships (invariant 11).
 */
export const unmatchedPartnershipProposals = pgTable(
  'unmatched_partnership_proposals',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    slug: text('slug').notNull(),
    side: partnershipSideEnum('side').notNull(),
    status: partnershipStatusEnum('status').notNull().default('pending'),
    statusChangedAt: ts('status_changed_at').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
    updatedBy: text('updated_by'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'unmatched_partnership_proposals_pk', columns: [t.tenantId, t.slug, t.side] })],
);

/**
 * "Send a test message" requests of the settings page (issue #13): written by the web app with the job that sends
 * it, finished by the worker with the provider's answer verbatim (migration 0016).
 */
export const orgTestMessages = pgTable(
  'org_test_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    to: text('to').notNull(),
    /** The admin's email. */
    requestedBy: text('requested_by').notNull(),
    /** The tenant's email provider when it was asked for (the worker sends through it). */
    provider: emailProviderEnum('provider').notNull(),
    status: testMessageStatusEnum('status').notNull().default('pending'),
    /** The provider's answer, verbatim (`250 2.0.0 Ok: queued as …`, or the refusal); null while pending. */
    providerAnswer: text('provider_answer'),
    createdAt: createdAt(),
    finishedAt: ts('finished_at'),
  },
  (t) => [index('org_test_messages_tenant_created_idx').on(t.tenantId, t.createdAt)],
);

/**
 * Sender verification links (domain/organisations/sender-identity.ts): one row per link mailed to a tenant's sender address. The
 * token itself is never stored, only its SHA-256 (`token_hash`, hex). A link verifies THIS tenant's THIS address
 * (`address`, normalised) once (`used_at`), before `expires_at` (24 h), and only while it is still the tenant's
 * sender address.
 */
export const senderVerifications = pgTable(
  'sender_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    address: text('address').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The admin who saved the address (or asked for the link again). */
    requestedBy: text('requested_by').notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    usedBy: text('used_by'),
  },
  (t) => [index('sender_verifications_tenant_created_idx').on(t.tenantId, t.createdAt)],
);

/** Every operator action (replay, discard, mark as sent, send again): who, when, why. Append-only. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    actor: text('actor').notNull(),
    action: auditActionEnum('action').notNull(),
    deliveryId: uuid('delivery_id').references(() => deliveries.id),
    reason: text('reason'),
    details: jsonb('details'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_tenant_created_idx').on(t.tenantId, t.createdAt)],
);

/**
 * Idempotency keys of create requests (`Idempotency-Key` header, IETF httpapi draft): one row per (tenant,
 * staff user, key), written in the SAME transaction as the creation it answers, with the request's
 * fingerprint and the response. A repeat with the same fingerprint gets the stored response; another body
 * gets 422. A concurrent repeat waits on the unique index until the first commits (or rolls back).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    /** The staff user who sent the request (keys are per client). */
    actorId: text('actor_id').notNull(),
    key: text('key').notNull(),
    /** `METHOD path` the key was used for. */
    route: text('route').notNull(),
    /** SHA-256 (hex) of the canonical JSON request body. */
    fingerprint: text('fingerprint').notNull(),
    responseStatus: integer('response_status').notNull(),
    responseBody: jsonb('response_body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('idempotency_keys_uq').on(t.tenantId, t.actorId, t.key),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);

/**
 * Provider send rates shared by every worker process, and the sign-in limits' token buckets (issue #12): one
 * row per limiter key holding its theoretical arrival time (GCRA, the "virtual scheduling" form of a token bucket).
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    tat: ts('tat').notNull(),
  },
  // Sign-in buckets (`signin:…`, issue #12) that are full again are pruned by TAT (migration 0012).
  (t) => [index('rate_limits_signin_tat_idx').on(t.tat).where(sql`key like 'signin:%'`)],
);

/** Messages received by the built-in mail catcher (development / demo only; not tenant data). */
export const caughtMessages = pgTable(
  'caught_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** email (SMTP catcher), sms (the built-in SMS API peer) or webhook (the built-in receiver). */
    channel: channelEnum('channel').notNull().default('email'),
    receivedAt: ts('received_at').notNull().defaultNow(),
    envelopeFrom: text('envelope_from'),
    envelopeTo: text('envelope_to').array().notNull(),
    messageId: text('message_id'),
    subject: text('subject'),
    headers: jsonb('headers').notNull(),
    html: text('html'),
    text: text('text'),
    raw: text('raw').notNull(),
    /**
     * The tenant that sent the message, as the sender declared it when it sent (the `X-Punctual-Tenant` header
     * of an email, SMS API request or webhook POST — domain/sending/caught-identity.ts; a DSN takes the tenant of the
     * message it reports on). The mailbox lists a tenant's messages by this column alone, never by an address.
     * Null: no (valid) declaration — shown to nobody.
     */
    tenantId: uuid('tenant_id'),
    /**
     * Account mail (password reset, sign-in and verification links: `X-Punctual-Category: account`): listed only
     * to a staff member signed in as one of its envelope recipients.
     */
    accountMail: boolean('account_mail').notNull().default(false),
  },
  (t) => [
    index('caught_messages_received_idx').on(t.receivedAt),
    index('caught_messages_tenant_idx').on(t.tenantId, t.channel, t.receivedAt),
  ],
);

/*
 * Staff accounts and sessions, in the shape better-auth's drizzle adapter expects (models `user`, `session`,
 * `account`, `verification`; property names are better-auth's field names). A staff user belongs to exactly
 * one tenant and has one role; both are set by an admin or the seed, never by the user (`input: false`).
 */
export const staffUsers = pgTable('staff_users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
  role: staffRoleEnum('role').notNull().default('viewer'),
  /** Row version: bumped by a trigger on every UPDATE (migration 0006); an edit carries the version it saw (invariant 11). */
  version: integer('version').notNull().default(1),
  /** Who made the last change (staff email, `import`, `system`): set by the same trigger from `punctual.actor`. */
  updatedBy: text('updated_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  /** Issue #13: when an admin disabled the account (null: active). A disabled account cannot sign in and has no sessions. */
  disabledAt: ts('disabled_at'),
  /** Issue #13: the admin (email) who disabled it; null when active. */
  disabledBy: text('disabled_by'),
  /** Issue #13: TOTP two-factor is on (better-auth `twoFactor` plugin's user field `twoFactorEnabled`). */
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
});

/**
 * Issue #13: better-auth's `twoFactor` model (plugin `twoFactor`, better-auth 1.7.25): one row per account that set
 * up TOTP — the secret and backup codes, both encrypted by better-auth with BETTER_AUTH_SECRET; `verified` false until
 * the first code confirmed the setup; its own failed-code counter and lock.
 */
export const staffTwoFactors = pgTable(
  'staff_two_factors',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: ts('locked_until'),
    /**
     * The last TOTP time step (floor(unix seconds / 30)) whose code was accepted for this account (migration 0023):
     * a code is accepted once per account and step, and never for a step at or before this one (RFC 6238 §5.2;
     * server/accounts/auth-plugin.ts). Null until a first code was accepted. Not better-auth's: its adapter leaves it alone.
     */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  },
  (t) => [index('staff_two_factors_user_idx').on(t.userId), index('staff_two_factors_secret_idx').on(t.secret)],
);

export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: text('id').primaryKey(),
    expiresAt: ts('expires_at').notNull(),
    token: text('token').notNull().unique(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
  },
  (t) => [index('staff_sessions_user_idx').on(t.userId)],
);

export const staffAccounts = pgTable('staff_accounts', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull(),
  providerId: text('provider_id').notNull(),
  userId: text('user_id')
    .notNull()
    .references(() => staffUsers.id, { onDelete: 'cascade' }),
  accessToken: text('access_token'),
  refreshToken: text('refresh_token'),
  idToken: text('id_token'),
  accessTokenExpiresAt: ts('access_token_expires_at'),
  refreshTokenExpiresAt: ts('refresh_token_expires_at'),
  scope: text('scope'),
  /** Writing a credential password deletes the account's password links (trigger, migration 0023). */
  password: text('password'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const staffVerifications = pgTable(
  'staff_verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  // Issue #13: looked up by identifier — two-factor challenges, and the markers of sessions ended by disabling.
  // Storing a password link (`reset-password:<token>`) deletes the account's older ones (trigger, migration 0023).
  (t) => [index('staff_verifications_identifier_idx').on(t.identifier)],
);

export type StaffUser = typeof staffUsers.$inferSelect;
export type Tenant = typeof tenants.$inferSelect;
export type Contact = typeof contacts.$inferSelect;
export type Event = typeof events.$inferSelect;
export type NewEvent = typeof events.$inferInsert;
export type Booking = typeof bookings.$inferSelect;
export type ReminderRule = typeof reminderRules.$inferSelect;
export type Reminder = typeof reminders.$inferSelect;
export type NewReminder = typeof reminders.$inferInsert;
export type Delivery = typeof deliveries.$inferSelect;
export type DeliveryAttempt = typeof deliveryAttempts.$inferSelect;
export type Suppression = typeof suppressions.$inferSelect;
export type AuditEntry = typeof auditLog.$inferSelect;
export type GuestPartnership = typeof guestPartnerships.$inferSelect;
export type OrgTestMessage = typeof orgTestMessages.$inferSelect;
export type SenderVerification = typeof senderVerifications.$inferSelect;
export type CaughtMessage = typeof caughtMessages.$inferSelect;
export type DomainEvent = typeof domainEvents.$inferSelect;
export type NotificationSettings = typeof notificationSettings.$inferSelect;
export type DeliveryReport = typeof deliveryReports.$inferSelect;
export type AlertSettings = typeof alertSettings.$inferSelect;
export type AlertState = typeof alertStates.$inferSelect;
export type AlertMessage = typeof alertMessages.$inferSelect;

/**
 * Invitations to join a tenant's staff (migration 0027): adding staff is an invitation, answered and listed the same
 * whether or not the address already has an account with another organisation (no oracle across tenants). Pending
 * until accepted through the emailed link (the account is created then), expired, cancelled, or replaced by a new
 * invitation of the same address; only a SHA-256 of the link's token is stored.
 */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: staffRoleEnum('role').notNull(),
    /** The inviting admin's email. */
    invitedBy: text('invited_by').notNull(),
    tokenHash: text('token_hash').notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'cancelled', 'replaced'] }).notNull().default('pending'),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    version: integer('version').notNull().default(1),
    updatedBy: text('updated_by'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('staff_invitations_token_uq').on(t.tokenHash), uniqueIndex('staff_invitations_pending_uq').on(t.tenantId, t.email).where(sql`status = 'pending'`)],
);
export type StaffInvitation = typeof staffInvitations.$inferSelect;
