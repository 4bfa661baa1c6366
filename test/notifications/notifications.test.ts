/**
 * Booking notifications (issue #9) end to end against real PostgreSQL, the real queue, the real SMTP catcher and a
 * Twilio-compatible SMS peer: confirmations with a calendar invitation, moves and cancellations in order, channel
 * preferences and opt-outs, essential messages, once-only planning, no late or misleading messages, and an external
 * guest told by their own organisation. Peers, harness and helpers: ./notification-harness.ts. Each `it` is one of
 * the exact scenarios.
 */
import { and, asc, eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { contacts, deliveries, deliveryAttempts, domainEvents, reminders } from '@/db/schema';
import { processDomainEvent } from '@/server/notifications/notify';
import { verifyPreferenceToken } from '@/server/sending/preference-link';
import { addBooking, cancelBooking } from '@/server/scheduling/bookings';
import { cancelEvent, createEvent, rescheduleEvent } from '@/server/scheduling/events';
import { allowGuestsFrom, createTenant } from '@/server/organisations/tenants';
import { addSuppression } from '@/server/suppressions/suppressions';
import { calendarOf, db, emails, h, hook, linkSecret, lisbonEvent, sms, tenant, useNotificationHarness } from './notification-harness';

useNotificationHarness();

describe('booking notifications (issue #9)', () => {
  it('a booking for 2027-07-01T10:00 Europe/Lisbon → one confirmation email with DTSTART;TZID=Europe/Lisbon:20270701T100000 and SEQUENCE:0', async () => {
    const t = await tenant();
    const event = await lisbonEvent(t.id);
    h.clock.set('2027-06-01T12:00:00Z');
    await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'ana@example.test', name: 'Ana' } }, h.clock.now());
    await h.drain();
    await h.drain(); // a redelivered notify job and a second pass change nothing
    const mail = await emails();
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toContain('Tile painting');
    const ics = await calendarOf(mail[0]);
    expect(ics).toContain('METHOD:REQUEST');
    expect(ics).toContain('DTSTART;TZID=Europe/Lisbon:20270701T100000');
    expect(ics).toContain('SEQUENCE:0');
    // Re-read with ical.js: the instant is 09:00Z.
    const vevent = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!;
    const vtz = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vtimezone')!;
    const start = vevent.getFirstPropertyValue('dtstart') as ICAL.Time;
    start.zone = new ICAL.Timezone(vtz);
    expect(start.toJSDate().toISOString()).toBe('2027-07-01T09:00:00.000Z');
    // Every message carries the person's signed preferences link.
    const link = /http:\/\/punctual\.test\/preferences\/([\w.-]+)/.exec(mail[0].text ?? '');
    expect(link).not.toBeNull();
    const [ana] = await db().select().from(contacts).where(eq(contacts.email, 'ana@example.test'));
    expect(await verifyPreferenceToken(link![1], linkSecret)).toEqual({ tenantId: t.id, contactId: ana.id });
    const [de] = await db().select().from(domainEvents);
    expect(de.type).toBe('booking_confirmed');
    expect(de.processedAt).not.toBeNull();
    // A processed domain event plans nothing again (redelivery).
    expect(await processDomainEvent(db(), de.id, h.clock.now())).toEqual({ planned: 0, skipped: 'already processed' });
  });

  it('a change that rolls back leaves no domain event and no notification', async () => {
    const t = await tenant();
    const event = await lisbonEvent(t.id);
    await expect(
      db().transaction(async (tx) => {
        await addBooking(tx, t.id, { eventId: event.id, role: 'attendee', contact: { email: 'rolled@example.test' } }, new Date('2027-06-01T12:00:00Z'));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await db().select().from(domainEvents)).toHaveLength(0);
    await h.drain();
    expect(await h.caught()).toHaveLength(0);
  });

  it('moved to 2 July, then to 3 July → two update messages, SEQUENCE 1 and 2, each with the old and the new time; cancelled → METHOD:CANCEL, SEQUENCE 3', async () => {
    const t = await tenant();
    const event = await lisbonEvent(t.id);
    h.clock.set('2027-06-01T12:00:00Z');
    await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'ana@example.test', name: 'Ana', locale: 'en-GB' } }, h.clock.now());
    await h.drain();
    h.clock.set('2027-06-02T12:00:00Z');
    await rescheduleEvent(db(), t.id, event.id, { startsAt: '2027-07-02T09:00:00Z', endsAt: '2027-07-02T11:00:00Z', timeZone: 'Europe/Lisbon' }, h.clock.now());
    await h.drain();
    h.clock.set('2027-06-03T12:00:00Z');
    await rescheduleEvent(db(), t.id, event.id, { startsAt: '2027-07-03T09:00:00Z', endsAt: '2027-07-03T11:00:00Z', timeZone: 'Europe/Lisbon' }, h.clock.now());
    await h.drain();
    h.clock.set('2027-06-04T12:00:00Z');
    await cancelEvent(db(), t.id, event.id, 'the kiln broke', h.clock.now());
    await h.drain();
    const mail = await emails();
    expect(mail.map((m) => m.subject)).toHaveLength(4);
    const [, move1, move2, cancel] = mail;
    const ics1 = await calendarOf(move1);
    const ics2 = await calendarOf(move2);
    const ics3 = await calendarOf(cancel);
    expect(ics1).toContain('SEQUENCE:1');
    expect(ics1).toContain('DTSTART;TZID=Europe/Lisbon:20270702T100000');
    expect(ics2).toContain('SEQUENCE:2');
    expect(ics2).toContain('DTSTART;TZID=Europe/Lisbon:20270703T100000');
    expect(ics3).toContain('METHOD:CANCEL');
    expect(ics3).toContain('SEQUENCE:3');
    const uid = (ics: string) => /UID:(.+)/.exec(ics)![1].trim();
    expect(new Set([uid(await calendarOf(mail[0])), uid(ics1), uid(ics2), uid(ics3)]).size).toBe(1);
    // Each update states the old and the new time in the event's zone (10:00 Lisbon).
    expect(move1.text).toMatch(/1 Jul[^\n]*10:00/);
    expect(move1.text).toMatch(/2 Jul[^\n]*10:00/);
    expect(move2.text).toMatch(/2 Jul[^\n]*10:00/);
    expect(move2.text).toMatch(/3 Jul[^\n]*10:00/);
    expect(cancel.text).toContain('the kiln broke');
  });

  it('booking updates by SMS only, reminders by email: confirmation → 1 SMS, 0 emails; the 24-hour reminder → 1 email, 0 SMS', async () => {
    const t = await tenant();
    const event = await lisbonEvent(t.id);
    h.clock.set('2027-06-01T12:00:00Z');
    const b = await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'sam@example.test', name: 'Sam', phone: '+351 912 345 678' } }, h.clock.now());
    // The preferences as staff would set them before the notification goes out (the notify job has not run yet).
    await db().update(contacts).set({ preferences: { reminders: ['email'], booking_updates: ['sms'] } }).where(eq(contacts.id, b.contactId));
    await h.drain();
    expect(await emails()).toHaveLength(0);
    expect(sms.messages).toHaveLength(1);
    expect(sms.messages[0].to).toBe('+351912345678');
    expect(sms.messages[0].from).toBe('+15005550006');
    expect(sms.messages[0].body).toContain('Tile painting');
    expect(sms.messages[0].body).toMatch(/Manage: http:\/\/punctual\.test\/preferences\//);
    // The 24-hour reminder: due 2027-06-30T09:00Z.
    await h.tick('2027-06-30T09:00:30Z');
    expect(await emails()).toHaveLength(1);
    expect(sms.messages).toHaveLength(1);
    const ds = await db().select().from(deliveries).where(eq(deliveries.tenantId, t.id)).orderBy(asc(deliveries.createdAt));
    expect(ds.map((d) => [d.channel, d.status])).toEqual([
      ['sms', 'accepted'],
      ['email', 'accepted'],
    ]);
    expect(ds[0].messageKey).toBe(`ntf:${t.id}:booking_confirmed:${b.id}:r1:${b.contactId}:sms`);
    // What staff can read (the stored SMS text, the provider's echo) never holds the person's preferences link.
    expect(ds[0].subject).toContain('Manage: [preferences link]');
    const [attempt] = await db().select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, ds[0].id));
    expect(`${ds[0].subject} ${attempt.providerResponse}`).not.toContain('/preferences/');
  });

  it('a long SMS whose echo the provider answer cuts inside the preferences link: no piece of the link is stored', async () => {
    const t = await tenant();
    // A long room link pushes the preferences link past the first 500 characters of the provider's echo.
    for (const pad of [150, 161, 175]) {
      const event = await createEvent(db(), t.id, {
        title: `Long room ${pad}`,
        startsAt: '2027-07-01T09:00:00Z',
        endsAt: '2027-07-01T11:00:00Z',
        timeZone: 'Europe/Lisbon',
        roomUrl: `https://meet.example/${'r'.repeat(pad)}`,
      });
      h.clock.set('2027-06-01T12:00:00Z');
      const b = await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: `long${pad}@example.test`, name: 'Lou', phone: `+35191234${pad}0` } }, h.clock.now());
      await db().update(contacts).set({ preferences: { reminders: ['email'], booking_updates: ['sms'] } }).where(eq(contacts.id, b.contactId));
      await h.drain();
      const sent = sms.messages.find((m) => m.to === `+35191234${pad}0`)!;
      const token = /\/preferences\/(\S+)/.exec(sent.body)![1];
      const [d] = await db().select().from(deliveries).where(and(eq(deliveries.tenantId, t.id), eq(deliveries.address, `+35191234${pad}0`)));
      const [attempt] = await db().select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, d.id));
      const readable = `${d.subject} ${attempt.providerResponse ?? ''} ${attempt.errorMessage ?? ''}`;
      // Not the whole token, and not its first 12 characters either (a cut link is still most of a credential).
      expect(readable).not.toContain(token.slice(0, 12));
    }
  });

  it('opted out of booking updates still gets event_cancelled; a hard-bounced address does not get it by email but does by SMS when they accept SMS', async () => {
    const t = await tenant();
    const event = await lisbonEvent(t.id);
    h.clock.set('2027-06-01T12:00:00Z');
    const out = await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'out@example.test' } }, h.clock.now());
    const bounced = await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'bounced@example.test', phone: '+351912000111' } }, h.clock.now());
    await db().update(contacts).set({ preferences: { reminders: ['email'], booking_updates: [] } }).where(eq(contacts.id, out.contactId));
    await db().update(contacts).set({ preferences: { reminders: ['email', 'sms'], booking_updates: ['email'] } }).where(eq(contacts.id, bounced.contactId));
    await addSuppression(db(), t.id, { address: 'bounced@example.test', reason: 'bounced', source: 'hard bounce' });
    await h.drain();
    // Confirmations: the opted-out person gets none; the bounced address is suppressed at send time.
    expect((await emails()).map((m) => m.envelopeTo)).toEqual([]);
    h.clock.set('2027-06-05T12:00:00Z');
    await cancelEvent(db(), t.id, event.id, 'venue flooded', h.clock.now());
    await h.drain();
    const mail = await emails();
    expect(mail.map((m) => m.envelopeTo[0])).toEqual(['out@example.test']);
    expect(sms.messages.map((m) => m.to)).toEqual(['+351912000111']);
    const cancelled = await db()
      .select()
      .from(deliveries)
      .innerJoin(reminders, eq(reminders.id, deliveries.reminderId))
      .where(and(eq(reminders.notificationType, 'event_cancelled'), eq(deliveries.address, 'bounced@example.test')));
    // The suppressed address is not even planned for the essential message: it goes where it can arrive.
    expect(cancelled).toEqual([]);
  });

  it('essential: a person who takes everything by SMS and replied STOP still hears of the cancellation, by email', async () => {
    const t = await tenant();
    const event = await lisbonEvent(t.id);
    h.clock.set('2027-06-01T12:00:00Z');
    const b = await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'stop@example.test', phone: '+351912000999' } }, h.clock.now());
    await db().update(contacts).set({ preferences: { reminders: ['sms'], booking_updates: ['sms'] } }).where(eq(contacts.id, b.contactId));
    await addSuppression(db(), t.id, { address: '+351912000999', reason: 'unsubscribed', source: 'replied STOP' });
    await h.drain();
    await cancelEvent(db(), t.id, event.id, 'no teacher', h.clock.now());
    await h.drain();
    expect((await emails()).map((m) => m.envelopeTo[0])).toEqual(['stop@example.test']);
    expect(sms.messages).toHaveLength(0);
  });

  it('a double submit of the same fact plans once: the domain event identity is unique', async () => {
    const t = await tenant();
    const event = await lisbonEvent(t.id);
    h.clock.set('2027-06-01T12:00:00Z');
    const b = await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'twice@example.test' } }, h.clock.now());
    await cancelBooking(db(), t.id, b.id, 'asked to', h.clock.now());
    await cancelBooking(db(), t.id, b.id, 'asked to', h.clock.now()); // already cancelled: no second fact
    const facts = await db().select().from(domainEvents).orderBy(asc(domainEvents.createdAt));
    expect(facts.map((f) => f.type)).toEqual(['booking_confirmed', 'booking_cancelled']);
    await h.drain();
    // The confirmation was still waiting when the booking was cancelled: it ends cancelled, the cancellation goes.
    const mail = await emails();
    expect(mail).toHaveLength(1);
    expect(await calendarOf(mail[0])).toContain('METHOD:CANCEL');
  });
});

describe('timing and audience of notifications (adversarial findings)', () => {
  it('a notify job that runs three days after the booking (worker outage) sends nothing late: the confirmation expired', async () => {
    const t = await tenant();
    const event = await lisbonEvent(t.id);
    await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'late@example.test' } }, new Date('2027-06-01T12:00:00Z'));
    await h.tick('2027-06-04T12:00:00Z');
    expect(await emails()).toHaveLength(0);
    const [r] = await db().select().from(reminders).where(eq(reminders.notificationType, 'booking_confirmed'));
    expect(r.status).toBe('expired');
  });

  it('someone booked after a reschedule is not told the event "has moved"', async () => {
    const t = await tenant();
    const event = await lisbonEvent(t.id);
    h.clock.set('2027-06-01T12:00:00Z');
    await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'early@example.test' } }, h.clock.now());
    await rescheduleEvent(db(), t.id, event.id, { startsAt: '2027-07-02T09:00:00Z', endsAt: '2027-07-02T11:00:00Z', timeZone: 'Europe/Lisbon' }, new Date('2027-06-01T12:05:00Z'));
    await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'newcomer@example.test' } }, new Date('2027-06-01T12:06:00Z'));
    h.clock.set('2027-06-01T12:07:00Z');
    await h.drain();
    const moved = (await emails()).filter((m) => /has moved/.test(m.subject ?? ''));
    expect(moved.map((m) => m.envelopeTo[0])).toEqual(['early@example.test']);
  });
});

describe('external guests (invariant 9)', () => {
  it("an external guest hears from their own organisation: its sender on the email, its webhook — not the host's", async () => {
    const host = await tenant({ webhook: true });
    const guestOrg = await createTenant(db(), { slug: `guest-${Date.now().toString(36)}`, name: 'Guest Org', timeZone: 'Europe/Lisbon', senderEmail: 'hello@guest.example' });
    await allowGuestsFrom(db(), guestOrg.id, host.id);
    const event = await lisbonEvent(host.id);
    h.clock.set('2027-06-01T12:00:00Z');
    await addBooking(db(), host.id, { eventId: event.id, role: 'external', contact: { email: 'visitor@guest.example' }, guestTenantId: guestOrg.id }, h.clock.now());
    await h.drain();
    const mail = await emails();
    expect(mail).toHaveLength(1);
    expect(mail[0].envelopeFrom).toBe('hello@guest.example');
    // The guest's organisation has no webhook: the host's endpoint is not told about the guest.
    expect(hook.deliveries).toHaveLength(0);
    expect(await db().select().from(deliveries).where(eq(deliveries.channel, 'webhook'))).toHaveLength(0);
  });
});
