/**
 * "Send a test to me" of the text editor against real PostgreSQL, the real queue and the real SMTP catcher: the
 * unsaved draft, rendered with a real participant's event, reaches the admin's own address through the settings
 * page's test message (a worker sends it and records the provider's answer) — and nobody else: no delivery, no mail
 * to the participant, no text stored.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { deliveries, messageTexts, orgTestMessages } from '@/db/schema';
import { sendTextTest } from '@/server/messages/text-preview';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { tenantWithRules } from '@/test/support/fixtures';
import { createHarness, type Harness } from '@/test/support/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());
beforeEach(async () => h.tdb.reset());
const db = () => h.tdb.db;

describe('send a test to me', () => {
  it('the draft with the real event goes to the admin only, through the worker; no delivery, nothing stored', async () => {
    const { tenant } = await tenantWithRules(db(), [], 'Europe/Berlin');
    const id = await insertStaffUser(db(), { tenantId: tenant.id, email: 'owner@example.test', name: 'Owner', role: 'admin', passwordHash: 'not-used' });
    const event = await createEvent(db(), tenant.id, { title: 'Glaze Night', startsAt: '2031-03-11T18:30:00Z', endsAt: '2031-03-11T21:00:00Z', timeZone: 'Europe/Berlin' });
    const booking = await addBooking(db(), tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'jonas@example.test', name: 'Jonas Berger', locale: 'de' } }, h.clock.now());
    await h.drain(); // whatever the booking itself sends (nothing: no rules, no policy) is out of the way
    const before = (await db().select().from(deliveries)).length;
    const draft = { kind: 'attendee-reminder', locale: 'de', subject: 'Schürze nicht vergessen: {eventTitle}', body: '**{eventTitle}** beginnt {when}.', sms: '{eventTitle}, {when}.', bookingId: booking.id };
    const asked = await sendTextTest(db(), { tenantId: tenant.id, actor: 'owner@example.test', actorId: id!, now: new Date('2031-03-01T09:00:00Z') }, draft);
    expect(asked).toMatchObject({ to: 'owner@example.test', status: 'pending' });
    await h.drain();
    const [row] = await db().select().from(orgTestMessages);
    expect([row.status, row.providerAnswer?.slice(0, 4)]).toEqual(['sent', '250 ']);
    const mail = await h.caught();
    expect(mail.map((m) => [m.envelopeTo, m.subject])).toEqual([[['owner@example.test'], 'Schürze nicht vergessen: Glaze Night']]);
    expect(mail[0].html).toMatch(/<strong>.*Glaze Night.*<\/strong>/);
    expect(mail[0].text).toContain('Jonas Berger');
    expect((await db().select().from(deliveries)).length).toBe(before);
    expect(await db().select().from(messageTexts)).toEqual([]);
  });
});
