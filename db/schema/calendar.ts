/**
 * Calendar feeds and iTIP replies (capability `calendar`): each contact's private feed (its generation, which
 * rotating bumps so every earlier feed URL stops working, and whether the feed carries alarms), and every
 * iCalendar REPLY a participant's calendar sent back (RFC 5546 §3.2.3), stored whatever it said.
 * Part of the Drizzle schema (db/schema/index.ts re-exports every file); relative imports only, drizzle-kit loads it.
 */
import { boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, ts } from './columns';
import { tenants } from './organisations';
import { bookings, contacts, events } from './scheduling';

/**
 * A contact's calendar feed settings. No row = generation 0, alarms off (the default every contact has). The
 * feed URL's signed token carries the generation (server/calendar/feed-link.ts): rotating increments it, so a URL
 * signed for an older generation is refused (404). `version` is the optimistic-lock version (invariant 11).
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    contactId: uuid('contact_id').notNull().references(() => contacts.id),
    /** 0 … 2³²−1; +1 on every rotation. */
    generation: integer('generation').notNull().default(0),
    /** VALARMs in the feed, matching the person's planned reminders (off by default). */
    alarms: boolean('alarms').notNull().default(false),
    version: integer('version').notNull().default(1),
    rotatedAt: ts('rotated_at'),
    rotatedBy: text('rotated_by'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('calendar_feeds_contact_uq').on(t.tenantId, t.contactId)],
);

/**
 * Every iTIP REPLY received (mail file or inbound webhook), matched or not. `outcome`: `applied` (the booking's
 * answer was recorded), `noted` (matched, kept for staff: TENTATIVE, or nothing to change), `unmatched` (names no
 * booking we know — tenant unknown), `ignored` (names a booking but does not count: another address, an older
 * SEQUENCE, a cancelled booking …); `reason` says why. `raw` is the message, cut at 64 KiB.
 */
export const calendarReplies = pgTable(
  'calendar_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').references(() => tenants.id),
    bookingId: uuid('booking_id').references(() => bookings.id),
    eventId: uuid('event_id').references(() => events.id),
    /** `file` (replies:ingest) or `webhook` (the inbound route). */
    source: text('source').notNull(),
    /** SHA-256 of the raw message, hex: the same mail ingested twice is stored once. */
    sha256: text('sha256').notNull(),
    messageId: text('message_id'),
    fromAddress: text('from_address'),
    uid: text('uid'),
    sequence: integer('sequence'),
    attendee: text('attendee'),
    partstat: text('partstat'),
    outcome: text('outcome').notNull(),
    reason: text('reason').notNull(),
    raw: text('raw').notNull(),
    rawTruncated: boolean('raw_truncated').notNull().default(false),
    receivedAt: createdAt(),
  },
  (t) => [uniqueIndex('calendar_replies_sha_uq').on(t.sha256), index('calendar_replies_tenant_idx').on(t.tenantId, t.receivedAt)],
);

export type CalendarReply = typeof calendarReplies.$inferSelect;
