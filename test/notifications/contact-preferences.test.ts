/**
 * Contact preferences (issue #9 §2, §7) against real PostgreSQL: a contact's channels and quiet hours saved by
 * staff and by the person through their signed link, with the version the editor saw (invariant 11), and their
 * reminders following in the same transaction. Database and shared helpers: ./settings-database.ts.
 */
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bookings, contacts, reminders } from '@/db/schema';
import {
  participantActor,
  participantStaleMessage,
  preferencesInputFromForm,
  readContactPreferences,
  readPreferencesByToken,
  saveContactPreferences,
  savePreferencesByToken,
} from '@/server/notifications/contact-preferences';
import { preferencesSecret, signPreferenceToken } from '@/server/sending/preference-link';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { tenantWithRules } from '@/test/support/fixtures';
import { audit, db, now, rejection, useSettingsDatabase } from './settings-database';

useSettingsDatabase();

let n = 0;
/** A tenant with a 24-hours-before rule; an event on 2027-07-01 10:00 Amsterdam; one attendee. */
async function bookedContact(contact: { phone?: string; timeZone?: string | null } = {}) {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D', name: '24 hours before', window: 6 * 3600 }]);
  const event = await createEvent(db(), tenant.id, { title: 'Pottery', startsAt: '2027-07-01T08:00:00Z', endsAt: '2027-07-01T09:00:00Z', timeZone: 'Europe/Amsterdam' });
  const booking = await addBooking(
    db(),
    tenant.id,
    { eventId: event.id, role: 'attendee', contact: { email: `pat${++n}@example.test`, name: 'Pat Doe', phone: contact.phone, timeZone: contact.timeZone ?? null } },
    now,
  );
  const [c] = await db().select().from(contacts).where(eq(contacts.id, booking.contactId));
  return { tenant, event, booking, contact: c };
}

async function remindersOf(bookingId: string) {
  return db()
    .select({ channel: reminders.channel, status: reminders.status, statusReason: reminders.statusReason, kind: reminders.kind })
    .from(reminders)
    .where(and(eq(reminders.bookingId, bookingId), eq(reminders.kind, 'rule')))
    .orderBy(asc(reminders.channel), asc(reminders.createdAt));
}

const staffEditor = (actor: string) => ({ kind: 'staff' as const, actor });

describe('contact preferences (staff)', () => {
  it('dropping SMS ends nothing at the save (the send path stops it when due), and ticking it again keeps the same reminder', async () => {
    const { tenant, booking, contact } = await bookedContact({ phone: '+31612345678' });
    // Email and SMS for reminders: one reminder per channel.
    let r = await saveContactPreferences(db(), { tenantId: tenant.id, now }, contact.id, {
      preferences: { reminders: ['email', 'sms'], booking_updates: ['email'] },
      quietHours: null,
      version: contact.version,
    }, staffEditor('sam@example.test'));
    expect(r).toMatchObject({ changed: true, remindersCancelled: 0, remindersPlanned: 1 });
    expect(await remindersOf(booking.id)).toEqual([
      { channel: 'email', status: 'scheduled', statusReason: null, kind: 'rule' },
      { channel: 'sms', status: 'scheduled', statusReason: null, kind: 'rule' },
    ]);

    r = await saveContactPreferences(db(), { tenantId: tenant.id, now: new Date(now.getTime() + 60_000) }, contact.id, {
      preferences: { reminders: ['email'], booking_updates: ['email'] },
      quietHours: { start: '21:00', end: '08:00' },
      version: r.preferences.version,
    }, staffEditor('sam@example.test'));
    expect(r).toMatchObject({ changed: true, remindersCancelled: 0, remindersPlanned: 0 });
    expect(await remindersOf(booking.id)).toEqual([
      { channel: 'email', status: 'scheduled', statusReason: null, kind: 'rule' },
      { channel: 'sms', status: 'scheduled', statusReason: null, kind: 'rule' },
    ]);
    expect(r.preferences).toMatchObject({
      quietHours: { start: '21:00', end: '08:00' },
      zone: 'Europe/Amsterdam',
      zoneSource: 'tenant',
      sentences: [
        'Reminders by email.',
        'Booking updates by email.',
        'Announcements by email.',
        'Quiet hours 21:00–08:00 (Europe/Amsterdam) — reminders, booking updates and announcements due then wait until they end, if they can (event cancellations do not wait).',
      ],
    });
    const entries = (await audit(tenant.id)).filter((e) => e.action === 'preferences_update');
    expect(entries).toHaveLength(2);
    expect(entries[1]).toMatchObject({
      actor: 'sam@example.test',
      details: {
        contactId: contact.id,
        changes: { 'preferences.reminders': { from: ['email', 'sms'], to: ['email'] }, quietHours: { from: null, to: { start: '21:00', end: '08:00' } } },
        remindersCancelled: 0,
        remindersPlanned: 0,
      },
    });
    // Ticking SMS again before the reminder is due brings nothing back because nothing was lost: same row, still waiting.
    r = await saveContactPreferences(db(), { tenantId: tenant.id, now: new Date(now.getTime() + 120_000) }, contact.id, {
      preferences: { reminders: ['email', 'sms'], booking_updates: ['email'] },
      quietHours: { start: '21:00', end: '08:00' },
      version: r.preferences.version,
    }, staffEditor('sam@example.test'));
    expect(r).toMatchObject({ remindersCancelled: 0, remindersPlanned: 0 });
    expect((await remindersOf(booking.id)).map((x) => [x.channel, x.status])).toEqual([
      ['email', 'scheduled'],
      ['sms', 'scheduled'],
    ]);
  });

  it('SMS only, with a number given in the same save: an SMS reminder is planned; the email one is stopped when due', async () => {
    const { tenant, booking, contact } = await bookedContact();
    expect(await remindersOf(booking.id)).toEqual([{ channel: 'email', status: 'scheduled', statusReason: null, kind: 'rule' }]);
    const r = await saveContactPreferences(db(), { tenantId: tenant.id, now }, contact.id, {
      preferences: { reminders: ['sms'], booking_updates: ['sms'] },
      quietHours: null,
      phone: '+31 6 12345678',
      version: contact.version,
    }, staffEditor('sam@example.test'));
    expect(r).toMatchObject({ remindersCancelled: 0, remindersPlanned: 1, preferences: { phone: '+31612345678', hasPhone: true } });
    expect(await remindersOf(booking.id)).toEqual([
      { channel: 'email', status: 'scheduled', statusReason: null, kind: 'rule' },
      { channel: 'sms', status: 'scheduled', statusReason: null, kind: 'rule' },
    ]);
  });

  it('a reminder already sent stays done; a cancelled booking is not re-planned', async () => {
    const { tenant, event, booking, contact } = await bookedContact({ phone: '+31612345678' });
    await db().update(reminders).set({ status: 'done' }).where(eq(reminders.bookingId, booking.id));
    // A second, cancelled booking of the same person on another event gets nothing planned.
    const other = await createEvent(db(), tenant.id, { title: 'Other', startsAt: '2027-07-02T08:00:00Z', endsAt: '2027-07-02T09:00:00Z', timeZone: 'Europe/Amsterdam' });
    const b2 = await addBooking(db(), tenant.id, { eventId: other.id, role: 'attendee', contact: { email: contact.email } }, now);
    await db().update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, b2.id));
    await db().update(reminders).set({ status: 'cancelled', statusReason: 'booking cancelled: test' }).where(eq(reminders.bookingId, b2.id));
    const [fresh] = await db().select().from(contacts).where(eq(contacts.id, contact.id));
    const r = await saveContactPreferences(db(), { tenantId: tenant.id, now }, contact.id, {
      preferences: { reminders: ['sms'], booking_updates: ['email'] },
      quietHours: null,
      version: fresh.version,
    }, staffEditor('sam@example.test'));
    expect(r).toMatchObject({ remindersCancelled: 0, remindersPlanned: 1 });
    expect(await remindersOf(booking.id)).toEqual([
      { channel: 'email', status: 'done', statusReason: null, kind: 'rule' },
      { channel: 'sms', status: 'scheduled', statusReason: null, kind: 'rule' },
    ]);
    expect((await remindersOf(b2.id)).map((x) => x.channel)).toEqual(['email']);
    void event;
  });

  it('a stale save is a 409 and writes nothing — neither the contact nor any reminder', async () => {
    const { tenant, booking, contact } = await bookedContact({ phone: '+31612345678' });
    await saveContactPreferences(db(), { tenantId: tenant.id, now }, contact.id, { preferences: { reminders: ['email'], booking_updates: [] }, quietHours: null, version: contact.version }, staffEditor('bea@example.test'));
    const [before] = await db().select().from(contacts).where(eq(contacts.id, contact.id));
    const remindersBefore = await remindersOf(booking.id);
    const err = await rejection(
      saveContactPreferences(db(), { tenantId: tenant.id, now }, contact.id, { preferences: { reminders: ['sms'], booking_updates: ['sms'] }, quietHours: null, version: contact.version }, staffEditor('sam@example.test')),
    );
    expect(err).toMatchObject({ httpStatus: 409, field: 'version' });
    expect(err.message).toMatch(/^This contact \(Pat Doe\) was changed by bea@example\.test at .+ since you opened it\.$/);
    expect(err.details).toMatchObject({ version: before.version, current: { preferences: { reminders: ['email'], booking_updates: [] }, phone: '+31612345678' } });
    const [after] = await db().select().from(contacts).where(eq(contacts.id, contact.id));
    expect(after).toEqual(before);
    expect(await remindersOf(booking.id)).toEqual(remindersBefore);
  });

  it.each([
    ['an unknown channel', { preferences: { reminders: ['fax'], booking_updates: [] } }, 'preferences.reminders', /unknown channel "fax"/],
    ['equal quiet hours', { quietHours: { start: '21:00', end: '21:00' } }, 'quietHours.end', /must differ from start/],
    ['a malformed time', { quietHours: { start: '9pm', end: '08:00' } }, 'quietHours.start', /24-hour time/],
    ['a bad phone number', { phone: 'call me' }, 'phone', /contains letters/],
    ['no version', { version: undefined }, 'version', /required/],
  ])('bad input → 400 naming the field: %s', async (_what, over, field, message) => {
    const { tenant, contact } = await bookedContact();
    const input = { preferences: { reminders: ['email'], booking_updates: ['email'] }, quietHours: null, version: contact.version, ...over };
    const err = await rejection(saveContactPreferences(db(), { tenantId: tenant.id, now }, contact.id, input, staffEditor('sam@example.test')));
    expect(err).toMatchObject({ httpStatus: 400, field });
    expect(err.message).toMatch(message);
  });

  it("another tenant's contact is not found, for reading and for saving", async () => {
    const { contact } = await bookedContact();
    const { tenant: other } = await tenantWithRules(db(), []);
    expect(await readContactPreferences(db(), other.id, contact.id)).toBeNull();
    const err = await rejection(
      saveContactPreferences(db(), { tenantId: other.id, now }, contact.id, { preferences: { reminders: [], booking_updates: [] }, quietHours: null, version: contact.version }, staffEditor('x@example.test')),
    );
    expect(err.httpStatus).toBe(404);
  });

  it("quiet hours are read in the person's own zone when known", async () => {
    const { tenant, contact } = await bookedContact({ timeZone: 'Europe/Berlin' });
    expect(await readContactPreferences(db(), tenant.id, contact.id)).toMatchObject({ zone: 'Europe/Berlin', zoneSource: 'contact' });
  });
});

describe("the person's own page (signed link)", () => {
  const secret = preferencesSecret({ BETTER_AUTH_SECRET: 'test-session-secret' });

  it('reads through a valid token (number masked), refuses a bad one, and saves as the participant', async () => {
    const { tenant, booking, contact } = await bookedContact({ phone: '+31612345678' });
    const token = await signPreferenceToken({ tenantId: tenant.id, contactId: contact.id }, secret);
    expect(token).toHaveLength(108); // a compact JWS of the two ids: short enough for an SMS
    const page = await readPreferencesByToken(db(), token, secret);
    expect(page).toMatchObject({ contactId: contact.id, phone: null, phoneMasked: '+31••••••678', hasPhone: true, tenantName: 'Test Org' });

    expect(await readPreferencesByToken(db(), `${token.slice(0, -2)}xx`, secret)).toBeNull();
    expect(await readPreferencesByToken(db(), token, preferencesSecret({ BETTER_AUTH_SECRET: 'another' }))).toBeNull();
    expect(await readPreferencesByToken(db(), 'not-a-token', secret)).toBeNull();

    const r = await savePreferencesByToken(db(), token, secret, { preferences: { reminders: ['sms'], booking_updates: ['email'] }, quietHours: { start: '22:00', end: '07:00' }, version: page!.version }, now);
    expect(r).toMatchObject({ changed: true, remindersCancelled: 0, remindersPlanned: 1, preferences: { phone: null, quietHours: { start: '22:00', end: '07:00' } } });
    expect(await remindersOf(booking.id)).toEqual([
      { channel: 'email', status: 'scheduled', statusReason: null, kind: 'rule' },
      { channel: 'sms', status: 'scheduled', statusReason: null, kind: 'rule' },
    ]);
    const [entry] = (await audit(tenant.id)).filter((e) => e.action === 'preferences_update');
    expect(entry.actor).toBe(participantActor);
    const [row] = await db().select().from(contacts).where(eq(contacts.id, contact.id));
    expect(row.updatedBy).toBe(participantActor);

    // Staff who opened the contact before now get a 409 that names the participant.
    const err = await rejection(
      saveContactPreferences(db(), { tenantId: tenant.id, now }, contact.id, { preferences: { reminders: ['email'], booking_updates: ['email'] }, quietHours: null, version: page!.version }, staffEditor('sam@example.test')),
    );
    expect(err.message).toMatch(/^This contact \(Pat Doe\) was changed by the participant \(preferences link\) at /);
  });

  it('a stale save through the link answers the plain message with the current values (masked), and writes nothing', async () => {
    const { tenant, contact } = await bookedContact({ phone: '+31612345678' });
    const token = await signPreferenceToken({ tenantId: tenant.id, contactId: contact.id }, secret);
    await saveContactPreferences(db(), { tenantId: tenant.id, now }, contact.id, { preferences: { reminders: [], booking_updates: ['email'] }, quietHours: null, version: contact.version }, staffEditor('sam@example.test'));
    const [before] = await db().select().from(contacts).where(eq(contacts.id, contact.id));
    const err = await rejection(savePreferencesByToken(db(), token, secret, { preferences: { reminders: ['sms'], booking_updates: ['sms'] }, quietHours: null, version: contact.version }, now));
    expect(err).toMatchObject({ httpStatus: 409, field: 'version', message: participantStaleMessage });
    expect(err.details).toMatchObject({ version: before.version, current: { preferences: { reminders: [], booking_updates: ['email'] }, phone: null, phoneMasked: '+31••••••678' } });
    expect(JSON.stringify(err.details)).not.toContain('sam@example.test');
    const [after] = await db().select().from(contacts).where(eq(contacts.id, contact.id));
    expect(after).toEqual(before);
  });

  it('the link cannot change the number, and a bad token is not found', async () => {
    const { tenant, contact } = await bookedContact({ phone: '+31612345678' });
    const token = await signPreferenceToken({ tenantId: tenant.id, contactId: contact.id }, secret);
    const phone = await rejection(savePreferencesByToken(db(), token, secret, { preferences: { reminders: ['email'], booking_updates: ['email'] }, quietHours: null, phone: '+31600000000', version: contact.version }, now));
    expect(phone).toMatchObject({ httpStatus: 400 });
    expect(phone.message).toMatch(/phone: cannot be changed here/);
    const bad = await rejection(savePreferencesByToken(db(), `${token}x`, secret, { preferences: { reminders: [], booking_updates: [] }, quietHours: null, version: 1 }, now));
    expect(bad).toMatchObject({ httpStatus: 404, field: 'token' });
  });

  it('reads a plain HTML form: repeated checkboxes, both times or none, the hidden version', () => {
    const f = new FormData();
    f.append('reminders', 'email');
    f.append('reminders', 'sms');
    f.append('quietStart', '21:00');
    f.append('quietEnd', '08:00');
    f.append('version', '3');
    expect(preferencesInputFromForm(f)).toEqual({ preferences: { reminders: ['email', 'sms'], booking_updates: [], announcements: [] }, quietHours: { start: '21:00', end: '08:00' }, version: 3 });
    const half = new FormData();
    half.append('quietStart', '');
    half.append('quietEnd', '08:00');
    half.append('version', '3');
    expect(() => preferencesInputFromForm(half)).toThrow(/quietHours.start: enter when quiet hours start/);
  });
});
