/**
 * Message text an organisation writes itself (issue #22 §2, DESIGN §3 "Message text"): per message kind and
 * language, at most one draft and any number of published versions, all kept (history, roll back).
 * Part of the Drizzle schema (db/schema/index.ts re-exports every file); relative imports only, drizzle-kit loads it.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgEnum, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { messageTextStatuses } from '../../domain/messages/text-versions';
import { announcementStatuses } from '../../domain/vocabulary';
import { tenants } from './organisations';
import { events } from './scheduling';
import { createdAt, ts } from './columns';

/** `draft` (being written), `published` (a version in use from its publish on), `reset` (a version meaning "Punctual's text"). */
export const messageTextStatusEnum = pgEnum('message_text_status', messageTextStatuses);

/**
 * One row per draft or version of one organisation's text for one message kind (a template id, e.g.
 * "attendee-reminder") in one language (a catalog language, e.g. "de").
 * - A draft: `status` draft, `version` null, the texts set; at most one per (tenant, kind, locale).
 * - A version: `status` published (texts set) or reset (texts null: from then on the built-in text applies), with
 *   `version` 1, 2, … per (tenant, kind, locale) and who published it when. Publishing turns the draft row into
 *   the next version; a roll back or a reset adds a version. Versions are never updated or deleted afterwards.
 * - `row_version` protects against lost updates (invariant 11): every write to a (tenant, kind, locale) gives the
 *   row it writes the highest `row_version` of that key plus one (db/queries/messages/message-texts.ts), so an
 *   editor's "the state I saw" is one number that every later change makes stale.
 * The effective text of a (tenant, kind, locale) is its highest version: published → that text, reset or none →
 * the built-in text.
 */
export const messageTexts = pgTable(
  'message_texts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    kind: text('kind').notNull(),
    locale: text('locale').notNull(),
    status: messageTextStatusEnum('status').notNull(),
    /** The published version number (1, 2, …); null for a draft. */
    version: integer('version'),
    subject: text('subject'),
    body: text('body'),
    sms: text('sms'),
    /** For a rollback: the version whose text this version copies. */
    copiedFrom: integer('copied_from'),
    rowVersion: integer('row_version').notNull().default(1),
    /** The staff member (email) who wrote the text last (draft) or who made the version (rollback, reset). */
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    publishedBy: text('published_by'),
    publishedAt: ts('published_at'),
  },
  (t) => [
    uniqueIndex('message_texts_draft_uq').on(t.tenantId, t.kind, t.locale).where(sql`status = 'draft'`),
    uniqueIndex('message_texts_version_uq').on(t.tenantId, t.kind, t.locale, t.version),
    index('message_texts_key_idx').on(t.tenantId, t.kind, t.locale, t.rowVersion),
    check('message_texts_version_ck', sql`(status = 'draft') = (version is null)`),
    check('message_texts_text_ck', sql`(status = 'reset') = (subject is null and body is null and sms is null)`),
    check('message_texts_published_ck', sql`(status = 'draft') = (published_at is null)`),
  ],
);

export type MessageTextRow = typeof messageTexts.$inferSelect;

/** `scheduled` → `sending` (claimed by the worker) → `sent`, or `cancelled` before the claim (domain/vocabulary.ts). */
export const announcementStatusEnum = pgEnum('announcement_status', announcementStatuses);

/**
 * An announcement: a message staff write to the people of one event (docs/architecture.md "How a reminder travels"), sent now or at a
 * chosen instant through the same pipeline as reminders — one planned message (`reminders` row, kind
 * `announcement`) per recipient and channel, made when the worker claims the announcement at its send instant.
 * - `audience` — who it is for (domain/messages/announcements.ts `audienceSchema`: roles, booking statuses, channels).
 * - `texts` — per language (a catalog language, e.g. "nl"): `{ subject, body, sms }`, checked like the organisation's
 *   own message text before it is stored; one entry = one text for everyone. Never changed after the create.
 * - `send_at` — the due instant (UTC); a send "now" is the request instant.
 * - `status` + `status_reason`; `claimed_at` (the worker's claim), `planned_count` (messages planned at the claim).
 * - `idempotency_key` — the dialog's key: a second POST with it (a double click) returns this row, sends nothing twice.
 * - `row_version` — the cancel carries the version the staff member saw (invariant 11).
 */
export const announcements = pgTable(
  'announcements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    eventId: uuid('event_id').notNull().references(() => events.id),
    audience: jsonb('audience').notNull(),
    texts: jsonb('texts').notNull(),
    sendAt: ts('send_at').notNull(),
    status: announcementStatusEnum('status').notNull().default('scheduled'),
    statusReason: text('status_reason'),
    idempotencyKey: text('idempotency_key').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    claimedAt: ts('claimed_at'),
    plannedCount: integer('planned_count'),
    cancelledBy: text('cancelled_by'),
    cancelledAt: ts('cancelled_at'),
    rowVersion: integer('row_version').notNull().default(1),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('announcements_idempotency_uq').on(t.tenantId, t.idempotencyKey),
    index('announcements_event_idx').on(t.eventId, t.createdAt),
  ],
);

export type AnnouncementRow = typeof announcements.$inferSelect;
