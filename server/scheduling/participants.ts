/**
 * Editing a participant (issue #12): name, email address, mobile number, time zone and language, from their
 * card on an event page.
 *
 * What an edit changes — the person, not only this booking. A booking points at a contact (db/schema/scheduling.ts
 * `contacts`: one row per tenant and address, unique on lower(email)), and every one of these details lives on
 * the contact, which ALL of the person's bookings share (adding a participant with a known address books that same
 * contact and never changes it — server/scheduling/bookings.ts `addBooking`, domain/scheduling/contact-kept.ts: this edit is the one
 * way to change a person), and preferences are the person's too
 * (server/notifications/contact-preferences.ts). An edit therefore changes the contact, and so the person on every event
 * they are booked on; the dialog says so, with the other events listed, before anything is saved. (Changing
 * only this booking would need a second contact with the same address, which the unique index forbids, and
 * would leave the person with two zones at once.) A new address another contact of the tenant already has is
 * refused (409 naming `email`): that is another person — book them instead. A guest whose contact is kept by
 * their own organisation (another tenant) is not edited here (403): invariant 9.
 *
 * In ONE transaction (invariant 1), under the locks a send takes before re-reading the person:
 *  1. the person's live events FOR UPDATE in id order, then the contact FOR UPDATE (the order adding a booking and
 *     a preferences save use, so none of them deadlock); a send holds its event FOR SHARE while it re-reads the
 *     person, so it either went first or sees the new details. The live events are read again under the contact
 *     lock: a booking that committed in between (on an event not locked) rolls the try back and the edit runs
 *     again with it (at most 3 tries);
 *  2. the version the editor saw is compared (invariant 11): a stale save is a 409 with the current details and
 *     writes nothing;
 *  3. the contact is written; when the zone or the mobile number changed, each of the person's live bookings is
 *     re-planned (server/scheduling/planning.ts `replanParticipantBooking`, domain/scheduling/participant-replan.ts): waiting
 *     reminders move to the instants their quiet hours give in the new zone, a number makes SMS reminders
 *     possible; a reminder already handed to a send (dispatched, claimed, sending, sent) is left exactly as it is —
 *     it goes out once, under its message key, and a delivery already claimed keeps the address it was claimed
 *     for. Name, address and language need no re-plan: every send reads them when it renders;
 *  4. one audit entry `participant_update` with the changed fields (from → to) and the re-planned reminders.
 */
import { z } from 'zod';
import type { Db, DbOrTx } from '@/db/client';
import { setActor } from '@/db/queries/platform/actor';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { liveEventIdsOfContact, lockContact, lockEventsInOrder } from '@/db/queries/notifications/contact-preferences';
import { bookingWithContact, liveBookingsOfContact, otherBookingsOfContact, otherContactWithEmail, updateContactDetails } from '@/db/queries/scheduling/participants';
import { getTenant, lockEvent, reminderImpact } from '@/db/queries/scheduling/scheduling';
import type { Contact } from '@/db/schema';
import { canonicalLocale } from '@/domain/locales';
import { refuseBidiControls } from '@/domain/text';
import { AppError, assertId, parseInput } from '@/server/platform/errors';
import { phoneField, zone as zoneField } from './inputs';
import { replanParticipantBooking, type ParticipantReplanResult } from './planning';
import { assertActorMay, assertVersion, assertVersionIssued, parseVersion } from '@/server/platform/versions';

/** How many of the person's other bookings the dialog lists by name (the rest are counted). */
const OTHER_BOOKINGS_LISTED = 5;

/** A participant as the edit dialog shows it (plain JSON; instants ISO-8601 UTC). */
export interface ParticipantView {
  bookingId: string;
  eventId: string;
  contactId: string;
  name: string;
  email: string;
  /** E.164, or null when none is on file. */
  phone: string | null;
  /** The person's IANA zone, or null when none is on file. */
  timeZone: string | null;
  /** BCP 47 tag their messages' dates and times follow. */
  locale: string;
  /** The contact's row version: a save carries it (invariant 11). */
  version: number;
  updatedAt: string;
  /** The zone of the event this booking is on, and the organisation's (used for quiet hours when the person has none). */
  eventTimeZone: string;
  tenantTimeZone: string;
  /** The person's other live bookings in this organisation: the same contact, so an edit changes them too. */
  otherBookings: { total: number; items: { eventId: string; title: string; startsAt: string; timeZone: string }[] };
  /** This booking's rule reminders still waiting to go out. */
  pendingReminders: number;
}

/** The 403 for a guest whose contact their own organisation keeps (invariant 9). */
function notOurs(): AppError {
  return new AppError('forbidden', "This guest's details are kept by their own organisation: ask them to change them there.", 'bookingId');
}

async function view(db: DbOrTx, tenantId: string, bookingId: string, contact: Contact, eventId: string, eventTimeZone: string): Promise<ParticipantView> {
  const tenant = await getTenant(db, tenantId);
  const others = await otherBookingsOfContact(db, tenantId, contact.id, bookingId, OTHER_BOOKINGS_LISTED);
  const impact = await reminderImpact(db, tenantId, { bookingId });
  return {
    bookingId,
    eventId,
    contactId: contact.id,
    name: contact.name,
    email: contact.email,
    phone: contact.phone,
    timeZone: contact.timeZone,
    locale: contact.locale,
    version: contact.version,
    updatedAt: contact.updatedAt.toISOString(),
    eventTimeZone,
    tenantTimeZone: tenant?.timeZone ?? 'UTC',
    otherBookings: { total: others.total, items: others.items.map((o) => ({ eventId: o.eventId, title: o.title, startsAt: o.startsAt.toISOString(), timeZone: o.timeZone })) },
    pendingReminders: impact.pending,
  };
}

/**
 * The participant of booking `bookingId` as the edit dialog shows it.
 * @throws AppError not_found (malformed id, not this tenant's booking) → 404; forbidden (a guest's contact kept
 *   by their own organisation) → 403.
 */
export async function readParticipant(db: Db, tenantId: string, bookingId: string): Promise<ParticipantView> {
  assertId(bookingId, 'bookingId', 'participant');
  const row = await bookingWithContact(db, tenantId, bookingId);
  if (!row) throw new AppError('not_found', `participant ${bookingId} not found`, 'bookingId');
  if (row.contact.tenantId !== tenantId) throw notOurs();
  return view(db, tenantId, bookingId, row.contact, row.event.id, row.event.timeZone);
}

/**
 * The edit's fields. Each may be omitted (kept as it is); `phone` and `timeZone` are cleared by '' or null.
 * Any other key is refused by {@link editParticipant}, naming it (a typo must not look like a save).
 */
const participantEditSchema = z.object({
  // eslint-disable-next-line no-control-regex
  name: z.string({ error: 'must be text' }).trim().max(200, 'at most 200 characters').regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain line breaks or control characters').check(refuseBidiControls).optional(),
  email: z
    .string({ error: 'must be an email address' })
    .trim()
    .pipe(z.email({ message: 'must be an email address such as ana@example.org' }).max(254, 'at most 254 characters (RFC 5321)'))
    .optional(),
  /** Any common notation → E.164 (libphonenumber-js); '' or null removes the number. */
  phone: phoneField.nullish(),
  /** An IANA zone (old spellings accepted, stored as given); '' or null: none on file. */
  timeZone: z
    .string({ error: 'must be an IANA time zone name such as Europe/Amsterdam, or empty for none' })
    .nullish()
    .transform((v) => (typeof v === 'string' && v.trim() === '' ? null : v))
    .pipe(zoneField.nullish()),
  /** A BCP 47 tag, stored canonical (`EN-gb` → `en-GB`). */
  locale: z
    .string({ error: 'must be a language tag such as en, de or pt-BR' })
    .transform((v, ctx) => {
      const tag = canonicalLocale(v);
      if (!tag) {
        ctx.addIssue({ code: 'custom', message: 'must be a language tag such as en, de or pt-BR' });
        return z.NEVER;
      }
      return tag;
    })
    .optional(),
});
export type ParticipantEditInput = z.input<typeof participantEditSchema> & { version?: unknown };

/** What an edit did. */
export interface EditParticipantResult {
  participant: ParticipantView;
  /** False when nothing differed (nothing written, version unchanged). */
  changed: boolean;
  /** Fields changed, from → to. */
  changes: Record<string, { from: string | null; to: string | null }>;
  /** Waiting reminders moved to new instants, over all the person's live bookings. */
  remindersRetimed: number;
  /** Reminders newly planned (a new channel). */
  remindersPlanned: number;
  /** Reminders already handed to a send, left as they were. */
  remindersHandedOver: number;
  /** Per booking re-planned: what moved (instants ISO-8601 UTC). */
  replans: { bookingId: string; eventId: string; retimed: { reminderId: string; channel: string; from: string; to: string; deferredFrom: string | null }[]; inserted: number }[];
}

const FIELDS = ['name', 'email', 'phone', 'timeZone', 'locale'] as const;
type Field = (typeof FIELDS)[number];

/** True when `e` (or its cause, as drizzle wraps driver errors) is PostgreSQL's unique_violation (23505). */
function isUniqueViolation(e: unknown): boolean {
  for (let x: unknown = e, depth = 0; x && typeof x === 'object' && depth < 4; x = (x as { cause?: unknown }).cause, depth++) {
    if ((x as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** The 409 for an address another contact of the tenant has. */
function addressTaken(email: string, other: { name: string; email: string } | null): AppError {
  const who = other?.name ? `${other.name} (${other.email})` : (other?.email ?? email);
  return new AppError('conflict', `email: ${who} is another person in your contacts with this address — book them instead, or change their address first`, 'email');
}

/**
 * Saves a participant's details (module rules). Input: `{ name?, email?, phone?, timeZone?, locale?, version }`
 * — `version` the contact's row version the dialog loaded (or `If-Match`).
 * @param ctx `now` is the database clock's instant (invariant 10): the planner's "now"; `actorId` re-checks the
 *   actor's role under a lock.
 * @throws AppError validation naming the field (`email`, `phone`, `timeZone`, `locale`, `name`, `version`, an
 *   unknown key) → 400, nothing written; not_found → 404; forbidden (a guest's contact kept by their own
 *   organisation, or the actor lost the right meanwhile) → 403; conflict → 409: a stale `version` ("This
 *   participant (NAME) was changed by WHO at WHEN since you opened it.", with `current`), or an `email` another
 *   contact has.
 */
export async function editParticipant(
  db: Db,
  ctx: { tenantId: string; actor: string; actorId?: string; now: Date },
  bookingId: string,
  input: ParticipantEditInput,
): Promise<EditParticipantResult> {
  assertId(bookingId, 'bookingId', 'participant');
  const seen = parseVersion(input);
  const { version: _v, ...rest } = (input ?? {}) as Record<string, unknown>;
  const unknownKeys = Object.keys(rest).filter((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknownKeys.length > 0) {
    throw new AppError('validation', `${unknownKeys.join(', ')}: cannot be changed here (only ${FIELDS.join(', ')})`, unknownKeys[0]);
  }
  const f = parseInput(participantEditSchema, rest);
  // The person's live events are read before any lock (the events must be locked before the contact). A booking
  // committed between that read and the contact lock would be left out of the re-plan (review of issue #12): the
  // set is read again under the contact lock, and when it grew the transaction is rolled back and run again with
  // the new set — the lock order events → contact is kept. Bounded: a person booked onto yet another event at each
  // of three tries is a 409 to try again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await editOnce(db, ctx, bookingId, seen, f);
    } catch (e) {
      if (!(e instanceof LiveEventsGrew)) throw e;
      if (attempt === MAX_EDIT_TRIES) {
        throw new AppError('conflict', 'This participant was booked onto other events while you saved, three times over: nothing was saved — save again.', 'version');
      }
    }
  }
}

/** Tries of {@link editParticipant} when the person's live events change under it. */
const MAX_EDIT_TRIES = 3;

/** Thrown inside the edit's transaction (rolling it back) when the person's live events grew after they were locked. */
class LiveEventsGrew extends Error {}

/** One try of {@link editParticipant}, in one transaction (module doc). */
async function editOnce(
  db: Db,
  ctx: { tenantId: string; actor: string; actorId?: string; now: Date },
  bookingId: string,
  seen: number,
  f: z.output<typeof participantEditSchema>,
): Promise<EditParticipantResult> {
  return db.transaction(async (tx) => {
    if (ctx.actorId) await assertActorMay(tx, { tenantId: ctx.tenantId, actorId: ctx.actorId }, 'operate');
    await setActor(tx, ctx.actor);
    const row = await bookingWithContact(tx, ctx.tenantId, bookingId);
    if (!row) throw new AppError('not_found', `participant ${bookingId} not found`, 'bookingId');
    if (row.contact.tenantId !== ctx.tenantId) throw notOurs();
    const contactId = row.contact.id;
    const eventIds = await liveEventIdsOfContact(tx, ctx.tenantId, contactId);
    await lockEventsInOrder(tx, ctx.tenantId, eventIds);
    const before = await lockContact(tx, ctx.tenantId, contactId);
    if (!before) throw new AppError('not_found', `participant ${bookingId} not found`, 'bookingId');
    // Under the contact lock no booking of this person can commit any more (a booking locks the contact FOR SHARE,
    // db/queries/scheduling/scheduling.ts findOrCreateContact): one that committed since the read above shows here.
    const locked = new Set(eventIds);
    if ((await liveEventIdsOfContact(tx, ctx.tenantId, contactId)).some((id) => !locked.has(id))) throw new LiveEventsGrew();
    assertVersionIssued(before, seen);
    if (before.version !== seen) {
      await assertVersion(tx, ctx, before, seen, {
        what: `This participant${before.name ? ` (${before.name})` : ''}`,
        zone: row.event.timeZone,
        current: await view(tx, ctx.tenantId, bookingId, before, row.event.id, row.event.timeZone),
      });
    }

    const next: Pick<Contact, Field> = {
      name: f.name ?? before.name,
      email: f.email ?? before.email,
      phone: f.phone === undefined ? before.phone : f.phone,
      timeZone: f.timeZone === undefined ? before.timeZone : f.timeZone,
      locale: f.locale ?? before.locale,
    };
    const changes: EditParticipantResult['changes'] = {};
    for (const k of FIELDS) if (next[k] !== before[k]) changes[k] = { from: before[k], to: next[k] };
    if (Object.keys(changes).length === 0) {
      return { participant: await view(tx, ctx.tenantId, bookingId, before, row.event.id, row.event.timeZone), changed: false, changes, remindersRetimed: 0, remindersPlanned: 0, remindersHandedOver: 0, replans: [] };
    }
    if (next.email.toLowerCase() !== before.email.toLowerCase()) {
      const other = await otherContactWithEmail(tx, ctx.tenantId, next.email, contactId);
      if (other) throw addressTaken(next.email, other);
    }
    let after: Contact;
    try {
      after = await updateContactDetails(tx, ctx.tenantId, contactId, next, ctx.now);
    } catch (e) {
      // Another transaction added a contact with this address after the check above.
      if (isUniqueViolation(e)) throw addressTaken(next.email, null);
      throw e;
    }

    const replans: ParticipantReplanResult[] = [];
    if (changes.timeZone || changes.phone) {
      const reason = changes.timeZone
        ? `re-planned for their time zone: ${changes.timeZone.from ?? 'none on file'} → ${changes.timeZone.to ?? 'none on file'} (quiet hours are read in it)`
        : 're-planned after their mobile number changed';
      for (const b of await liveBookingsOfContact(tx, ctx.tenantId, contactId, eventIds)) {
        const event = await lockEvent(tx, ctx.tenantId, b.eventId); // already locked above: a re-read of the row
        if (!event || event.status !== 'scheduled') continue;
        replans.push(await replanParticipantBooking(tx, ctx.tenantId, event, b, ctx.now, reason));
      }
    }
    const remindersRetimed = replans.reduce((n, r) => n + r.retimed.length, 0);
    const remindersPlanned = replans.reduce((n, r) => n + r.inserted, 0);
    const remindersHandedOver = replans.reduce((n, r) => n + r.handedOver, 0);
    const replanView = replans
      .filter((r) => r.retimed.length > 0 || r.inserted > 0)
      .map((r) => ({
        bookingId: r.bookingId,
        eventId: r.eventId,
        retimed: r.retimed.map((x) => ({ reminderId: x.reminderId, channel: x.channel, from: x.from.dueAt.toISOString(), to: x.to.dueAt.toISOString(), deferredFrom: x.to.deferredFrom?.toISOString() ?? null })),
        inserted: r.inserted,
      }));
    const from = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, v.from]));
    const to = Object.fromEntries(Object.entries(changes).map(([k, v]) => [k, v.to]));
    await appendAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: 'participant_update',
      at: ctx.now,
      details: {
        eventId: row.event.id,
        bookingId,
        contactId,
        email: after.email,
        from,
        to,
        otherBookings: eventIds.filter((id) => id !== row.event.id).length,
        remindersRetimed,
        remindersPlanned,
        ...(remindersRetimed > 0 ? { retimed: replanView.flatMap((r) => r.retimed.map((x) => ({ reminderId: x.reminderId, from: x.from, to: x.to }))).slice(0, 50) } : {}),
      },
    });
    return {
      participant: await view(tx, ctx.tenantId, bookingId, after, row.event.id, row.event.timeZone),
      changed: true,
      changes,
      remindersRetimed,
      remindersPlanned,
      remindersHandedOver,
      replans: replanView,
    };
  });
}
