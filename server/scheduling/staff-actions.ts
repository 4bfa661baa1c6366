/**
 * What staff do from the app (issue #4), each in ONE transaction with its audit entry: create/edit/
 * reschedule/cancel an event, add/cancel a booking, add/remove a suppression, edit a reminder rule. The
 * scheduling rules themselves live in server/scheduling/events.ts and bookings.ts; this layer adds the form shapes (wall-clock
 * times in the event's zone, domain/scheduling/event-form.ts), the tenant scope from the session and the audit trail.
 *
 * Every function takes `ctx = { tenantId, actor, actorId, now }` from the signed-in session and throws AppError
 * (validation naming the field → 400, not_found → 404, conflict/invalid_state → 409, forbidden → 403 when the
 * actor's role, re-read under a lock inside the writing transaction, no longer allows the action).
 *
 * No lost updates (invariant 11): every edit of a stored record (event edit/reschedule and cancel, booking
 * cancel, suppression remove, rule edit) takes the row `version` the editor saw in its input; the row is
 * locked, the version compared, and only then written — a stale save is a 409 naming field `version`, with
 * the current record, and writes nothing (server/platform/versions.ts). Each transaction names its actor for the
 * row-version trigger (`setActor`).
 */
import { describeKept } from '@/domain/scheduling/contact-kept';
import { parsePhone } from '@/domain/phone';
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx, Tx } from '@/db/client';
import { actorDisplayName, setActor } from '@/db/queries/platform/actor';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { guestTenantsOf, lockEvent, previousCancelledBooking, reminderImpact } from '@/db/queries/scheduling/scheduling';
import { bookings, contacts, events, reminderRules, suppressions, tenants, type Booking, type Event } from '@/db/schema';
import { alreadyRemovedMessage } from '@/domain/platform/edit-conflict';
import { EventFormError, formFromTiming, timingFromForm } from '@/domain/scheduling/event-form';
import { suppressionReasons } from '@/domain/vocabulary';
import { bookingFormSchema, type BookingForm } from '@/domain/scheduling/booking-form';
import { FIELD_LIMITS } from '@/domain/platform/request-limits';
import { refuseBidiControls } from '@/domain/text';
import { checkEventNote, type EventNote } from '@/domain/scheduling/event-note';
import { catalogLocales } from '@/emails/messages';
import { AppError, assertId, parseInput } from '@/server/platform/errors';
import { addBooking, cancelBooking } from './bookings';
import { cancelEvent, changeEventDetails, createEvent, rescheduleEvent } from './events';
import { suppressionChannelOf } from '@/server/suppressions/suppressions';
import { senderOfNewBooking } from '@/server/organisations/partnerships';
import { assertVersion, assertVersionIssued, parseVersion, recheckActor } from '@/server/platform/versions';

export interface ActionContext {
  tenantId: string;
  /** The signed-in staff member's email (audit `actor`, and `updated_by` of the rows they change). */
  actor: string;
  /**
   * The signed-in staff member's user id: every write re-reads their role under a lock with it (server/platform/versions.ts
   * `recheckActor`), so a request sent before a demotion cannot complete after it. Unset for the seed and imports.
   */
  actorId?: string;
  now: Date;
}

const optionalText = z
  .string()
  .trim()
  .max(2000)
  .check(refuseBidiControls)
  .nullish()
  .transform((v) => (v ? v : null));

/**
 * The note for participants (domain/scheduling/event-note.ts): an object from a language Punctual writes messages in
 * (or "" for all languages) to plain text of at most 500 characters; normalised (blank values dropped). Absent =
 * leave the stored note as it is (an edit); null or {} = no note.
 */
const eventNoteField = z.unknown().transform((v, ctx): EventNote | undefined => {
  if (v === undefined) return undefined;
  const r = checkEventNote(v, catalogLocales);
  if (r.ok) return r.note;
  ctx.addIssue({ code: 'custom', message: r.message });
  return z.NEVER;
});

/** The stored form of a checked note: null for none. */
const storedNote = (note: EventNote | undefined): EventNote | null => (note && Object.keys(note).length > 0 ? note : null);

/** The event form: details plus wall-clock timing in `timeZone`. */
const eventFormSchema = z.object({
  title: z.string().trim().min(1, 'required').max(200).check(refuseBidiControls),
  description: optionalText,
  location: optionalText,
  roomUrl: z
    .union([z.literal(''), z.url({ protocol: /^https?$/, message: 'must be an http(s) URL such as https://meet.example/room' }).max(2000).check(refuseBidiControls)])
    .nullish()
    .transform((v) => (v ? v : null)),
  timeZone: z.string().min(1, 'required'),
  allDay: z.boolean().default(false),
  start: z.string().min(1, 'required'),
  end: z.string().default(''),
  eventNote: eventNoteField.optional(),
});
type EventForm = z.input<typeof eventFormSchema>;

function timing(f: z.output<typeof eventFormSchema>) {
  try {
    return timingFromForm({ start: f.start, end: f.end, timeZone: f.timeZone, allDay: f.allDay });
  } catch (e) {
    if (e instanceof EventFormError) throw new AppError('validation', e.message, e.field);
    throw e;
  }
}

/** Creates an event from the form. `db` may be an open transaction (an idempotent request's, server/platform/idempotency.ts). */
export async function createEventAction(db: DbOrTx, ctx: ActionContext, input: EventForm): Promise<Event> {
  const f = parseInput(eventFormSchema, input);
  return db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    const e = await createEvent(tx, ctx.tenantId, { title: f.title, description: f.description, location: f.location, roomUrl: f.roomUrl, eventNote: storedNote(f.eventNote), ...timing(f) });
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'event_create', at: ctx.now, details: { eventId: e.id, title: e.title } });
    return e;
  });
}

/**
 * The event as its edit form shows it (wall-clock times in its own zone, empty text for absent values),
 * plus its row version and status: the `current` record of a stale event save.
 */
export function eventFormView(e: Event) {
  return {
    version: e.version,
    title: e.title,
    description: e.description ?? '',
    location: e.location ?? '',
    roomUrl: e.roomUrl ?? '',
    eventNote: e.eventNote ?? {},
    ...formFromTiming(e),
    status: e.status,
    scheduleVersion: e.scheduleVersion,
  };
}

/** A stale event save (invariant 11): the event row was changed since the form was opened. */
async function assertEventVersion(tx: Tx, ctx: ActionContext, e: Event, seen: number): Promise<void> {
  await assertVersion(tx, ctx, e, seen, { what: 'This event', zone: e.timeZone, current: eventFormView(e) });
}

/**
 * Whether to tell the event's people about a details change (`notify` of the event form and API): true or false, or
 * absent/null for the default (domain/scheduling/event-details-change.ts `notifyByDefault`: yes when the title, place
 * or online-room link changed; no when only the description did). Anything else is a 400 naming `notify`.
 */
const notifySchema = z.object({ notify: z.boolean({ error: 'must be true or false (or left out for the default)' }).nullish() });

/**
 * Saves the event form: details change in place; a timing change (start, end, zone, all-day) is a reschedule
 * (new schedule version, old reminders superseded, new ones planned) — audited as `event_reschedule`.
 * A change of the title, place, online-room link or description tells the event's people ("details changed" notice
 * with an updated calendar entry; server/scheduling/events.ts `changeEventDetails`) when `input.notify` says so, or by
 * default when it is absent; the audit entry records what changed, the choice and whether it was the default.
 * `input.version` is the event's row version the form was opened with.
 * @returns the event, whether it was rescheduled, and whether people are told about changed details.
 * @throws AppError validation (field named, `version` when missing, `notify` when not a boolean), not_found, conflict
 *   (stale `version`: "This event was changed by NAME at TIME since you opened it.", nothing written), invalid_state
 *   (cancelled).
 */
export async function updateEventAction(
  db: Db,
  ctx: ActionContext,
  eventId: string,
  input: EventForm & { version?: unknown; notify?: unknown },
): Promise<{ event: Event; rescheduled: boolean; detailsNotified: boolean }> {
  assertId(eventId, 'eventId', 'event');
  const seen = parseVersion(input);
  const f = parseInput(eventFormSchema, input);
  const { notify } = parseInput(notifySchema, { notify: input.notify });
  const t = timing(f);
  return db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    await setActor(tx, ctx.actor);
    const before = await lockEvent(tx, ctx.tenantId, eventId);
    if (!before) throw new AppError('not_found', `event ${eventId} not found`, 'eventId');
    await assertEventVersion(tx, ctx, before, seen);
    if (before.status === 'cancelled') throw new AppError('invalid_state', 'a cancelled event cannot be edited', 'eventId');
    // Only a real change is written (changeEventDetails): a save that changes nothing must not bump the version (and
    // so stale every other open form of this event). An absent note leaves the stored one.
    const details = await changeEventDetails(
      tx,
      ctx.tenantId,
      eventId,
      { title: f.title, description: f.description, location: f.location, roomUrl: f.roomUrl, ...(f.eventNote === undefined ? {} : { eventNote: storedNote(f.eventNote) }) },
      { notify: notify ?? undefined, now: ctx.now },
    );
    const after = await rescheduleEvent(tx, ctx.tenantId, eventId, { ...t, roomOpenLeadMinutes: before.roomOpenLeadMinutes }, ctx.now);
    const rescheduled = after.scheduleVersion !== before.scheduleVersion;
    await appendAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: rescheduled ? 'event_reschedule' : 'event_update',
      at: ctx.now,
      details: {
        eventId,
        title: f.title,
        ...(rescheduled
          ? { from: { startsAt: before.startsAt, endsAt: before.endsAt, timeZone: before.timeZone, version: before.scheduleVersion }, to: { startsAt: after.startsAt, endsAt: after.endsAt, timeZone: after.timeZone, version: after.scheduleVersion } }
          : {}),
        // What changed of the details, and whether staff had the people told (their choice, or the default).
        ...(details.changes.length > 0 ? { changes: details.changes, notify: details.notified, notifyChoice: details.byDefault ? 'default' : 'staff' } : {}),
      },
    });
    const [event] = await tx.select().from(events).where(eq(events.id, eventId));
    return { event: event!, rescheduled, detailsNotified: details.notified };
  });
}

/** A cancellation's reason (3–500 characters, trimmed): the single and the bulk cancels share it. */
export const reasonSchema = z.object({ reason: z.string().trim().min(3, 'a reason of at least 3 characters is required').max(500).check(refuseBidiControls) });

/**
 * Cancels an event and its waiting reminders. `input.version`: the event's row version the page showed.
 * @throws AppError validation (`reason`, `version`), not_found, conflict (stale version, nothing written).
 */
export async function cancelEventAction(db: Db, ctx: ActionContext, eventId: string, input: { reason?: unknown; version?: unknown }): Promise<Event> {
  assertId(eventId, 'eventId', 'event');
  const seen = parseVersion(input);
  const { reason } = parseInput(reasonSchema, input);
  return db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    await setActor(tx, ctx.actor);
    const before = await lockEvent(tx, ctx.tenantId, eventId);
    if (!before) throw new AppError('not_found', `event ${eventId} not found`, 'eventId');
    await assertEventVersion(tx, ctx, before, seen);
    if (before.status === 'cancelled') return before; // already cancelled: nothing changes, nothing to audit
    const impact = await reminderImpact(tx, ctx.tenantId, { eventId });
    const e = await cancelEvent(tx, ctx.tenantId, eventId, reason, ctx.now);
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'event_cancel', reason, at: ctx.now, details: { eventId, title: e.title, remindersCancelled: impact.pending } });
    return e;
  });
}

// The booking form's rules are pure (domain/scheduling/booking-form.ts): the CSV import checks its rows with the same schema.
export { bookingFormSchema, type BookingForm } from '@/domain/scheduling/booking-form';

/**
 * Books a person onto an event (their reminders are planned in the same transaction). A person whose earlier
 * booking of this event was cancelled is booked again: a new booking (new id, so new reminder business keys,
 * planned afresh), the cancelled one kept as history; the audit entry says it is a re-booking
 * (`rebook: true, previousBookingId`). A person with a live booking is still a 409. `db` may be an open
 * transaction (server/platform/idempotency.ts).
 *
 * An external guest (issue #12): `sendsAs` says whose name their messages go out in as the partnership stands
 * ("in Partner Collective’s name", or "in your own name: …" and why, server/organisations/partnerships.ts), for the host's
 * staff and the audit entry; the booking records its actor (`bookings.created_by`) for the guest
 * organisation's logs.
 *
 * A person already in the contacts keeps their stored details (review of issue #12: a booking overwrote a
 * participant edit): `kept` words what the form said that differs ("kept: existing zone Europe/Berlin — edit the
 * participant to change it"), also in the audit entry.
 */
export async function addBookingAction(db: DbOrTx, ctx: ActionContext, eventId: string, input: BookingForm): Promise<Booking & { sendsAs?: string; kept?: string }> {
  assertId(eventId, 'eventId', 'event');
  const f = parseInput(bookingFormSchema, input);
  return db.transaction(async (tx) => {
    await setActor(tx, ctx.actor);
    await recheckActor(tx, ctx, 'operate');
    let guestTenantId: string | null = null;
    if (f.role === 'external') {
      if (!f.guestTenant) throw new AppError('validation', "guestTenant: required for an external guest (the slug of the guest's own organisation)", 'guestTenant');
      // Only organisations that agreed to have their people booked as our guests are offered or accepted.
      const allowed = await guestTenantsOf(tx, ctx.tenantId);
      if (!allowed.some((t) => t.slug === f.guestTenant)) throw new AppError('validation', `guestTenant: "${f.guestTenant}" is not an organisation whose people you may book as guests`, 'guestTenant');
      const [g] = await tx.select().from(tenants).where(eq(tenants.slug, f.guestTenant));
      guestTenantId = g!.id;
    }
    const { kept: keptList, ...b } = await addBooking(tx, ctx.tenantId, { eventId, role: f.role, contact: { email: f.email, ...(f.name ? { name: f.name } : {}), ...(f.timeZone ? { timeZone: f.timeZone } : {}), ...(f.locale ? { locale: f.locale } : {}), ...(f.phone ? { phone: f.phone } : {}) }, guestTenantId }, ctx.now);
    // A known person keeps their details (domain/scheduling/contact-kept.ts): say which typed ones were not applied.
    const kept = describeKept(keptList);
    const previous = await previousCancelledBooking(tx, ctx.tenantId, b);
    const sender = await senderOfNewBooking(tx, b, f.email);
    await appendAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: 'booking_add',
      at: ctx.now,
      details: { eventId, bookingId: b.id, email: f.email, role: f.role, ...(previous ? { rebook: true, previousBookingId: previous.id } : {}), ...(sender ? { sendsAs: sender.text } : {}), ...(kept ? { kept } : {}) },
    });
    return { ...b, ...(sender ? { sendsAs: sender.text } : {}), ...(kept ? { kept } : {}) };
  });
}

/**
 * Cancels one booking and its waiting reminders. `input.version`: the booking's row version the page showed.
 * `db` may be an open transaction (a bulk cancel runs one per selected booking inside its own, server/people/bulk-participants.ts).
 * @throws AppError validation (`reason`, `version`), not_found, conflict (stale version, nothing written).
 */
export async function cancelBookingAction(db: DbOrTx, ctx: ActionContext, bookingId: string, input: { reason?: unknown; version?: unknown }): Promise<Booking> {
  assertId(bookingId, 'bookingId', 'booking');
  const seen = parseVersion(input);
  const { reason } = parseInput(reasonSchema, input);
  return db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    await setActor(tx, ctx.actor);
    const [before] = await tx.select().from(bookings).where(and(eq(bookings.tenantId, ctx.tenantId), eq(bookings.id, bookingId))).for('update');
    if (!before) throw new AppError('not_found', `booking ${bookingId} not found`, 'bookingId');
    if (before.version !== seen) {
      const [e] = await tx.select({ timeZone: events.timeZone }).from(events).where(eq(events.id, before.eventId));
      await assertVersion(tx, ctx, before, seen, {
        what: 'This booking',
        zone: e?.timeZone,
        current: { id: before.id, version: before.version, status: before.status, statusReason: before.statusReason, role: before.role },
      });
    }
    if (before.status === 'cancelled') return before; // already cancelled: the first reason stays, nothing to audit
    const impact = await reminderImpact(tx, ctx.tenantId, { bookingId });
    const b = await cancelBooking(tx, ctx.tenantId, bookingId, reason, ctx.now);
    const [c] = await tx.select({ email: contacts.email }).from(contacts).where(eq(contacts.id, b.contactId));
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'booking_cancel', reason, at: ctx.now, details: { eventId: b.eventId, bookingId, email: c?.email, remindersCancelled: impact.pending } });
    return b;
  });
}

const suppressionFormSchema = z.object({
  /** An email address, or a mobile number (stored in E.164, as SMS deliveries address it). */
  // Bounded before anything else looks at it (issue #12: a 1 MB address reached the unique index and was a 500).
  address: z.string().trim().max(FIELD_LIMITS.address, `at most ${FIELD_LIMITS.address} characters (an email address or a phone number)`).transform((v, ctx) => {
    if (z.email().safeParse(v).success) return v;
    if (/^[+\d][\d\s().-]{5,}$/.test(v)) {
      const r = parsePhone(v);
      if (r.ok) return r.e164;
      ctx.addIssue({ code: 'custom', message: r.message });
      return z.NEVER;
    }
    ctx.addIssue({ code: 'custom', message: 'must be an email address or a mobile number such as +31612345678' });
    return z.NEVER;
  }),
  reason: z.enum(suppressionReasons),
  note: z.string().trim().max(500).check(refuseBidiControls).default(''),
});

/**
 * Adds an address to the tenant's suppression list. `db` may be an open transaction (server/platform/idempotency.ts).
 * @throws AppError conflict when it is already there.
 */
export async function addSuppressionAction(db: DbOrTx, ctx: ActionContext, input: z.input<typeof suppressionFormSchema>): Promise<{ id: string }> {
  const f = parseInput(suppressionFormSchema, input);
  return db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    const source = `added by ${ctx.actor}${f.note ? `: ${f.note}` : ''}`;
    const channel = suppressionChannelOf(f.address);
    // One LIVE entry per (tenant, channel, address): a removed entry is history, so the address can be listed again.
    const [row] = await tx
      .insert(suppressions)
      .values({ tenantId: ctx.tenantId, address: f.address, reason: f.reason, source, channel, createdAt: ctx.now })
      .onConflictDoNothing()
      .returning({ id: suppressions.id });
    if (!row) throw new AppError('conflict', `address: ${f.address} is already on the suppression list`, 'address');
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'suppression_add', reason: f.note || null, at: ctx.now, details: { address: f.address, channel, suppressionReason: f.reason } });
    return row;
  });
}

/**
 * Removes an address from the suppression list — a soft delete (issue #10 §3): the entry stays as history with
 * `removed_at`/`removed_by`/`removed_reason` and stops nothing from then on; the reason is also in the audit log.
 * Adding the address again later makes a new entry. `input.version`: the entry's row version the list showed.
 * Checked under the row lock, in this order: a version higher than the entry has (one the server never issued)
 * → 400 naming `version`; an entry already removed (e.g. from another tab a moment earlier: the second request
 * waits for the first's lock, then reads the removed row) → 409 "The suppression of X was already removed by
 * NAME at TIME: “reason”." with `current` (the entry and its `removed` record); any other version mismatch →
 * the usual stale-save 409 (server/platform/versions.ts).
 * @throws AppError validation (`reason`, `version`), not_found (no such entry in this tenant), conflict (already
 *   removed, or stale version).
 */
export async function removeSuppressionAction(db: Db, ctx: ActionContext, id: string, input: { reason?: unknown; version?: unknown }): Promise<void> {
  assertId(id, 'id', 'suppression');
  const seen = parseVersion(input);
  const { reason } = parseInput(reasonSchema, input);
  await db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    await setActor(tx, ctx.actor);
    const [locked] = await tx
      .select()
      .from(suppressions)
      .where(and(eq(suppressions.tenantId, ctx.tenantId), eq(suppressions.id, id)))
      .for('update');
    if (!locked) throw new AppError('not_found', `suppression ${id} not found`, 'id');
    assertVersionIssued(locked, seen);
    const current = {
      id: locked.id,
      version: locked.version,
      address: locked.address,
      reason: locked.reason,
      source: locked.source,
      removed: locked.removedAt ? { at: locked.removedAt.toISOString(), by: locked.removedBy, reason: locked.removedReason } : null,
    };
    if (locked.removedAt) {
      const by = await actorDisplayName(tx, ctx.tenantId, locked.removedBy ?? 'system');
      const zone = (await tx.select({ timeZone: tenants.timeZone }).from(tenants).where(eq(tenants.id, ctx.tenantId)))[0]?.timeZone ?? 'UTC';
      throw new AppError(
        'conflict',
        alreadyRemovedMessage({ what: `The suppression of ${locked.address}`, by, at: locked.removedAt, zone, reason: locked.removedReason }),
        'version',
        { current, version: locked.version, changedBy: by, changedAt: locked.removedAt.toISOString() },
      );
    }
    await assertVersion(tx, ctx, locked, seen, { what: `The suppression of ${locked.address}`, current });
    const [row] = await tx
      .update(suppressions)
      .set({ removedAt: ctx.now, removedBy: ctx.actor, removedReason: reason })
      .where(and(eq(suppressions.id, id), isNull(suppressions.removedAt)))
      .returning();
    await appendAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: 'suppression_remove',
      reason,
      at: ctx.now,
      details: { suppressionId: row.id, address: row.address, channel: row.channel, suppressionReason: row.reason, source: row.source, since: row.createdAt },
    });
  });
}

/** The rule as its edit form shows it, with its row version: the `current` record of a stale rule save. */
export function ruleFormView(r: typeof reminderRules.$inferSelect) {
  return {
    id: r.id,
    version: r.version,
    name: r.name,
    anchor: r.anchor,
    offset: r.offset,
    audience: r.audience,
    channel: r.channel,
    template: r.template,
    lateSendWindowSeconds: r.lateSendWindowSeconds,
    active: r.active,
  };
}
