/**
 * Editing a participant (issue #12) against real PostgreSQL, the real queue and the SMTP catcher: a new zone
 * re-plans their waiting reminders to the instants their quiet hours give there (a DST week in which New York
 * and Amsterdam are 5 hours apart, not 6), in the edit's transaction, audited; reminders already sent or handed
 * to a send are neither touched nor sent twice; a stale version is a 409 that writes nothing; bad input is a
 * 400 naming the field with nothing written; the contact is the person, shared by all their bookings.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, contacts, deliveries, reminders, reminderRules, tenants } from '@/db/schema';
import { dispatchDue } from '@/server/sending/dispatch';
import { AppError } from '@/server/platform/errors';
import { editParticipant, readParticipant } from '@/server/scheduling/participants';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { addBookingAction } from '@/server/scheduling/staff-actions';
import { createTenant } from '@/server/organisations/tenants';
import { createHarness, type Harness } from '@/test/support/harness';
import { tenantWithRules } from '@/test/support/fixtures';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());
beforeEach(async () => h.tdb.reset());
const db = () => h.tdb.db;

const BOOKED = new Date('2027-03-01T09:00:00Z');

/**
 * Amsterdam tenant; "day before" (-P1D, 2 h window) and "2 hours before" (-PT2H, 3 h window) for attendees; an
 * event on Sat 20 Mar 2027 at 14:00 CET (13:00Z); Pat booked, zone Europe/Amsterdam, quiet hours 22:00–08:00.
 * Planned: day before at Fri 19 Mar 13:00Z (14:00 CET), two hours before at 11:00Z (12:00 CET) — neither quiet.
 */
async function scenario(opts: { email?: string } = {}) {
  const { tenant, rules } = await tenantWithRules(db(), [
    { offset: '-P1D', window: 2 * 3600, name: 'day before' },
    { offset: '-PT2H', window: 3 * 3600, name: 'two hours before' },
  ]);
  const event = await createEvent(db(), tenant.id, { title: 'Spring workshop', startsAt: '2027-03-20T13:00:00Z', endsAt: '2027-03-20T14:00:00Z', timeZone: 'Europe/Amsterdam' });
  const email = opts.email ?? 'pat@example.test';
  const booking = await addBooking(db(), tenant.id, { eventId: event.id, role: 'attendee', contact: { email, name: 'Pat Doe', timeZone: 'Europe/Amsterdam' } }, BOOKED);
  await db().update(contacts).set({ quietHours: { start: '22:00', end: '08:00' } }).where(eq(contacts.id, booking.contactId));
  const ruleId = (name: string) => rules.find((r) => r.name === name)!.id;
  const reminderOf = async (name: string) => (await db().select().from(reminders).where(and(eq(reminders.bookingId, booking.id), eq(reminders.ruleId, ruleId(name)))))[0]!;
  const version = async () => (await db().select({ v: contacts.version }).from(contacts).where(eq(contacts.id, booking.contactId)))[0]!.v;
  const ctx = (now: string) => ({ tenantId: tenant.id, actor: 'staff@example.test', now: new Date(now) });
  return { tenant, event, booking, reminderOf, version, ctx };
}

describe('editing a participant', () => {
  it('a new zone re-plans their waiting reminder to its quiet-hours instant there (DST week: 08:00 EDT = 12:00Z); the one already sent is untouched and nothing goes twice', async () => {
    const s = await scenario();
    const dayBefore0 = await s.reminderOf('day before');
    const twoHours0 = await s.reminderOf('two hours before');
    expect([dayBefore0.dueAt.toISOString(), twoHours0.dueAt.toISOString()]).toEqual(['2027-03-19T13:00:00.000Z', '2027-03-20T11:00:00.000Z']);

    // The day-before reminder goes out.
    await h.tick('2027-03-19T13:00:00Z');
    expect(await h.caught()).toHaveLength(1);
    const sent = await s.reminderOf('day before');
    expect(sent.status).toBe('done');

    // Pat moves to New York. 11:00Z on Sat 20 Mar is 07:00 there (summer time since 14 Mar; Amsterdam only from
    // 28 Mar): inside 22:00–08:00, so the reminder waits until 08:00 EDT = 12:00Z (a fixed UTC−5 would say 13:00Z,
    // the event's start — too late to be held).
    const r = await editParticipant(db(), s.ctx('2027-03-19T15:00:00Z'), s.booking.id, { timeZone: 'America/New_York', version: await s.version() });
    expect(r.changed).toBe(true);
    expect(r.changes).toEqual({ timeZone: { from: 'Europe/Amsterdam', to: 'America/New_York' } });
    expect([r.remindersRetimed, r.remindersPlanned, r.remindersHandedOver]).toEqual([1, 0, 1]);
    expect(r.participant).toMatchObject({ timeZone: 'America/New_York', version: (await s.version()) });

    const twoHours = await s.reminderOf('two hours before');
    expect(twoHours).toMatchObject({ id: twoHours0.id, status: 'scheduled', scheduleVersion: twoHours0.scheduleVersion });
    expect(twoHours.dueAt.toISOString()).toBe('2027-03-20T12:00:00.000Z');
    expect(twoHours.deferredFrom?.toISOString()).toBe('2027-03-20T11:00:00.000Z');
    expect(twoHours.expiresAt.toISOString()).toBe('2027-03-20T13:00:00.000Z');
    expect(twoHours.statusReason).toBe('re-planned for their time zone: Europe/Amsterdam → America/New_York (quiet hours are read in it)');
    // The sent one: the same row, state and instants as before the edit.
    expect(await s.reminderOf('day before')).toEqual(sent);

    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, s.tenant.id), eq(auditLog.action, 'participant_update')));
    expect(audit.actor).toBe('staff@example.test');
    expect(audit.details).toMatchObject({
      eventId: s.event.id,
      bookingId: s.booking.id,
      contactId: s.booking.contactId,
      from: { timeZone: 'Europe/Amsterdam' },
      to: { timeZone: 'America/New_York' },
      remindersRetimed: 1,
      retimed: [{ reminderId: twoHours0.id, from: '2027-03-20T11:00:00.000Z', to: '2027-03-20T12:00:00.000Z' }],
    });

    // At 11:00Z nothing goes (their 07:00); at 12:00Z the reminder goes, once.
    await h.tick('2027-03-20T11:00:00Z');
    expect(await h.caught()).toHaveLength(1);
    await h.tick('2027-03-20T12:00:00Z');
    expect(await h.caught()).toHaveLength(2);
    await h.tick('2027-03-20T12:05:00Z');
    expect(await h.caught()).toHaveLength(2);
    const ds = await db().select().from(deliveries).where(eq(deliveries.tenantId, s.tenant.id));
    expect(ds.map((d) => d.status).sort()).toEqual(['accepted', 'accepted']);
  });

  it('a reminder already handed to its send when the zone changes is left to that send: it re-reads the person, waits for their quiet hours, and goes once', async () => {
    const s = await scenario();
    await h.tick('2027-03-19T13:00:00Z'); // the day-before reminder
    h.clock.set('2027-03-20T11:00:00Z');
    await dispatchDue(db(), h.clock.now()); // dispatched: its send job waits in the queue
    expect((await s.reminderOf('two hours before')).status).toBe('dispatched');

    const r = await editParticipant(db(), s.ctx('2027-03-20T11:00:00Z'), s.booking.id, { timeZone: 'America/New_York', version: await s.version() });
    expect([r.remindersRetimed, r.remindersHandedOver]).toEqual([0, 2]);
    expect((await s.reminderOf('two hours before')).dueAt.toISOString()).toBe('2027-03-20T11:00:00.000Z');

    await h.drain(); // the send: 07:00 in New York → held until 08:00 EDT
    const held = await s.reminderOf('two hours before');
    expect([held.status, held.dueAt.toISOString(), held.deferredFrom?.toISOString()]).toEqual(['scheduled', '2027-03-20T12:00:00.000Z', '2027-03-20T11:00:00.000Z']);
    expect(await h.caught()).toHaveLength(1);
    await h.tick('2027-03-20T12:00:00Z');
    await h.tick('2027-03-20T12:01:00Z');
    expect(await h.caught()).toHaveLength(2);
    expect((await s.reminderOf('two hours before')).status).toBe('done');
  });

  it('a stale version is a 409 naming version with the current details; nothing of the second edit is written', async () => {
    const s = await scenario();
    const v = await s.version();
    const twoHours0 = await s.reminderOf('two hours before');
    await editParticipant(db(), { ...s.ctx('2027-03-10T09:00:00Z'), actor: 'ada@example.test' }, s.booking.id, { name: 'Pat Doe-Smith', version: v });
    const err = await editParticipant(db(), s.ctx('2027-03-10T09:01:00Z'), s.booking.id, { name: 'Patricia Doe', timeZone: 'America/New_York', version: v }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect([e.code, e.httpStatus, e.field]).toEqual(['conflict', 409, 'version']);
    expect(e.message).toMatch(/^This participant \(Pat Doe-Smith\) was changed by ada@example\.test at Wed 10 Mar 2027, 10:00 CET since you opened it\.$/);
    expect(e.details?.current).toMatchObject({ name: 'Pat Doe-Smith', timeZone: 'Europe/Amsterdam', version: v + 1 });
    const [c] = await db().select().from(contacts).where(eq(contacts.id, s.booking.contactId));
    expect([c.name, c.timeZone, c.version]).toEqual(['Pat Doe-Smith', 'Europe/Amsterdam', v + 1]);
    expect(await s.reminderOf('two hours before')).toEqual(twoHours0);
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'participant_update'))).toHaveLength(1);
  });

  it.each([
    ['email', { email: 'not-an-address' }, /^email: must be an email address/],
    ['timeZone', { timeZone: 'Europe/Amsterdm' }, /^timeZone: must be an IANA time zone such as Europe\/Amsterdam/],
    ['locale', { locale: 'de_DE!' }, /^locale: must be a language tag such as en, de or pt-BR/],
    ['phone', { phone: '12' }, /^phone: /],
    ['name', { name: 'two\nlines' }, /^name: must not contain line breaks/],
    ['preferences', { preferences: {} }, /^preferences: cannot be changed here \(only name, email, phone, timeZone, locale\)/],
    ['version', { name: 'X', version: 99 }, /^version: 99 was never issued for this record/],
  ])('bad %s: 400 naming it, nothing changed', async (field, body, message) => {
    const s = await scenario();
    const v = await s.version();
    const [before] = await db().select().from(contacts).where(eq(contacts.id, s.booking.contactId));
    const err = await editParticipant(db(), s.ctx('2027-03-10T09:00:00Z'), s.booking.id, { version: v, ...body } as never).then(
      () => null,
      (x: unknown) => x,
    );
    expect(err).toMatchObject({ code: 'validation', httpStatus: 400, field });
    expect((err as Error).message).toMatch(message);
    expect((await db().select().from(contacts).where(eq(contacts.id, s.booking.contactId)))[0]).toEqual(before);
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'participant_update'))).toHaveLength(0);
  });

  it('an address another contact has is a 409 naming email (that is another person); a change of letter case is not', async () => {
    const s = await scenario();
    await addBooking(db(), s.tenant.id, { eventId: s.event.id, role: 'attendee', contact: { email: 'kim@example.test', name: 'Kim' } }, BOOKED);
    const err = await editParticipant(db(), s.ctx('2027-03-10T09:00:00Z'), s.booking.id, { email: 'KIM@example.test', version: await s.version() }).then(
      () => null,
      (x: unknown) => x,
    );
    expect(err).toMatchObject({ code: 'conflict', field: 'email', message: expect.stringMatching(/^email: Kim \(kim@example\.test\) is another person in your contacts/) });
    const r = await editParticipant(db(), s.ctx('2027-03-10T09:00:00Z'), s.booking.id, { email: 'Pat@Example.test', version: await s.version() });
    expect(r.participant.email).toBe('Pat@Example.test');
  });

  it('the contact is the person: an edit from one booking changes them on every event, re-planning each; a number makes SMS reminders possible', async () => {
    const s = await scenario();
    const other = await createEvent(db(), s.tenant.id, { title: 'Summer workshop', startsAt: '2027-03-27T13:00:00Z', endsAt: '2027-03-27T14:00:00Z', timeZone: 'Europe/Amsterdam' });
    const second = await addBooking(db(), s.tenant.id, { eventId: other.id, role: 'attendee', contact: { email: 'pat@example.test', name: 'Pat Doe' } }, BOOKED);
    expect(second.contactId).toBe(s.booking.contactId);
    await db().update(contacts).set({ preferences: { reminders: ['email', 'sms'], booking_updates: ['email'] } }).where(eq(contacts.id, s.booking.contactId));

    const view = await readParticipant(db(), s.tenant.id, s.booking.id);
    expect(view).toMatchObject({ name: 'Pat Doe', email: 'pat@example.test', phone: null, timeZone: 'Europe/Amsterdam', locale: 'en', eventTimeZone: 'Europe/Amsterdam', pendingReminders: 2 });
    expect(view.otherBookings).toEqual({ total: 1, items: [{ eventId: other.id, title: 'Summer workshop', startsAt: '2027-03-27T13:00:00.000Z', timeZone: 'Europe/Amsterdam' }] });

    const r = await editParticipant(db(), s.ctx('2027-03-10T09:00:00Z'), s.booking.id, { phone: '+31 6 12345678', timeZone: 'America/New_York', version: view.version });
    // Both events: 2 SMS reminders each; the 20 Mar email moves to 12:00Z; on 27 Mar (13:00Z start, 11:00Z = 07:00 EDT) too.
    expect(r.remindersPlanned).toBe(4);
    expect(r.replans.map((x) => x.eventId).sort()).toEqual([s.event.id, other.id].sort());
    const sms = await db().select().from(reminders).where(and(eq(reminders.channel, 'sms'), eq(reminders.tenantId, s.tenant.id)));
    expect(sms.map((x) => x.dueAt.toISOString()).sort()).toEqual(['2027-03-19T13:00:00.000Z', '2027-03-20T12:00:00.000Z', '2027-03-26T13:00:00.000Z', '2027-03-27T12:00:00.000Z']);
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, 'participant_update'));
    expect(audit.details).toMatchObject({ otherBookings: 1, remindersPlanned: 4, remindersRetimed: 2, to: { phone: '+31612345678', timeZone: 'America/New_York' } });
    // A rule's wake-up follows the earliest waiting reminder of the event (here the SMS day-before one).
    const rule = (await db().select().from(reminderRules).where(eq(reminderRules.tenantId, s.tenant.id))).find((x) => x.offset === '-P1D')!;
    const jobs = await h.tdb.sql<{ run_at: string }[]>`select run_at::text as run_at from graphile_worker.jobs where key = ${`wake:${s.event.id}:${rule.id}`}`;
    expect(jobs.map((j) => new Date(j.run_at).toISOString())).toEqual(['2027-03-19T13:00:00.000Z']);
  });

  it('nothing changed: nothing written, no audit; another tenant’s booking is 404; a guest kept by their own organisation is 403', async () => {
    const s = await scenario();
    const v = await s.version();
    const r = await editParticipant(db(), s.ctx('2027-03-10T09:00:00Z'), s.booking.id, { name: 'Pat Doe', timeZone: 'Europe/Amsterdam', version: v });
    expect([r.changed, r.participant.version]).toEqual([false, v]);
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'participant_update'))).toHaveLength(0);

    const t2 = await createTenant(db(), { slug: `other-${Date.now().toString(36)}`, name: 'Other', timeZone: 'UTC' });
    await expect(editParticipant(db(), { ...s.ctx('2027-03-10T09:00:00Z'), tenantId: t2.id }, s.booking.id, { name: 'X', version: v })).rejects.toMatchObject({ code: 'not_found' });
    await expect(readParticipant(db(), t2.id, s.booking.id)).rejects.toMatchObject({ code: 'not_found' });

    // A contact held by another tenant (a guest's own organisation) through this tenant's booking.
    await db().update(contacts).set({ tenantId: t2.id }).where(eq(contacts.id, s.booking.contactId));
    await expect(editParticipant(db(), s.ctx('2027-03-10T09:00:00Z'), s.booking.id, { name: 'X', version: v })).rejects.toMatchObject({ code: 'forbidden', httpStatus: 403 });
    expect((await db().select({ id: tenants.id }).from(tenants)).length).toBeGreaterThan(1);
  });
});

describe('booking a person who is already a contact (review of issue #12: no lost update of a participant edit)', () => {
  it('keeps their stored name, zone, number and language — no version bump, their other reminders unmoved — and says what was kept', async () => {
    const s = await scenario();
    const seen = await s.version(); // a staff member opens Pat's edit dialog now
    const before = await db().select().from(contacts).where(eq(contacts.id, s.booking.contactId));
    const dayBefore0 = await s.reminderOf('day before');
    const later = await createEvent(db(), s.tenant.id, { title: 'Summer workshop', startsAt: '2027-06-12T12:00:00Z', endsAt: '2027-06-12T13:00:00Z', timeZone: 'Europe/Amsterdam' });
    const third = await createEvent(db(), s.tenant.id, { title: 'Autumn workshop', startsAt: '2027-09-11T12:00:00Z', endsAt: '2027-09-11T13:00:00Z', timeZone: 'Europe/Amsterdam' });

    // Another staff member books Pat (the address in other case) with other details through the form/API.
    const b2 = await addBookingAction(db(), { tenantId: s.tenant.id, actor: 'sam@example.test', now: BOOKED }, later.id, {
      name: 'Patricia Doe',
      email: 'PAT@example.test',
      role: 'attendee',
      timeZone: 'Asia/Tokyo',
      phone: '+31612345678',
      locale: 'fr',
    });
    expect(b2.contactId).toBe(s.booking.contactId);
    expect(b2.kept).toBe('kept: existing name Pat Doe, existing zone Europe/Amsterdam, existing mobile number (none), existing language en — edit the participant to change them');
    // Booking the known address without a name (the API's name is optional) does not wipe the name either.
    const b3 = await addBooking(db(), s.tenant.id, { eventId: third.id, role: 'attendee', contact: { email: 'pat@example.test' } }, BOOKED);
    expect(b3.kept).toEqual([]);

    const after = await db().select().from(contacts).where(eq(contacts.id, s.booking.contactId));
    expect(after).toEqual(before);
    expect((await s.reminderOf('day before')).dueAt).toEqual(dayBefore0.dueAt);
    const audit = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, s.tenant.id), eq(auditLog.action, 'booking_add')));
    expect(audit[0]!.details).toMatchObject({ kept: b2.kept });

    // The dialog opened before the bookings saves without a 409: nothing it saw was overwritten.
    const r = await editParticipant(db(), s.ctx('2027-03-02T09:00:00Z'), s.booking.id, { timeZone: 'America/New_York', version: seen });
    expect(r.changes).toEqual({ timeZone: { from: 'Europe/Amsterdam', to: 'America/New_York' } });
  });
});

describe('a booking committed while an edit takes its locks (review of issue #12)', () => {
  it('is re-planned too: the edit sees the person’s events grew under the contact lock and runs again with them', async () => {
    const s = await scenario();
    // 11:00Z on Fri 9 Apr is 13:00 in Amsterdam (not quiet) but 07:00 in New York (quiet until 08:00 EDT = 12:00Z,
    // before the day-before reminder's expiry at 13:00Z): a zone change moves it.
    const second = await createEvent(db(), s.tenant.id, { title: 'April workshop', startsAt: '2027-04-10T11:00:00Z', endsAt: '2027-04-10T12:00:00Z', timeZone: 'Europe/Amsterdam' });
    const v = await s.version();

    // Another connection holds Pat's first event, so the edit stops right after reading Pat's live events.
    let release!: () => void;
    const held = new Promise<void>((res) => (release = res));
    let holding!: () => void;
    const holds = new Promise<void>((res) => (holding = res));
    const blocker = db().transaction(async (tx) => {
      await tx.execute(sql`select id from events where id = ${s.event.id} for update`);
      holding();
      await held;
    });
    await holds;
    const edit = editParticipant(db(), s.ctx('2027-03-02T09:00:00Z'), s.booking.id, { timeZone: 'America/New_York', version: v });
    for (let i = 0; ; i++) {
      const [{ n }] = await h.tdb.sql<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
      if (n > 0) break;
      if (i > 200) throw new Error('the edit never waited for the event lock');
      await new Promise((res) => setTimeout(res, 10));
    }
    // Pat is booked onto the second event now, committed before the edit locks the contact.
    const b2 = await addBooking(db(), s.tenant.id, { eventId: second.id, role: 'attendee', contact: { email: 'pat@example.test' } }, BOOKED);
    const dayBeforeOf = async (bookingId: string) =>
      (await db().select().from(reminders).innerJoin(reminderRules, eq(reminderRules.id, reminders.ruleId)).where(and(eq(reminders.bookingId, bookingId), eq(reminderRules.name, 'day before'))))[0]!.reminders;
    expect((await dayBeforeOf(b2.id)).dueAt.toISOString()).toBe('2027-04-09T11:00:00.000Z');
    release();
    await blocker;
    const r = await edit;

    expect(r.changes).toEqual({ timeZone: { from: 'Europe/Amsterdam', to: 'America/New_York' } });
    expect(r.replans.map((x) => x.bookingId)).toContain(b2.id);
    expect((await dayBeforeOf(b2.id)).dueAt.toISOString()).toBe('2027-04-09T12:00:00.000Z');
    // One edit, one audit entry (the rolled-back try left nothing).
    expect(await db().select().from(auditLog).where(and(eq(auditLog.tenantId, s.tenant.id), eq(auditLog.action, 'participant_update')))).toHaveLength(1);
  });
});
