/**
 * Messages in the reader's language, end to end (real PostgreSQL, the real queue, the real SMTP catcher): a
 * participant booked on an event in Europe/Amsterdam receives the booking confirmation, the rescheduling notice and
 * the 24-hour reminder in their language, chosen by the locale fallback (their language → its base language → the
 * organisation's default → English), and each delivery records which language was used and why.
 */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contacts, deliveries, notificationSettings, tenants, type CaughtMessage } from '@/db/schema';
import { defaultPolicy } from '@/domain/notifications/notification-policy';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent, rescheduleEvent } from '@/server/scheduling/events';
import { tenantWithRules } from '@/test/support/fixtures';
import { flakyCatcherChannel } from '@/test/support/flaky-channel';
import { createHarness, type Harness } from '@/test/support/harness';
import { englishMessageRuns, wordRuns } from '@/test/support/word-runs';

let h: Harness;
const flaky = flakyCatcherChannel(() => h.catcher.url);
const channel = flaky.channel;
beforeAll(async () => {
  h = await createHarness({ channel, deps: { links: { publicUrl: 'http://punctual.test', secret: 'test-preferences-key-0123456789abcdef' }, random: () => 0 } });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.tdb.reset();
  flaky.failNext(0);
});
const db = () => h.tdb.db;

const title = 'Glaze Night';
const person = 'Jonas Berger';
const place = 'Keramiekatelier Oost, Javastraat 12, Amsterdam';
const english = englishMessageRuns();

/**
 * Books `locale`'s person on an evening class in Amsterdam (organisation default `orgLocale`), moves it a day
 * later, and runs the clock to the 24-hour reminder: returns the three emails in order and the deliveries.
 */
async function threeMessages(locale: string, orgLocale = 'en') {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D', name: '24 hours before', window: 6 * 3600 }], 'Europe/Amsterdam');
  await db().update(tenants).set({ name: 'Studio Klei', locale: orgLocale }).where(eq(tenants.id, tenant.id));
  await db().insert(notificationSettings).values({ tenantId: tenant.id, policy: defaultPolicy });
  const event = await createEvent(db(), tenant.id, {
    title,
    location: place,
    startsAt: '2027-03-11T18:30:00Z', // Thursday 19:30 CET
    endsAt: '2027-03-11T21:00:00Z',
    timeZone: 'Europe/Amsterdam',
  });
  h.clock.set('2027-03-01T10:00:00Z');
  await addBooking(db(), tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'jonas@example.test', name: person, locale } }, h.clock.now());
  await h.drain();
  h.clock.set('2027-03-02T10:00:00Z');
  await rescheduleEvent(db(), tenant.id, event.id, { startsAt: '2027-03-12T18:30:00Z', endsAt: '2027-03-12T21:00:00Z', timeZone: 'Europe/Amsterdam' }, h.clock.now());
  await h.drain();
  await h.tick('2027-03-11T18:45:00Z'); // the reminder for the new time is due at 18:30Z
  const mail = (await h.caught()).filter((m) => m.channel === 'email');
  const sent = await db().select().from(deliveries).where(eq(deliveries.tenantId, tenant.id)).orderBy(asc(deliveries.createdAt));
  return { mail, sent };
}

/** The three-word runs a message shares with the built-in English text (its subject and plain-text part). */
function englishIn(m: CaughtMessage): string[] {
  return [...wordRuns(`${m.subject ?? ''}\n${m.text ?? ''}`, [title, person, place, 'Studio Klei'])].filter((r) => english.has(r));
}

describe('messages in the reader\'s language', () => {
  it('nl: confirmation, rescheduling notice and reminder are Dutch through and through; each delivery records nl, the person\'s language', async () => {
    const { mail, sent } = await threeMessages('nl');
    expect(mail.map((m) => m.subject)).toEqual([
      `Je bent ingeschreven: ${title}`,
      `${title} is verplaatst`,
      `Herinnering: ${title} \u2013 vr 12 mrt, 19:30 CET`,
    ]);
    for (const m of mail) expect(englishIn(m), m.text ?? '').toEqual([]);
    expect(mail[0].text).toContain(`Je plek bij ${title} is bevestigd. Het begint op do 11 mrt, 19:30 CET.`);
    expect(mail[1].text).toContain(`${title} is verplaatst. Oude tijd: do 11 mrt, 19:30 CET \u00b7 Nieuwe tijd: vr 12 mrt, 19:30 CET.`);
    expect(mail[2].text).toContain('vrijdag 12 maart 2027');
    expect(mail[0].html).toMatch(/<html[^>]*lang="nl"/);
    expect(sent.map((d) => [d.template, d.messageLocale, d.localeReason])).toEqual([
      ['booking-confirmed', 'nl', 'contact_language'],
      ['event-rescheduled', 'nl', 'contact_language'],
      ['attendee-reminder', 'nl', 'contact_language'],
    ]);
  });

  it('nl-BE gets the same Dutch, by its base language', async () => {
    const { mail, sent } = await threeMessages('nl-BE');
    expect(mail.map((m) => m.subject)).toEqual([`Je bent ingeschreven: ${title}`, `${title} is verplaatst`, expect.stringMatching(new RegExp(`^Herinnering: ${title} \u2013 vr 12 mrt`))]);
    for (const m of mail) expect(englishIn(m), m.text ?? '').toEqual([]);
    expect(mail[0].html).toMatch(/<html[^>]*lang="nl-BE"/);
    expect(sent.map((d) => [d.messageLocale, d.localeReason])).toEqual(Array(3).fill(['nl', 'base_language']));
  });

  it('pt-BR with only pt shipped gets Portuguese', async () => {
    const { mail, sent } = await threeMessages('pt-BR');
    expect(mail.map((m) => m.subject)).toEqual([`Inscrição confirmada: ${title}`, `Novo horário: ${title}`, expect.stringMatching(new RegExp(`^Lembrete: ${title} \u2013 sex\\., 12 de mar\\.`))]);
    for (const m of mail) expect(englishIn(m), m.text ?? '').toEqual([]);
    expect(mail[0].text).toContain(`Sua vaga em ${title} está confirmada.`);
    expect(sent.map((d) => [d.messageLocale, d.localeReason])).toEqual(Array(3).fill(['pt', 'base_language']));
  });

  it('an unknown language (xx) gets the organisation\'s default language, German here — not English', async () => {
    const { mail, sent } = await threeMessages('xx', 'de');
    expect(mail.map((m) => m.subject)).toEqual([
      `Ihre Buchung ist bestätigt: ${title}`,
      `${title} wurde verschoben`,
      `Erinnerung: ${title} \u2013 Fr., 12. März, 19:30 MEZ`,
    ]);
    for (const m of mail) expect(englishIn(m), m.text ?? '').toEqual([]);
    expect(mail[0].text).toContain('Donnerstag, 11. März 2027, 19:30–22:00 MEZ');
    expect(sent.map((d) => [d.messageLocale, d.localeReason])).toEqual(Array(3).fill(['de', 'organisation_default']));
  });

  it('the language is fixed at the claim: a retry after the person switched to German still writes Dutch', async () => {
    const { tenant } = await tenantWithRules(db(), [], 'Europe/Amsterdam');
    await db().insert(notificationSettings).values({ tenantId: tenant.id, policy: defaultPolicy });
    const event = await createEvent(db(), tenant.id, { title, startsAt: '2027-03-11T18:30:00Z', endsAt: '2027-03-11T21:00:00Z', timeZone: 'Europe/Amsterdam' });
    h.clock.set('2027-03-01T10:00:00Z');
    flaky.failNext(1);
    await addBooking(db(), tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'jonas@example.test', name: person, locale: 'nl' } }, h.clock.now());
    await h.drain();
    const [claimed] = await db().select().from(deliveries);
    expect([claimed.status, claimed.messageLocale, claimed.localeReason]).toEqual(['retrying', 'nl', 'contact_language']);
    expect(await h.caught()).toHaveLength(0);
    await db().update(contacts).set({ locale: 'de' }).where(eq(contacts.email, 'jonas@example.test'));
    await h.tick(claimed.nextAttemptAt!);
    const mail = await h.caught();
    expect(mail.map((m) => m.subject)).toEqual([`Je bent ingeschreven: ${title}`]);
    const [sent] = await db().select().from(deliveries);
    expect([sent.status, sent.messageLocale]).toEqual(['accepted', 'nl']);
  });

  it('the same person with the organisation\'s default English reads English, recorded as the organisation\'s default', async () => {
    const { mail, sent } = await threeMessages('xx');
    expect(mail[0].subject).toBe(`You're booked: ${title}`);
    expect(englishIn(mail[0]).length).toBeGreaterThan(5);
    expect(sent.map((d) => [d.messageLocale, d.localeReason])).toEqual(Array(3).fill(['en', 'organisation_default']));
  });
});
