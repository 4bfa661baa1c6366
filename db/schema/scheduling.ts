/**
 * The booking side: contacts (people), events, bookings, and the outbox of domain events the booking side
 * records in the same transaction as each change (DESIGN §3, invariant 12).
 * Part of the Drizzle schema (db/schema/index.ts re-exports every file); relative imports only, drizzle-kit loads it.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgEnum, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bookingStatuses, eventStatuses } from '../../domain/vocabulary';
import { attendanceSources, attendanceStates } from '../../domain/scheduling/attendance';
import { createdAt, ts } from './columns';
import { bookingRoleEnum, domainEventTypeEnum } from './enums';
import { tenants } from './organisations';

export const bookingStatusEnum = pgEnum('booking_status', bookingStatuses);
export const eventStatusEnum = pgEnum('event_status', eventStatuses);
export const attendanceStateEnum = pgEnum('attendance_state', attendanceStates);
export const attendanceSourceEnum = pgEnum('attendance_source', attendanceSources);

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
    /**
     * The note for participants per language (domain/scheduling/event-note.ts): `{ "nl": "Neem een schort mee", "": "…" }`,
     * `""` = all languages; null = none. Messages show it where their text puts `{eventNote}`.
     */
    eventNote: jsonb('event_note').$type<Record<string, string>>(),
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
     * Whether the person said they will come (domain/scheduling/attendance.ts): unconfirmed | confirmed | declined |
     * cancelled_by_staff. Changed only by server/scheduling/attendance.ts `answerBooking` and a staff cancellation.
     */
    attendance: attendanceStateEnum('attendance').notNull().default('unconfirmed'),
    /** Who set `attendance` last: link | calendar_reply | staff; null while unconfirmed. */
    attendanceSource: attendanceSourceEnum('attendance_source'),
    /** Who exactly (staff email, the participant's address for a calendar reply), or null. */
    attendanceBy: text('attendance_by'),
    /** When `attendance` was last set (UTC), or null. */
    attendanceAt: ts('attendance_at'),
    /** A tentative answer, noted only (it changes no state): its source and time; null when none. */
    tentativeSource: attendanceSourceEnum('tentative_source'),
    tentativeAt: ts('tentative_at'),
    /**
     * Who booked the person: the transaction's `punctual.actor` (db/queries/platform/actor.ts setActor) at insert, via the
     * column default (migration 0011); null when none was named. Shown to a guest organisation as the host actor.
     */
    createdBy: text('created_by').default(sql`nullif(current_setting('punctual.actor', true), '')`),
    /**
     * The iCalendar SEQUENCE of this booking's calendar entry as it stands now (domain/calendar/invite-sequence.ts
     * `inviteSequenceOf`): 0 when booked, one higher with every change that sends the person a new invitation — a
     * reschedule, a details change staff chose to tell people about, the cancellation (its CANCEL carries the new
     * value) — in the transaction of that change. Never lowered. Changing only this column does not bump `version`
     * (the row-version trigger ignores it, migration 0035), so an open form of the booking stays current.
     */
    inviteSequence: integer('invite_sequence').notNull().default(0),
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

export type Contact = typeof contacts.$inferSelect;
export type Event = typeof events.$inferSelect;
export type NewEvent = typeof events.$inferInsert;
export type Booking = typeof bookings.$inferSelect;
export type DomainEvent = typeof domainEvents.$inferSelect;
