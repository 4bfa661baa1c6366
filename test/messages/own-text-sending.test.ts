/**
 * Issue #22 §2 scenario, end to end (real PostgreSQL, the real queue, the real SMTP catcher): an admin publishes the
 * organisation's own German reminder text → the next reminder to a German reader is written in it (the delivery
 * records version 1); a reminder claimed before the publish and retried after it still sends Punctual's text (the
 * words are fixed at the claim, like the language).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { deliveries } from '@/db/schema';
import { publishText, saveDraft } from '@/server/messages/message-texts';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { tenantWithRules } from '@/test/support/fixtures';
import { flakyCatcherChannel } from '@/test/support/flaky-channel';
import { createHarness, type Harness } from '@/test/support/harness';

let h: Harness;
const flaky = flakyCatcherChannel(() => h.catcher.url);
const channel = flaky.channel;
beforeAll(async () => {
  h = await createHarness({ channel, deps: { random: () => 0 } });
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
const own = {
  kind: 'attendee-reminder',
  locale: 'de',
  subject: 'Schürze nicht vergessen: {eventTitle}',
  body: '**{eventTitle}** beginnt {when}.\n\n- Bitte bringen Sie eine Schürze mit.\n- Anfahrt: [Lageplan](https://example.com/plan)',
  sms: '{tenantName}: {eventTitle}, {when}. Schürze mitbringen!',
};

async function setUp() {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D', name: '24 hours before', window: 6 * 3600 }], 'Europe/Berlin');
  const id = await insertStaffUser(db(), { tenantId: tenant.id, email: 'owner@example.test', name: 'Owner', role: 'admin', passwordHash: 'not-used' });
  const admin = { tenantId: tenant.id, actor: 'owner@example.test', actorId: id!, now: new Date('2027-03-01T09:00:00Z') };
  const event = await createEvent(db(), tenant.id, { title, startsAt: '2027-03-11T18:30:00Z', endsAt: '2027-03-11T21:00:00Z', timeZone: 'Europe/Berlin' });
  h.clock.set('2027-03-01T10:00:00Z');
  await addBooking(db(), tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'jonas@example.test', name: 'Jonas Berger', locale: 'de' } }, h.clock.now());
  await h.drain();
  return { tenant, admin };
}

async function publish(admin: Awaited<ReturnType<typeof setUp>>['admin']) {
  const draft = await saveDraft(db(), admin, { ...own, rowVersion: 0 });
  return publishText(db(), admin, { kind: own.kind, locale: own.locale, rowVersion: draft.rowVersion });
}

describe("the organisation's own text on the send path", () => {
  it('published → the next reminder is written in it, and the delivery records the version', async () => {
    const { admin } = await setUp();
    await publish(admin);
    await h.tick('2027-03-10T18:45:00Z'); // due 24 h before the start
    const mail = (await h.caught()).filter((m) => m.channel === 'email');
    expect(mail.map((m) => m.subject)).toEqual([`Schürze nicht vergessen: ${title}`]);
    expect(mail[0].text).toContain('Bitte bringen Sie eine Schürze mit.');
    expect(mail[0].html).toMatch(/<strong>.*Glaze Night.*<\/strong>/);
    expect(mail[0].html).toContain('href="https://example.com/plan"');
    expect(mail[0].text).not.toMatch(/\{|\}|undefined|Invalid DateTime/);
    const [d] = await db().select().from(deliveries);
    expect([d.status, d.messageLocale, d.messageTextVersion]).toEqual(['accepted', 'de', 1]);
  });

  it('claimed before the publish and retried after it: still Punctual’s text (the words are fixed at the claim)', async () => {
    const { tenant, admin } = await setUp();
    flaky.failNext(1);
    await h.tick('2027-03-10T18:45:00Z');
    const [claimed] = await db().select().from(deliveries).where(eq(deliveries.tenantId, tenant.id));
    expect([claimed.status, claimed.messageTextVersion]).toEqual(['retrying', null]);
    await publish(admin);
    await h.tick(claimed.nextAttemptAt!);
    const mail = (await h.caught()).filter((m) => m.channel === 'email');
    expect(mail.map((m) => m.subject?.startsWith(`Erinnerung: ${title}`))).toEqual([true]);
    const [sent] = await db().select().from(deliveries).where(eq(deliveries.tenantId, tenant.id));
    expect([sent.status, sent.messageTextVersion]).toEqual(['accepted', null]);
  });
});
