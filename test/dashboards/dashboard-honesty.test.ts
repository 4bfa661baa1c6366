/**
 * Honest numbers on the dashboard (issue #12), against real PostgreSQL, the real queue and the real SMTP catcher on
 * a simulated clock:
 *  - the dispatch-lag chart counts only reminders planned before their due instant; a booking made after the due
 *    instant is sent at once and counted as "planned late", not as minutes of lag;
 *  - the reminders list (`/reminders`) that the "due" and "Expired" tiles open counts exactly what the tiles count,
 *    shows the expired reminders (they have no delivery), and only the tenant's own;
 *  - mail to an external guest goes out in the guest organisation's name: the dashboard's "sent" counts it for the
 *    host, the mailbox lists it under the guest's organisation, and both numbers say so.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { dashboardCounts, dispatchLagByHour, guestMailCounts, latePlannedSends } from '@/db/queries/dashboards/dashboard';
import { expireOverdueReminders } from '@/db/queries/sending/dispatch';
import { countCaughtMessages } from '@/dev/queries/mailbox';
import { listReminders } from '@/db/queries/scheduling/reminders-list';
import { reminders } from '@/db/schema';
import { dashboardWindows, fillLag, hourBuckets, summarizeLag } from '@/domain/dashboards/dashboard';
import { reminderListQuery } from '@/domain/scheduling/reminder-list';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { allowGuestsFrom } from '@/server/organisations/tenants';
import { createHarness, type Harness } from '@/test/support/harness';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
const db = () => h!.tdb.db;
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe('dispatch lag', () => {
  it('a reminder planned after its due instant is not lag: it counts as planned late (the scheduler was 0.3 s late)', async () => {
    h = await createHarness();
    // One rule: 1 hour before the start, useful for 30 minutes. Event at 12:00Z → due 11:00Z, useful until 11:30Z.
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H', window: 1800 }]);
    const { event, booking: early } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-03T12:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-05-01T09:00:00Z'), {
      email: 'early@example.test',
    });
    // The row's created_at is the database's now(); set it to the booking instant of this simulated timeline.
    await h.tdb.sql`update reminders set created_at = '2027-05-01T09:00:00Z' where booking_id = ${early.id}`;
    await h.tick('2027-06-03T11:00:00.300Z'); // sent 0.3 s after its due instant

    // 11:05: a second person books; their reminder was due at 11:00, so it goes out at once (inside its window).
    const late = await addBooking(db(), tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'late@example.test' } }, new Date('2027-06-03T11:05:00Z'));
    await h.tdb.sql`update reminders set created_at = '2027-06-03T11:05:00Z' where booking_id = ${late.id}`;
    await h.tick('2027-06-03T11:05:00.400Z');
    expect((await h.caught()).map((m) => m.envelopeTo[0]).sort()).toEqual(['early@example.test', 'late@example.test']);

    const now = new Date('2027-06-03T11:10:00Z');
    const buckets = hourBuckets(now, 'Europe/Amsterdam', 24);
    const w = { windowStart: buckets[0]!.start, windowEnd: now };
    const points = fillLag(buckets, await dispatchLagByHour(db(), tenant.id, w));
    const withSends = points.filter((p) => p.count > 0);
    // Only the reminder planned in time: one first attempt, 0.3 s — not 5 min for the late booking.
    expect(withSends).toHaveLength(1);
    expect(withSends[0]!.count).toBe(1);
    expect(withSends[0]!.p95Seconds).toBeCloseTo(0.3, 3);
    expect(summarizeLag(points, 'CEST')).toContain('Worst hourly p95: 0.3 s');
    // …and the late-planned one on its own: sent 0.4 s after it was planned.
    const latePlanned = await latePlannedSends(db(), tenant.id, w);
    expect(latePlanned.count).toBe(1);
    expect(latePlanned.p50Seconds).toBeCloseTo(0.4, 3);
  });
});

describe('the reminders list behind the tiles', () => {
  it('upcoming/expired views count what the tiles count, list the expired reminder with a readable reason, and stay in the tenant', async () => {
    h = await createHarness();
    const now = new Date('2027-06-10T10:00:00Z');
    const setup = async (name: string) => {
      const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H', window: 1800, name: 'Hour before' }]);
      const booked = new Date('2027-06-01T08:00:00Z');
      const soon = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-10T11:30:00Z', timeZone: 'Europe/Amsterdam', title: `${name}: soon` }, booked); // due 10:30
      await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-10T20:00:00Z', timeZone: 'Europe/Amsterdam', title: `${name}: tonight` }, booked); // due 19:00
      await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-10T09:30:00Z', timeZone: 'America/New_York', title: `${name}: missed` }, booked); // due 08:30, useful until 09:00
      return { tenant, soon };
    };
    const mine = await setup('Mine');
    const other = await setup('Other');
    // The dispatcher was down: at 10:00 it expires the reminder whose window closed at 09:00.
    expect(await expireOverdueReminders(db(), now, 100)).toBe(2);

    const counts = await dashboardCounts(db(), mine.tenant.id, dashboardWindows(now, 'Europe/Amsterdam'));
    const list = (view: 'upcoming' | 'expired', window: '1h' | '24h', page = { limit: 50, offset: 0 }) =>
      listReminders(db(), mine.tenant.id, reminderListQuery(view, window, now), page);

    const nextHour = await list('upcoming', '1h');
    expect(nextHour.total).toBe(counts.dueNextHour);
    expect(nextHour.items.map((r) => r.eventTitle)).toEqual(['Mine: soon']);
    const nextDay = await list('upcoming', '24h');
    expect(nextDay.total).toBe(counts.dueNext24h);
    expect(nextDay.items.map((r) => r.eventTitle)).toEqual(['Mine: soon', 'Mine: tonight']); // soonest first

    const expired = await list('expired', '24h');
    expect(counts.expiredReminders24h).toBe(1);
    expect(expired.total).toBe(counts.expiredReminders24h);
    const [x] = expired.items;
    expect(x).toMatchObject({ eventTitle: 'Mine: missed', eventZone: 'America/New_York', status: 'expired', kind: 'rule', ruleName: 'Hour before', role: 'attendee' });
    // Its reason names the instants in the event's zone — no raw ISO instant (issue #12).
    expect(x!.statusReason).toMatch(/^not dispatched before its expiry instant Thu 10 Jun, 05:00 America\/New_York \(the dispatcher next ran Thu 10 Jun, 06:00:00/);
    expect(x!.statusReason).not.toMatch(ISO);

    // Paging keeps the order; another tenant's rows are never listed nor counted.
    expect((await list('upcoming', '24h', { limit: 1, offset: 1 })).items.map((r) => r.eventTitle)).toEqual(['Mine: tonight']);
    const all = await listReminders(db(), mine.tenant.id, reminderListQuery('upcoming', 'all', new Date('2027-01-01T00:00:00Z')), { limit: 50, offset: 0 });
    expect(all.items.every((r) => r.eventTitle.startsWith('Mine'))).toBe(true);
    const theirs = await db().select({ id: reminders.id }).from(reminders).where(eq(reminders.tenantId, other.tenant.id));
    expect(theirs.length).toBeGreaterThan(0);
    expect(all.items.some((r) => theirs.some((t) => t.id === r.id))).toBe(false);
    // A channel filter narrows the list (nothing goes by SMS here).
    expect((await listReminders(db(), mine.tenant.id, reminderListQuery('upcoming', '24h', now), { channel: 'sms', limit: 50, offset: 0 })).total).toBe(0);
  });
});

describe('sent to external guests', () => {
  it('the host’s dashboard counts mail to a guest as sent; the mailbox lists it under the guest’s organisation; both say how many', async () => {
    h = await createHarness();
    const { tenant: host } = await tenantWithRules(db(), [{ offset: '-PT1H', window: 1800 }]);
    const { tenant: partner } = await tenantWithRules(db(), []);
    await allowGuestsFrom(db(), partner.id, host.id);
    // Each organisation sends from its own address (the mailbox shows an organisation what it sent from it).
    await h.tdb.sql`update tenants set sender_email = 'hello@partner.test', sender_verified_email = 'hello@partner.test', sender_verified_via = 'operator' where id = ${partner.id}`;
    const event = await createEvent(db(), host.id, { title: 'Joint workshop', startsAt: '2027-06-03T12:00:00Z', endsAt: '2027-06-03T13:00:00Z', timeZone: 'Europe/Amsterdam' });
    const booked = new Date('2027-05-01T09:00:00Z');
    await addBooking(db(), host.id, { eventId: event.id, role: 'attendee', contact: { email: 'own@example.test' } }, booked);
    await addBooking(db(), host.id, { eventId: event.id, role: 'external', contact: { email: 'guest@partner.test' }, guestTenantId: partner.id }, booked);
    await h.tick('2027-06-03T11:00:01Z');
    expect(await h.caught()).toHaveLength(2);

    const now = new Date('2027-06-03T11:30:00Z');
    const counts = await dashboardCounts(db(), host.id, dashboardWindows(now, 'Europe/Amsterdam'));
    expect(counts).toMatchObject({ sentToday: 2, sentTodayToGuests: 1 });
    const hostMailbox = await countCaughtMessages(db(), { tenantId: host.id, viewerEmail: 'staff@example.test' });
    const partnerMailbox = await countCaughtMessages(db(), { tenantId: partner.id, viewerEmail: 'staff@example.test' });
    // The disagreement the notes explain: 2 sent, 1 in the host's mailbox, the other in the partner's.
    expect([hostMailbox.email, partnerMailbox.email]).toEqual([1, 1]);
    expect(await guestMailCounts(db(), host.id)).toEqual({ sentToGuests: 1, sentInOurName: 0 });
    expect(await guestMailCounts(db(), partner.id)).toEqual({ sentToGuests: 0, sentInOurName: 1 });
    expect(hostMailbox.email + (await guestMailCounts(db(), host.id)).sentToGuests).toBe(counts.sentToday);
    const [{ n }] = await h.tdb.db.execute<{ n: number }>(sql`select count(*)::int as n from deliveries where tenant_id = ${partner.id}`);
    expect(n).toBe(0); // the partner sent nothing itself: its dashboard says 0
  });
});
