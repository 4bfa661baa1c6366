/**
 * Notifications over SMS and in quiet hours (issue #9 §4, §7) against real PostgreSQL, the real queue, the real
 * SMTP catcher and a Twilio-compatible SMS peer: lost answers and lost workers end `unknown` and are never resent,
 * provider error codes suppress the number, quiet hours hold a message (also when set after planning) but not an
 * essential one, and preferences changed after planning are followed at send time. Peers, harness and helpers:
 * ./notification-harness.ts.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contacts, deliveries, reminders, suppressions } from '@/db/schema';
import { saveContactPreferences } from '@/server/notifications/contact-preferences';
import { addBooking } from '@/server/scheduling/bookings';
import { cancelEvent, createEvent } from '@/server/scheduling/events';
import { tenantWithRules } from '@/test/support/fixtures';
import { db, emails, h, lisbonEvent, sms, tenant, useNotificationHarness } from './notification-harness';

useNotificationHarness();

describe('SMS outcomes and quiet hours (issue #9 §4, §7)', () => {
  async function smsBooking(email: string, phone: string) {
    const t = await tenant();
    const event = await lisbonEvent(t.id);
    h.clock.set('2027-06-01T12:00:00Z');
    const b = await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email, phone } }, h.clock.now());
    await db().update(contacts).set({ preferences: { reminders: ['email'], booking_updates: ['sms'] } }).where(eq(contacts.id, b.contactId));
    return { t, b };
  }

  it('an SMS answer lost after the request was written → unknown, one message at the provider, never resent', async () => {
    sms.script('accept-then-drop');
    await smsBooking('drop@example.test', '+351912000222');
    await h.drain();
    await h.tick('2027-06-01T13:00:00Z');
    const [d] = await db().select().from(deliveries).where(eq(deliveries.channel, 'sms'));
    expect(d.status).toBe('unknown');
    expect(d.statusReason).toContain('may or may not have been sent');
    expect(sms.messages).toHaveLength(1);
    expect(sms.requests).toHaveLength(1);
  });

  it('a worker lost during an SMS call (lease expired) → unknown, not resent: the SMS API has no idempotency key', async () => {
    await smsBooking('lost@example.test', '+351912000555');
    // Simulate the crash: the delivery is `sending` under a lease that has run out, as a SIGKILLed worker leaves it.
    await h.drain();
    const [before] = await db().select().from(deliveries).where(eq(deliveries.channel, 'sms'));
    await db().update(deliveries).set({ status: 'sending', leaseExpiresAt: new Date('2027-06-01T12:01:00Z') }).where(eq(deliveries.id, before.id));
    const sent = sms.messages.length;
    await h.tick('2027-06-01T12:30:00Z');
    const [d] = await db().select().from(deliveries).where(eq(deliveries.id, before.id));
    expect(d.status).toBe('unknown');
    expect(sms.messages).toHaveLength(sent);
  });

  it('21211 invalid number → failed, the number suppressed as invalid_number; 21610 → suppressed as unsubscribed', async () => {
    sms.script('invalid-number');
    const { t } = await smsBooking('bad@example.test', '+351912000333');
    await h.drain();
    const [d] = await db().select().from(deliveries).where(eq(deliveries.channel, 'sms'));
    expect(d.status).toBe('failed');
    const sup = await db().select().from(suppressions).where(eq(suppressions.tenantId, t.id));
    expect(sup.map((x) => [x.address, x.reason])).toEqual([['+351912000333', 'invalid_number']]);
    await h.tdb.reset();
    sms.script('unsubscribed');
    const second = await smsBooking('stop@example.test', '+351912000444');
    await h.drain();
    const sup2 = await db().select().from(suppressions).where(eq(suppressions.tenantId, second.t.id));
    expect(sup2.map((x) => [x.address, x.reason])).toEqual([['+351912000444', 'unsubscribed']]);
  });

  it('quiet hours 21:00–08:00 Europe/Berlin: a confirmation made at 23:00 waits until 08:00; an event cancellation (essential) does not wait', async () => {
    const t = await tenant({ zone: 'Europe/Berlin' });
    const event = await lisbonEvent(t.id);
    h.clock.set('2027-03-09T22:00:00Z'); // 23:00 in Berlin (CET)
    const b = await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'night@example.test', timeZone: 'Europe/Berlin' } }, h.clock.now());
    await db().update(contacts).set({ quietHours: { start: '21:00', end: '08:00' } }).where(eq(contacts.id, b.contactId));
    await h.drain();
    const [r] = await db().select().from(reminders).where(eq(reminders.notificationType, 'booking_confirmed'));
    expect(r.dueAt.toISOString()).toBe('2027-03-10T07:00:00.000Z');
    expect(r.deferredFrom?.toISOString()).toBe('2027-03-09T22:00:00.000Z');
    expect(await emails()).toHaveLength(0);
    await cancelEvent(db(), t.id, event.id, 'storm warning', h.clock.now());
    await h.drain();
    const mail = await emails();
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain('storm warning');
    // The waiting confirmation ends cancelled at its due instant: the event is off.
    await h.tick('2027-03-10T07:00:30Z');
    expect(await emails()).toHaveLength(1);
    const [after] = await db().select().from(reminders).where(eq(reminders.id, r.id));
    expect(after.status).toBe('cancelled');
  });
});

describe('quiet hours set after planning (checked again at send time)', () => {
  it('a reminder due at 23:30 Berlin waits for 08:00 when the person set quiet hours after it was planned', async () => {
    const { tenant: t } = await tenantWithRules(db(), [{ offset: '-P1D', window: 12 * 3600 }], 'Europe/Berlin');
    const event = await createEvent(db(), t.id, { title: 'Night walk', startsAt: '2027-03-11T22:30:00Z', endsAt: '2027-03-11T23:30:00Z', timeZone: 'Europe/Berlin' });
    h.clock.set('2027-03-01T12:00:00Z');
    const b = await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'owl@example.test', timeZone: 'Europe/Berlin' } }, h.clock.now());
    await db().update(contacts).set({ quietHours: { start: '21:00', end: '08:00' } }).where(eq(contacts.id, b.contactId));
    await h.tick('2027-03-10T22:30:10Z'); // due: 23:30 CET
    expect(await emails()).toHaveLength(0);
    const [r] = await db().select().from(reminders).where(eq(reminders.bookingId, b.id));
    expect(r.status).toBe('scheduled');
    expect(r.dueAt.toISOString()).toBe('2027-03-11T07:00:00.000Z');
    expect(r.deferredFrom?.toISOString()).toBe('2027-03-10T22:30:00.000Z');
    await h.tick('2027-03-11T07:00:10Z');
    const mail = await emails();
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toContain('Night walk');
  });
});

describe('preferences changed after planning (adversarial findings)', () => {
  const staff = { kind: 'staff' as const, actor: 'sam@example.test' };
  const versionOf = async (id: string) => (await db().select().from(contacts).where(eq(contacts.id, id)))[0].version;

  it('a reminder channel dropped and ticked again before the due instant still sends; one dropped at the due instant ends cancelled', async () => {
    const t = await tenant();
    const event = await lisbonEvent(t.id);
    h.clock.set('2027-06-01T12:00:00Z');
    const b = await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'flip@example.test', phone: '+351912000777' } }, h.clock.now());
    const save = (reminders: ('email' | 'sms')[]) => versionOf(b.contactId).then((version) => saveContactPreferences(db(), { tenantId: t.id, now: h.clock.now() }, b.contactId, { preferences: { reminders, booking_updates: [] }, quietHours: null, version }, staff));
    await save(['email', 'sms']);
    await save(['email']);
    await save(['email', 'sms']);
    await h.tick('2027-06-30T09:00:30Z');
    expect(sms.messages.filter((m) => m.to === '+351912000777')).toHaveLength(1);
    // Dropped for good: the SMS reminder of a second event ends cancelled when due, naming why.
    const later = await createEvent(db(), t.id, { title: 'Later', startsAt: '2027-08-01T09:00:00Z', endsAt: '2027-08-01T10:00:00Z', timeZone: 'Europe/Lisbon' });
    const b2 = await addBooking(db(), t.id, { eventId: later.id, role: 'attendee', contact: { email: 'flip@example.test' } }, h.clock.now());
    await save(['email']);
    await h.tick('2027-07-31T09:00:30Z');
    const rs = await db().select().from(reminders).where(eq(reminders.bookingId, b2.id));
    expect(rs.map((r) => [r.channel, r.status, r.statusReason])).toEqual(
      expect.arrayContaining([
        ['email', 'done', null],
        ['sms', 'cancelled', 'opted out of reminders by SMS'],
      ]),
    );
    expect(sms.messages).toHaveLength(1);
  });

  it('a confirmation held for quiet hours by SMS follows the person to email when they switch before it goes', async () => {
    const t = await tenant({ zone: 'Europe/Berlin' });
    const event = await lisbonEvent(t.id);
    h.clock.set('2027-03-09T22:00:00Z'); // 23:00 Berlin
    const b = await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'switch@example.test', phone: '+351912000888', timeZone: 'Europe/Berlin' } }, h.clock.now());
    await db().update(contacts).set({ preferences: { reminders: ['email'], booking_updates: ['sms'] }, quietHours: { start: '21:00', end: '08:00' } }).where(eq(contacts.id, b.contactId));
    await h.drain();
    const version = await versionOf(b.contactId);
    await saveContactPreferences(db(), { tenantId: t.id, now: h.clock.now() }, b.contactId, { preferences: { reminders: ['email'], booking_updates: ['email'] }, quietHours: { start: '21:00', end: '08:00' }, version }, staff);
    await h.tick('2027-03-10T07:00:30Z');
    expect((await emails()).map((m) => m.subject)).toEqual([expect.stringContaining('Tile painting')]);
    expect(sms.messages).toHaveLength(0);
  });
});
