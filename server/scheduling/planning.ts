/**
 * Reminder planning shared by the scheduling use-cases (./events.ts, ./bookings.ts, server/rules/rules.ts): plans a
 * booking's reminders with the domain planner (domain/scheduling/planning.ts) under the person's channels and quiet
 * hours, writes them, and enqueues the dispatcher's wake-ups in the same transaction (the outbox, invariant 1).
 */
import type { DbOrTx, Tx } from '@/db/client';
import { enqueueJobs } from '@/db/queries/platform/jobs';
import {
  activeRules,
  carryCandidates,
  carryReminder,
  endSendableReminders,
  getTenant,
} from '@/db/queries/scheduling/scheduling';
import { insertPlannedReminders } from '@/db/queries/scheduling/bulk-planning';
import type { Booking, Event, ReminderRule, Tenant } from '@/db/schema';
import { DueInstantError } from '@/domain/scheduling/due-instant';
import { remindersToCarry } from '@/domain/scheduling/carry-forward';
import { wakeJobKey } from '@/domain/keys';
import {
  planReminders,
  type PlannedReminder,
  type PlanningBooking,
  type PlanningEvent,
} from '@/domain/scheduling/planning';
import { forEachPreferredChannel } from '@/domain/notifications/preferred-channels';
import { contactsOfBookings } from '@/db/queries/notifications/notify';
import {
  earliestScheduledByRule,
  retimeReminder,
  ruleRemindersOfBookingForUpdate,
} from '@/db/queries/scheduling/participants';
import { participantReplan } from '@/domain/scheduling/participant-replan';
import type { Contact } from '@/db/schema';
import { AppError } from '@/server/platform/errors';
import { TASK } from '@/jobs/registry';

function planningEvent(e: Event, tenant: Tenant): PlanningEvent {
  return {
    startsAt: e.startsAt,
    endsAt: e.endsAt,
    timeZone: e.timeZone,
    status: e.status,
    roomUrl: e.roomUrl,
    roomOpenLeadMinutes: e.roomOpenLeadMinutes ?? tenant.roomOpenLeadMinutes,
  };
}

/** The tenant row of `tenantId`. @throws AppError not_found (field `tenantId`) when there is none. */
export async function requireTenant(db: DbOrTx, tenantId: string): Promise<Tenant> {
  const t = await getTenant(db, tenantId);
  if (!t) throw new AppError('not_found', `tenant ${tenantId} not found`, 'tenantId');
  return t;
}

/** Booking ids per `contactsOfBookings` call (one bind parameter each; PostgreSQL allows 65,535 per statement). */
const CONTACT_LOOKUP_CHUNK = 10_000;

/** The contact fields planning reads (channel preferences, quiet hours, addresses, zone). */
type PlanningContactFields = Pick<Contact, 'email' | 'phone' | 'timeZone' | 'preferences' | 'quietHours'>;

/**
 * Plans reminders for `bookingList` under `rules` (domain/scheduling/planning.ts), one per channel each booking's contact
 * accepts, with quiet hours applied (`forEachPreferredChannel`). Pure apart from the AppError mapping.
 * @throws AppError('validation') for an invalid rule offset or event zone.
 */
export function planFor(
  tenant: Tenant,
  event: Event,
  bookingList: readonly PlanningBooking[],
  rules: ReminderRule[],
  contacts: Map<string, PlanningContactFields>,
  now: Date,
): (PlannedReminder & { deferredFrom: Date | null })[] {
  let planned: PlannedReminder[];
  try {
    planned = planReminders({ event: planningEvent(event, tenant), bookings: bookingList, rules, now });
  } catch (e) {
    if (e instanceof DueInstantError) throw new AppError('validation', e.message, e.field);
    throw e;
  }
  return forEachPreferredChannel(planned, contacts, tenant.timeZone);
}

/** The `reminders` rows for planned reminders of `event` at its current schedule version. */
export function reminderRows(tenant: Tenant, event: Event, planned: (PlannedReminder & { deferredFrom?: Date | null })[]) {
  return planned.map((p) => ({
    tenantId: tenant.id,
    eventId: event.id,
    bookingId: p.bookingId,
    ruleId: p.ruleId,
    scheduleVersion: event.scheduleVersion,
    channel: p.channel,
    dueAt: p.dueAt,
    deferredFrom: p.deferredFrom ?? null,
    expiresAt: p.expiresAt,
    status: p.status,
    statusReason: p.statusReason,
  }));
}

/**
 * One wake-up per (event, rule) at the earliest waiting reminder of that rule (`wakes`: rule id → instant),
 * added in one statement; the job key replaces an earlier wake-up for the same pair. An instant not after `now`
 * runs at once (the database clock's now()).
 */
export async function enqueueWakes(tx: Tx, eventId: string, wakes: Map<string, Date>, now: Date): Promise<void> {
  await enqueueJobs(
    tx,
    [...wakes].map(([ruleId, dueAt]) => ({ task: TASK.dispatchDue, payload: { reason: 'wake' }, runAt: dueAt > now ? dueAt : null, jobKey: wakeJobKey(eventId, ruleId) })),
    { jobKeyMode: 'replace' },
  );
}

/**
 * One wake-up per event for ONE rule (`wakes`: event id → the rule's earliest waiting reminder there), the same
 * job key as {@link enqueueWakes} (replacing an earlier wake-up of the pair). Used by a rule's re-plan (server/rules/rules.ts).
 */
export async function enqueueRuleWakes(tx: Tx, ruleId: string, wakes: Map<string, Date>, now: Date): Promise<void> {
  await enqueueJobs(
    tx,
    [...wakes].map(([eventId, dueAt]) => ({ task: TASK.dispatchDue, payload: { reason: 'wake' }, runAt: dueAt > now ? dueAt : null, jobKey: wakeJobKey(eventId, ruleId) })),
    { jobKeyMode: 'replace' },
  );
}

/**
 * Plans reminders for `bookingList` at the event's current schedule version, inserts them, and enqueues
 * one wake-up per (event, rule) at the due instant (replacing an earlier wake-up for the same pair).
 * Returns the number of reminders inserted.
 */
export async function planAndEnqueue(tx: Tx, tenant: Tenant, event: Event, bookingList: Booking[], now: Date, opts: { supersedeOlder?: boolean } = {}): Promise<number> {
  const rules = await activeRules(tx, tenant.id);
  const contacts = new Map<string, Contact>();
  for (let i = 0; i < bookingList.length; i += CONTACT_LOOKUP_CHUNK) {
    const ids = bookingList.slice(i, i + CONTACT_LOOKUP_CHUNK).map((b) => b.id);
    for (const [k, v] of await contactsOfBookings(tx, tenant.id, ids)) contacts.set(k, v);
  }
  const planned = planFor(tenant, event, bookingList, rules, contacts, now);
  // A reschedule: reminders whose due instant did not move are carried into the new version (a reminder that
  // already went out is never planned again under a new message key); the rest of the older versions is
  // superseded. A carried row holds the new version's business key, so the insert below skips its plan.
  const carried = opts.supersedeOlder ? remindersToCarry(await carryCandidates(tx, tenant.id, event.id, event.scheduleVersion), planned) : [];
  for (const c of carried) await carryReminder(tx, c.id, event.scheduleVersion, c.planned.expiresAt);
  if (opts.supersedeOlder) {
    await endSendableReminders(tx, tenant.id, { eventId: event.id, belowVersion: event.scheduleVersion }, 'superseded', `superseded by schedule version ${event.scheduleVersion}`);
  }
  const { inserted, earliestScheduled: wakes } = await insertPlannedReminders(tx, reminderRows(tenant, event, planned));
  // A wake-up per rule at its earliest waiting reminder, carried ones included (the job key replaces the old wake).
  for (const c of carried) {
    if (c.planned.status !== 'scheduled') continue;
    const prev = wakes.get(c.planned.ruleId);
    if (!prev || c.planned.dueAt < prev) wakes.set(c.planned.ruleId, c.planned.dueAt);
  }
  await enqueueWakes(tx, event.id, wakes, now);
  return inserted;
}

/** What {@link replanParticipantBooking} changed for one booking. */
export interface ParticipantReplanResult {
  bookingId: string;
  eventId: string;
  /** Waiting reminders moved to new instants (same rows, same message keys), with their instants before and after. */
  retimed: { reminderId: string; ruleId: string; channel: string; from: { dueAt: Date; deferredFrom: Date | null }; to: { dueAt: Date; deferredFrom: Date | null } }[];
  /** Reminders newly planned (a channel that became possible, e.g. SMS after a number was added). */
  inserted: number;
  /** Reminders already handed to a send (dispatched, claimed, sending, sent): left exactly as they are. */
  handedOver: number;
}

/**
 * Re-plans ONE booking's rule reminders after its participant's details changed (issue #12: zone, mobile
 * number), at the event's CURRENT schedule version, with the same planner as every other path (`planFor`:
 * domain/scheduling/planning.ts, the person's channels, quiet hours in their zone). What happens to each stored reminder
 * is decided by domain/scheduling/participant-replan.ts: a waiting (`scheduled`) one whose planned instants moved is
 * re-timed in place — the same row and message key, so it is still one message —; one already handed to a
 * send (`dispatched`, `done`) or ended is never touched; a newly possible channel is inserted. Then the
 * wake-up of every rule touched is set to that rule's earliest waiting reminder of the event (never later
 * than another participant's).
 *
 * The caller runs this in the transaction that writes the person, AFTER locking the event FOR UPDATE (the
 * lock a send takes FOR SHARE before it re-reads the person, db/queries/sending/delivery.ts `loadReminderWorld`: a send
 * either went first or sees the new details) and after writing the contact.
 * @param reason status reason given to re-timed reminders (shown on their timeline row).
 * @throws AppError('validation') for a rule whose offset cannot be planned (the edit then writes nothing).
 */
export async function replanParticipantBooking(tx: Tx, tenantId: string, event: Event, booking: Booking, now: Date, reason: string): Promise<ParticipantReplanResult> {
  const result: ParticipantReplanResult = { bookingId: booking.id, eventId: event.id, retimed: [], inserted: 0, handedOver: 0 };
  const tenant = await requireTenant(tx, tenantId);
  const rules = await activeRules(tx, tenantId);
  const contacts = await contactsOfBookings(tx, tenantId, [booking.id]);
  const planned = planFor(tenant, event, [booking], rules, contacts, now);
  const stored = await ruleRemindersOfBookingForUpdate(tx, tenantId, booking.id, event.scheduleVersion);
  const steps = participantReplan(
    stored.filter((s): s is typeof s & { ruleId: string } => s.ruleId !== null),
    planned,
  );
  const touched = new Set<string>();
  const inserts: (PlannedReminder & { deferredFrom: Date | null })[] = [];
  for (const step of steps) {
    if (step.kind === 'retime') {
      if (!(await retimeReminder(tx, step.id, step.to, reason))) continue;
      touched.add(step.ruleId);
      result.retimed.push({
        reminderId: step.id,
        ruleId: step.ruleId,
        channel: step.channel,
        from: { dueAt: step.from.dueAt, deferredFrom: step.from.deferredFrom },
        to: { dueAt: step.to.dueAt, deferredFrom: step.to.deferredFrom },
      });
    } else if (step.kind === 'insert') inserts.push(step.planned);
    else if (step.why === 'handed_over') result.handedOver++;
  }
  if (inserts.length > 0) {
    const r = await insertPlannedReminders(tx, reminderRows(tenant, event, inserts));
    result.inserted = r.inserted;
    for (const ruleId of r.earliestScheduled.keys()) touched.add(ruleId);
  }
  // Each touched rule's wake-up at its earliest waiting reminder of the event (the job key replaces the old one):
  // computed over all participants, so a later instant of this one never delays anybody else's.
  if (touched.size > 0) await enqueueWakes(tx, event.id, await earliestScheduledByRule(tx, tenantId, event.id, [...touched]), now);
  return result;
}
