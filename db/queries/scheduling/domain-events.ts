/**
 * SQL of the domain-event outbox (DESIGN §3 "Domain event", invariant 12) and of the notification settings.
 * Appends happen in the caller's transaction — the one that makes the change — so a change that rolls back
 * leaves no event.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { domainEvents, notificationSettings, type DomainEvent } from '@/db/schema';
import type { DomainEventType } from '@/domain/vocabulary';

/**
 * Inserts one domain event; `actor` is the transaction's `punctual.actor` (db/queries/platform/actor.ts), else 'system'.
 * Returns the new row, or null when `(tenant, type, entity, revision)` already exists (the same fact twice).
 */
export async function insertDomainEvent(
  db: DbOrTx,
  e: { tenantId: string; type: DomainEventType; entityId: string; eventId: string; bookingId: string | null; revision: number; payload: Record<string, unknown>; createdAt: Date },
): Promise<DomainEvent | null> {
  const [row] = await db
    .insert(domainEvents)
    .values({ ...e, actor: sql`coalesce(nullif(current_setting('punctual.actor', true), ''), 'system')` })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/** Reads a domain event FOR UPDATE (the notify task holds it while it plans, so two runs serialise). */
export async function lockDomainEvent(db: DbOrTx, id: string): Promise<DomainEvent | undefined> {
  const [row] = await db.select().from(domainEvents).where(eq(domainEvents.id, id)).for('update');
  return row;
}

/** Marks a domain event processed with the number of notifications planned from it. */
export async function markDomainEventProcessed(db: DbOrTx, id: string, at: Date, notificationCount: number): Promise<void> {
  await db.update(domainEvents).set({ processedAt: at, notificationCount }).where(eq(domainEvents.id, id));
}

/** Unprocessed domain events created before `before` (a lost notify job), oldest first. */
export async function unprocessedDomainEvents(db: DbOrTx, before: Date, limit: number): Promise<{ id: string }[]> {
  return db
    .select({ id: domainEvents.id })
    .from(domainEvents)
    .where(and(isNull(domainEvents.processedAt), sql`${domainEvents.createdAt} < ${before.toISOString()}::timestamptz`))
    .orderBy(asc(domainEvents.createdAt))
    .limit(limit);
}

/**
 * Switches a tenant's webhook endpoint off (a 410 Gone from the receiver at `url`): only while `url` is still
 * the configured endpoint (an admin who moved it since keeps the new one on), and guarded so the first reason
 * stays. Returns whether it was switched off.
 */
export async function disableWebhook(db: DbOrTx, tenantId: string, reason: string, at: Date, url: string): Promise<boolean> {
  const rows = await db
    .update(notificationSettings)
    .set({ webhookEnabled: false, webhookDisabledReason: reason, webhookDisabledAt: at, updatedAt: sql`now()` })
    .where(and(eq(notificationSettings.tenantId, tenantId), eq(notificationSettings.webhookEnabled, true), eq(notificationSettings.webhookUrl, url)))
    .returning({ tenantId: notificationSettings.tenantId });
  return rows.length === 1;
}

/**
 * `insertDomainEvent` for many facts in one statement. A fact whose `(tenant, type, entity, revision)` exists
 * already is skipped. Returns the ids inserted, with their entity.
 *
 * Wire format: facts recorded together mostly share type, payload and instant (the bookings of one event differ
 * only by id and role), so each distinct (tenant, type, event, revision, payload, instant) travels once in a small
 * jsonb and each fact as its entity and booking id (`uuid[]` parameters) plus that combination's index.
 */
export async function insertDomainEvents(
  db: DbOrTx,
  rows: { tenantId: string; type: DomainEventType; entityId: string; eventId: string; bookingId: string | null; revision: number; payload: Record<string, unknown>; createdAt: Date }[],
): Promise<{ id: string; entityId: string }[]> {
  if (rows.length === 0) return [];
  const shapes = new Map<string, number>();
  const shapeList: Record<string, unknown>[] = [];
  const idx: number[] = [];
  for (const r of rows) {
    const payload = JSON.stringify(r.payload);
    const key = `${r.tenantId}|${r.type}|${r.eventId}|${r.revision}|${r.createdAt.getTime()}|${payload}`;
    let k = shapes.get(key);
    if (k === undefined) {
      k = shapeList.length;
      shapes.set(key, k);
      shapeList.push({ i: k, tenant_id: r.tenantId, type: r.type, event_id: r.eventId, revision: r.revision, payload: r.payload, created_at: r.createdAt.toISOString() });
    }
    idx.push(k);
  }
  // Ids are UUIDs (nothing an array literal would need to quote).
  const out = await db.execute<{ id: string; entity_id: string }>(sql`
    insert into domain_events (tenant_id, type, entity_id, event_id, booking_id, revision, payload, actor, created_at)
    select s.tenant_id, s.type::domain_event_type, x.entity_id, s.event_id, x.booking_id, s.revision, s.payload,
      coalesce(nullif(current_setting('punctual.actor', true), ''), 'system'), s.created_at
    from unnest(${`{${rows.map((r) => r.entityId).join(',')}}`}::uuid[], ${`{${rows.map((r) => r.bookingId ?? 'NULL').join(',')}}`}::uuid[], ${`{${idx.join(',')}}`}::int[]) as x(entity_id, booking_id, shape)
    join jsonb_to_recordset(${JSON.stringify(shapeList)}::jsonb) as s(
      i int, tenant_id uuid, type text, event_id uuid, revision integer, payload jsonb, created_at timestamptz) on s.i = x.shape
    on conflict do nothing
    returning id, entity_id`);
  return out.map((r) => ({ id: r.id, entityId: r.entity_id }));
}
