/**
 * The event's note for participants on the send path (real PostgreSQL, the real queue, the real SMTP catcher): saved
 * through the event form's use-case, it reaches each person in the language of their message — a Dutch participant's
 * booking confirmation and reminder carry the Dutch note, an English one the note for all languages ("") — and an event
 * without a note sends no empty paragraph and no "undefined". A retry sends the note as it is at that attempt (like the
 * title and the place: event data is read at every attempt; only the language and the text version are fixed at the
 * claim). The delivery records which text it used: the organisation's version 2, or Punctual's built-in text.
 */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { getDeliveryStory } from '@/db/queries/dashboards/deliveries-log';
import { deliveries, events, notificationSettings, type CaughtMessage } from '@/db/schema';
import { messageTextLabel } from '@/domain/messages/message-text-label';
import { defaultPolicy } from '@/domain/notifications/notification-policy';
import { publishText, saveDraft } from '@/server/messages/message-texts';
import { addBooking } from '@/server/scheduling/bookings';
import { createEventAction, updateEventAction } from '@/server/scheduling/staff-actions';
import { tenantWithRules } from '@/test/support/fixtures';
import { flakyCatcherChannel } from '@/test/support/flaky-channel';
import { createHarness, type Harness } from '@/test/support/harness';

let h: Harness;
const flaky = flakyCatcherChannel(() => h.catcher.url);
beforeAll(async () => {
  h = await createHarness({ channel: flaky.channel, deps: { random: () => 0 } });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.tdb.reset();
  flaky.failNext(0);
});
const db = () => h.tdb.db;

const note = { '': 'Bring an apron, please.', nl: 'Neem een schort mee.\nKoffie staat klaar.' };
const form = { title: 'Glaze Night', timeZone: 'Europe/Amsterdam', start: '2027-03-11T19:30', end: '2027-03-11T22:00' };

/** An organisation (default English) with a 24-hour reminder and the default notification policy, an admin, and the event. */
async function setUp(eventNote: unknown) {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D', name: '24 hours before', window: 6 * 3600 }], 'Europe/Amsterdam');
  await db().insert(notificationSettings).values({ tenantId: tenant.id, policy: defaultPolicy });
  const id = await insertStaffUser(db(), { tenantId: tenant.id, email: 'owner@example.test', name: 'Owner', role: 'admin', passwordHash: 'not-used' });
  const admin = { tenantId: tenant.id, actor: 'owner@example.test', actorId: id!, now: new Date('2027-03-01T09:00:00Z') };
  const event = await createEventAction(db(), admin, { ...form, eventNote } as never);
  h.clock.set('2027-03-01T10:00:00Z');
  return { tenant, admin, event };
}

async function book(tenantId: string, eventId: string, email: string, locale: string) {
  await addBooking(db(), tenantId, { eventId, role: 'attendee', contact: { email, name: email.split('@')[0], locale } }, h.clock.now());
  await h.drain();
}

const mailTo = async (address: string): Promise<CaughtMessage[]> => (await h.caught()).filter((m) => m.channel === 'email' && m.envelopeTo.includes(address));
/** <p> elements with no text (whitespace, comments and direction isolates only). */
const emptyParagraphs = (html: string) => [...html.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/g)].filter((m) => m[1]!.replace(/<!--.*?-->|<[^>]+>|[\s\u2068\u2069]/g, '') === '');

describe('the note for participants on the send path', () => {
  it('a Dutch participant gets the Dutch note, an English one the note for all languages — in the confirmation and the reminder', async () => {
    const { tenant, event } = await setUp(note);
    await book(tenant.id, event.id, 'jonas@example.test', 'nl-BE');
    await book(tenant.id, event.id, 'ada@example.test', 'en');
    await h.tick('2027-03-10T18:45:00Z');
    const dutch = await mailTo('jonas@example.test');
    const english = await mailTo('ada@example.test');
    expect(dutch.map((m) => m.subject?.split(':')[0])).toEqual(['Je bent ingeschreven', 'Herinnering']);
    for (const m of dutch) {
      expect(m.text).toMatch(/Let op\s+Neem een schort mee\.\s+Koffie staat klaar\./);
      expect(m.text).not.toContain('Bring an apron');
    }
    expect(english.map((m) => m.subject?.split(':')[0])).toEqual(["You're booked", 'Reminder']);
    for (const m of english) {
      expect(m.text).toMatch(/Please note\s+Bring an apron, please\./);
      expect(m.text).not.toContain('schort');
    }
  });

  it('no note: no label, no empty paragraph, no "undefined" — and a saved note of blanks is no note', async () => {
    const { tenant, event } = await setUp({ '': '   ', nl: '' });
    await book(tenant.id, event.id, 'jonas@example.test', 'nl');
    await h.tick('2027-03-10T18:45:00Z');
    const mail = await mailTo('jonas@example.test');
    expect(mail).toHaveLength(2);
    for (const m of mail) {
      expect(m.text).not.toMatch(/Let op|undefined|\{|\}/);
      expect(emptyParagraphs(m.html ?? '')).toEqual([]);
    }
    const [stored] = await db().select({ eventNote: events.eventNote }).from(events).where(eq(events.id, event.id));
    expect(stored.eventNote).toBeNull();
  });

  it('a retry sends the note as it is at that attempt (event data is read at every attempt)', async () => {
    const { tenant, admin, event } = await setUp({ '': 'Bring an apron.' });
    await book(tenant.id, event.id, 'ada@example.test', 'en');
    flaky.failNext(1);
    await h.tick('2027-03-10T18:45:00Z');
    const [claimed] = await db().select().from(deliveries).where(eq(deliveries.template, 'attendee-reminder'));
    expect(claimed.status).toBe('retrying');
    await updateEventAction(db(), admin, event.id, { ...form, eventNote: { '': 'Bring an apron and closed shoes.' }, version: event.version });
    await h.tick(claimed.nextAttemptAt!);
    const [reminder] = (await mailTo('ada@example.test')).filter((m) => m.subject?.startsWith('Reminder'));
    expect(reminder.text).toContain('Bring an apron and closed shoes.');
  });

  it("the delivery says which text it used: the organisation's version 2, or Punctual's built-in text", async () => {
    const { tenant, admin, event } = await setUp(note);
    const own = { kind: 'attendee-reminder', locale: 'nl', subject: 'Tot morgen: {eventTitle}', body: 'Hoi!\n\n{eventNote}\n\nTot morgen.', sms: '{tenantName}: {eventTitle} {eventNote}' };
    let rowVersion = 0;
    for (const version of [1, 2]) {
      const draft = await saveDraft(db(), admin, { ...own, subject: `${own.subject} (${version})`, rowVersion });
      rowVersion = (await publishText(db(), admin, { kind: own.kind, locale: own.locale, rowVersion: draft.rowVersion })).rowVersion;
    }
    await book(tenant.id, event.id, 'jonas@example.test', 'nl');
    await book(tenant.id, event.id, 'ada@example.test', 'en');
    await h.tick('2027-03-10T18:45:00Z');
    const [dutch] = (await mailTo('jonas@example.test')).filter((m) => m.subject?.startsWith('Tot morgen'));
    expect(dutch.subject).toBe('Tot morgen: Glaze Night (2)');
    expect(dutch.text).toMatch(/Hoi!\s+Neem een schort mee\.\s+Koffie staat klaar\.\s+Tot morgen\./);
    const reminders = await db().select().from(deliveries).where(eq(deliveries.template, 'attendee-reminder')).orderBy(asc(deliveries.address));
    const labels = await Promise.all(reminders.map(async (d) => [d.address, messageTextLabel((await getDeliveryStory(db(), tenant.id, d.id))!.delivery)]));
    expect(labels).toEqual([
      ['ada@example.test', 'Punctual’s built-in text'],
      ['jonas@example.test', 'Your text, version 2'],
    ]);
  });
});
