/**
 * Platform tables: the operator audit log, idempotency keys of create requests, shared rate limits, and the
 * worker processes' heartbeats and metrics snapshots.
 * Part of the Drizzle schema (db/schema/index.ts re-exports every file); relative imports only, drizzle-kit loads it.
 */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgEnum, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { auditActions } from '../../domain/vocabulary';
import { createdAt, ts } from './columns';
import { tenants } from './organisations';
import { deliveries } from './sending';

export const auditActionEnum = pgEnum('audit_action', auditActions);

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

export type AuditEntry = typeof auditLog.$inferSelect;
