/**
 * Reminder rules: when (anchor + ISO-8601 offset), to whom (booking roles) and through which channel a tenant's
 * reminders are planned.
 * Part of the Drizzle schema (db/schema/index.ts re-exports every file); relative imports only, drizzle-kit loads it.
 */
import { boolean, integer, pgEnum, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { anchors } from '../../domain/vocabulary';
import { createdAt, ts } from './columns';
import { bookingRoleEnum, channelEnum } from './enums';
import { tenants } from './organisations';

export const anchorEnum = pgEnum('reminder_anchor', anchors);

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
  /**
   * Targets only bookings whose person has not confirmed yet ("ask to confirm 48 h before, to those who haven't"):
   * a waiting reminder of this rule ends `cancelled` ("already confirmed") when its person confirms
   * (server/scheduling/attendance.ts), and is re-checked at send time (domain/sending/send-decision.ts).
   */
  onlyUnconfirmed: boolean('only_unconfirmed').notNull().default(false),
  /** Row version: bumped by a trigger on every UPDATE (migration 0006); an edit carries the version it saw (invariant 11). */
  version: integer('version').notNull().default(1),
  /** Who made the last change (staff email, `import`, `system`): set by the same trigger from `punctual.actor`. */
  updatedBy: text('updated_by'),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export type ReminderRule = typeof reminderRules.$inferSelect;
