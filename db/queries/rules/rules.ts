/** Reminder rules of a tenant: for the staff UI, and the rows a rule's impact is computed from (issue #13). */
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { auditLog, bookings, contacts, events, reminderRules, reminders, type AuditEntry, type Event, type ReminderRule } from '@/db/schema';
import { isUuid } from '@/db/queries/scheduling/event-views';

/** Every rule of the tenant (active first, then by name). */
export async function listRules(db: DbOrTx, tenantId: string): Promise<ReminderRule[]> {
  const rows = await db.select().from(reminderRules).where(eq(reminderRules.tenantId, tenantId)).orderBy(asc(reminderRules.name));
  return rows.sort((a, b) => Number(b.active) - Number(a.active));
}

/** The rule `ruleId` of tenant `tenantId`; null when the id is malformed or the rule is another tenant's. */
export async function getRule(db: DbOrTx, tenantId: string, ruleId: string): Promise<ReminderRule | null> {
  if (!isUuid(ruleId)) return null;
  const [row] = await db.select().from(reminderRules).where(and(eq(reminderRules.tenantId, tenantId), eq(reminderRules.id, ruleId)));
  return row ?? null;
}

/**
 * The tenant's upcoming events for a rule's impact (issue #13): `scheduled` and not yet ended (`ends_at > now`),
 * by id. `lock`: FOR UPDATE, in id order — the lock every planning path takes on an event (`lockEvent` in
 * server/scheduling/events.ts and bookings.ts), so a booking being added waits for the re-plan or is seen by it.
 */
export async function upcomingEvents(db: DbOrTx, tenantId: string, now: Date, lock: boolean): Promise<Event[]> {
  const q = db
    .select()
    .from(events)
    .where(and(eq(events.tenantId, tenantId), eq(events.status, 'scheduled'), gt(events.endsAt, now)))
    .orderBy(asc(events.id));
  return lock ? q.for('update') : q;
}

/** Confirmed bookings of the tenant's upcoming events (as {@link upcomingEvents} chooses them) with their contact's planning fields. */
export async function upcomingBookingsWithContacts(db: DbOrTx, tenantId: string, now: Date) {
  return db
    .select({
      id: bookings.id,
      eventId: bookings.eventId,
      role: bookings.role,
      status: bookings.status,
      attendance: bookings.attendance,
      email: contacts.email,
      phone: contacts.phone,
      timeZone: contacts.timeZone,
      preferences: contacts.preferences,
      quietHours: contacts.quietHours,
    })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .innerJoin(contacts, eq(contacts.id, bookings.contactId))
    .where(and(eq(bookings.tenantId, tenantId), eq(bookings.status, 'confirmed'), eq(events.status, 'scheduled'), gt(events.endsAt, now)))
    .orderBy(asc(bookings.eventId), asc(bookings.id));
}

/**
 * The rule's reminders on upcoming events at each event's current schedule version (every status). `lock`: FOR
 * UPDATE of the reminders (after the events: the event → reminder order of the send path), so the dispatcher's
 * claim (FOR UPDATE SKIP LOCKED) and a re-timing never both act on one row.
 */
export async function ruleRemindersOfUpcoming(db: DbOrTx, tenantId: string, ruleId: string, now: Date, lock: boolean) {
  const q = db
    .select({
      id: reminders.id,
      eventId: reminders.eventId,
      bookingId: reminders.bookingId,
      scheduleVersion: reminders.scheduleVersion,
      channel: reminders.channel,
      status: reminders.status,
      dueAt: reminders.dueAt,
      deferredFrom: reminders.deferredFrom,
      expiresAt: reminders.expiresAt,
    })
    .from(reminders)
    .innerJoin(events, and(eq(events.id, reminders.eventId), eq(events.scheduleVersion, reminders.scheduleVersion)))
    .where(and(eq(reminders.tenantId, tenantId), eq(reminders.ruleId, ruleId), eq(reminders.kind, 'rule'), eq(events.status, 'scheduled'), gt(events.endsAt, now)))
    .orderBy(asc(reminders.id));
  return lock ? q.for('update', { of: reminders }) : q;
}

/** Ends the given reminders `cancelled` with `reason` — only those still `scheduled` (never one handed to a send). Returns how many. */
export async function cancelWaitingReminders(db: DbOrTx, ids: string[], reason: string): Promise<number> {
  let n = 0;
  for (let i = 0; i < ids.length; i += 10_000) {
    const rows = await db
      .update(reminders)
      .set({ status: 'cancelled', statusReason: reason, updatedAt: sql`now()` })
      .where(and(inArray(reminders.id, ids.slice(i, i + 10_000)), eq(reminders.status, 'scheduled')))
      .returning({ id: reminders.id });
    n += rows.length;
  }
  return n;
}

/** Per event of `eventIds`, the earliest due instant among the rule's `scheduled` reminders (where its wake-up must be). */
export async function earliestScheduledOfRuleByEvent(db: DbOrTx, tenantId: string, ruleId: string, eventIds: string[]): Promise<Map<string, Date>> {
  const out = new Map<string, Date>();
  for (let i = 0; i < eventIds.length; i += 10_000) {
    const rows = await db
      .select({ eventId: reminders.eventId, ms: sql<number>`(extract(epoch from min(${reminders.dueAt})) * 1000)::float8` })
      .from(reminders)
      .where(and(eq(reminders.tenantId, tenantId), eq(reminders.ruleId, ruleId), eq(reminders.status, 'scheduled'), inArray(reminders.eventId, eventIds.slice(i, i + 10_000))))
      .groupBy(reminders.eventId);
    for (const r of rows) if (r.ms !== null) out.set(r.eventId, new Date(Math.round(Number(r.ms))));
  }
  return out;
}

/** How many reminders (any status, any event) were ever planned from the rule. */
export async function remindersOfRuleCount(db: DbOrTx, tenantId: string, ruleId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(reminders).where(and(eq(reminders.tenantId, tenantId), eq(reminders.ruleId, ruleId)));
  return row?.n ?? 0;
}

/** The newest `rule_create`/`rule_update` audit entry of the rule (what /rules?saved= reports), or null. */
export async function latestRuleWrite(db: DbOrTx, tenantId: string, ruleId: string): Promise<Pick<AuditEntry, 'action' | 'details' | 'createdAt'> | null> {
  const [row] = await db
    .select({ action: auditLog.action, details: auditLog.details, createdAt: auditLog.createdAt })
    .from(auditLog)
    .where(and(eq(auditLog.tenantId, tenantId), inArray(auditLog.action, ['rule_create', 'rule_update']), sql`${auditLog.details}->>'ruleId' = ${ruleId}`))
    .orderBy(sql`${auditLog.createdAt} desc`)
    .limit(1);
  return row ?? null;
}
