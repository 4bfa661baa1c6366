/**
 * Suppression lists: addresses and numbers a tenant must not write to, per channel (issue #10 §3).
 * Part of the Drizzle schema (db/schema/index.ts re-exports every file); relative imports only, drizzle-kit loads it.
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { suppressionReasons } from '../../domain/vocabulary';
import { createdAt, ts } from './columns';
import { channelEnum } from './enums';
import { tenants } from './organisations';

export const suppressionReasonEnum = pgEnum('suppression_reason', suppressionReasons);

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

export type Suppression = typeof suppressions.$inferSelect;
