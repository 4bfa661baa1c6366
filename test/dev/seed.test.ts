/** The demo seed that `npm start` runs: what a new user sees in the first minutes, and idempotence. */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardCounts, dispatchLagByHour, latePlannedSends } from '@/db/queries/dashboards/dashboard';
import { alertStates, bookings, caughtMessages, contacts, deliveries, deliveryAttempts, events, notificationSettings, reminders, tenants } from '@/db/schema';
import { evaluateAlerts } from '@/server/alerts/evaluation';
import { dashboardWindows, hourBuckets, isLatePlanned } from '@/domain/dashboards/dashboard';
import { messageIdFor } from '@/domain/keys';
import { defaultPolicy } from '@/domain/notifications/notification-policy';
import { parsePhone } from '@/domain/phone';
import { isWebhookSecret } from '@/domain/sending/webhook-secret';
import { seedDemo } from '@/dev/seed';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.close());

describe('seedDemo', () => {
  it('seeds a working day: history sent on time, one dead letter and one unknown outcome, reminders in the next minutes, nothing expired; then is idempotent', async () => {
    const now = new Date('2027-02-10T09:34:59.182Z');
    const r1 = await seedDemo(tdb.db, now);
    expect(r1).toEqual({ tenantSlug: 'demo', createdTenant: true, createdEvents: 5 });
    const evs = await tdb.db.select().from(events);
    expect(evs).toHaveLength(5);
    // Whole minutes: the seed rounds `now` up.
    expect(evs.every((e) => e.startsAt.getUTCSeconds() === 0 && e.startsAt.getUTCMilliseconds() === 0)).toBe(true);
    expect(evs.filter((e) => e.allDay)).toHaveLength(1);
    expect(evs.filter((e) => e.startsAt < now)).toHaveLength(2); // earlier today
    const roles = new Set((await tdb.db.select().from(bookings)).map((b) => b.role));
    expect(roles).toEqual(new Set(['attendee', 'external', 'host']));

    const rs = await tdb.db.select().from(reminders);
    // Nothing expired on a fresh start, and nothing overdue: every message due so far went out in the history.
    expect(rs.filter((r) => r.status === 'expired')).toEqual([]);
    expect(rs.filter((r) => r.status === 'scheduled' && r.dueAt <= now)).toEqual([]);
    // Every reminder was planned before its due instant (booked two days ago, or a notification of a booking).
    expect(rs.filter((r) => isLatePlanned(r))).toEqual([]);
    // Reminders go out during the first minutes.
    const soon = rs.filter((r) => r.status === 'scheduled' && r.dueAt > now && r.dueAt.getTime() - now.getTime() < 20 * 60_000);
    expect(soon.length).toBeGreaterThanOrEqual(5);
    expect(Math.min(...soon.map((r) => r.dueAt.getTime() - now.getTime()))).toBeLessThan(2 * 60_000);

    // The history: messages sent on time over the past hours, with real attempts.
    const ds = await tdb.db.select().from(deliveries);
    const accepted = ds.filter((d) => d.status === 'accepted');
    expect(accepted.length).toBeGreaterThanOrEqual(15);
    const attempts = await tdb.db.select().from(deliveryAttempts);
    const firstOf = new Map(attempts.filter((a) => a.attemptNo === 1).map((a) => [a.deliveryId, a]));
    const byId = new Map(rs.map((r) => [r.id, r]));
    for (const d of ds) {
      const a = firstOf.get(d.id)!;
      const lag = a.startedAt.getTime() - byId.get(d.reminderId!)!.dueAt.getTime();
      expect(lag, d.messageKey).toBeGreaterThan(0);
      expect(lag, d.messageKey).toBeLessThan(1500);
      expect(a.endedAt!.getTime()).toBeGreaterThan(a.startedAt.getTime());
      // The claim came just before the first attempt (not the seed's own clock).
      expect(Math.abs(d.createdAt.getTime() - a.startedAt.getTime())).toBeLessThan(1000);
      expect(a.startedAt < now).toBe(true);
    }
    // One retry after a busy SMTP server; the other attempts went through the first time.
    expect(attempts.filter((a) => a.outcome === 'transient')).toHaveLength(1);
    // One dead letter and one unknown outcome to try the buttons on: booking confirmations of this morning, whose
    // reminders stay sendable for the rest of the day (a replay or "send again" is not refused as too late).
    const dead = ds.filter((d) => d.status === 'dead');
    const unknown = ds.filter((d) => d.status === 'unknown');
    expect(dead).toHaveLength(1);
    expect(unknown).toHaveLength(1);
    expect(dead[0]!).toMatchObject({ repairOwner: 'configuration', channel: 'email', address: 'noor@demo.punctual.local' });
    expect(dead[0]!.statusReason).toContain('5.7.1');
    expect(unknown[0]!).toMatchObject({ channel: 'email', address: 'theo@demo.punctual.local' });
    for (const d of [...dead, ...unknown]) expect(byId.get(d.reminderId!)!.expiresAt.getTime() - now.getTime()).toBeGreaterThan(20 * 3600_000);
    // The mailbox caught what was accepted (and the message whose connection dropped), at the simulated instants.
    const caught = await tdb.db.select().from(caughtMessages);
    const acceptedEmail = accepted.filter((d) => d.channel === 'email');
    const alertMails = caught.filter((m) => m.channel === 'email' && (m.subject ?? '').startsWith('[Punctual]'));
    expect(caught.filter((m) => m.channel === 'email')).toHaveLength(acceptedEmail.length + 1 + alertMails.length);
    const caughtIds = new Set(caught.map((m) => m.messageId));
    for (const d of acceptedEmail) expect(caughtIds.has(messageIdFor(d.messageKey)), d.messageKey).toBe(true);
    expect(caught.every((m) => m.receivedAt < now)).toBe(true);

    // What the dashboard shows for it: no expired, one of each to act on, a lag of well under a second.
    const [demo] = await tdb.db.select().from(tenants).where(eq(tenants.slug, 'demo'));
    // The alerts went out a minute after each happened (the admin's email), over an hour ago for the dead letter:
    // the worker, starting now, has nothing new to tell.
    const states = await tdb.db.select().from(alertStates).where(eq(alertStates.tenantId, demo!.id));
    expect(states.map((x) => [x.condition, x.active, x.startNotified]).sort()).toEqual([
      ['dead_letters', true, true],
      ['unknown_outcomes', true, true],
    ]);
    const deadAlert = states.find((x) => x.condition === 'dead_letters')!;
    expect(now.getTime() - deadAlert.lastStartAlertAt!.getTime()).toBeGreaterThan(3_600_000);
    expect(deadAlert.detail).toMatch(/^1 new dead letter, first at \w{3} \d{1,2} \w{3} \d{4}, \d\d:\d\d:\d\d CET$/);
    expect(alertMails.map((m) => m.subject).sort()).toEqual([
      `[Punctual] Punctual Demo Studio: ${deadAlert.detail}`,
      `[Punctual] Punctual Demo Studio: ${states.find((x) => x.condition === 'unknown_outcomes')!.detail}`,
    ].sort());
    expect((await evaluateAlerts(tdb.db, now, { tenantId: demo!.id, publicUrl: 'http://127.0.0.1:3000' })).planned).toEqual([]);
    const counts = await dashboardCounts(tdb.db, demo!.id, dashboardWindows(now, 'Europe/Amsterdam'));
    expect(counts).toMatchObject({ expiredReminders24h: 0, expiredDeliveries24h: 0, dead: 1, unknown: 1, failedDeliveries24h: 0 });
    expect(counts.sentToday).toBeGreaterThan(5);
    const buckets = hourBuckets(now, 'Europe/Amsterdam', 24);
    const w = { windowStart: buckets[0]!.start, windowEnd: now };
    const lag = (await dispatchLagByHour(tdb.db, demo!.id, w)).filter((r) => r.count > 0);
    expect(lag.length).toBeGreaterThanOrEqual(3); // messages over several hours
    expect(Math.max(...lag.map((r) => r.p95Seconds))).toBeLessThan(1.5);
    expect((await latePlannedSends(tdb.db, demo!.id, w)).count).toBe(0);

    const r2 = await seedDemo(tdb.db, new Date(now.getTime() + 60_000));
    expect(r2.createdEvents).toBe(0);
    expect(await tdb.db.select().from(events)).toHaveLength(5);
    expect(await tdb.db.select().from(deliveries)).toHaveLength(ds.length);

    // A day later nothing starts soon: a fresh batch with its own history, same tenants; the first batch is untouched.
    const r3 = await seedDemo(tdb.db, new Date(now.getTime() + 86_400_000));
    expect(r3).toEqual({ tenantSlug: 'demo', createdTenant: false, createdEvents: 5 });
    const [{ n }] = await tdb.db.execute<{ n: number }>(sql`select count(*)::int as n from tenants`);
    expect(n).toBe(2);
    const again = await tdb.db.select().from(deliveries);
    for (const d of ds) expect(again.find((x) => x.id === d.id)).toMatchObject({ status: d.status, attemptCount: d.attemptCount });
    expect((await tdb.db.select().from(reminders)).filter((r) => r.status === 'expired')).toEqual([]);
  });

  it('gives the demo tenant notification settings (webhook at the catcher) and SMS contacts; keeps them on re-seed', async () => {
    await tdb.reset();
    const now = new Date('2027-02-10T09:34:59.182Z');
    await seedDemo(tdb.db, now, { webhookCatcherUrl: 'http://127.0.0.1:4567/' });
    const [demo] = await tdb.db.execute<{ id: string }>(sql`select id from tenants where slug = 'demo'`);
    const settings = await tdb.db.select().from(notificationSettings);
    expect(settings).toHaveLength(1);
    const s1 = settings[0];
    expect(s1).toMatchObject({ tenantId: demo.id, policy: defaultPolicy, smsSender: '+15005550006', webhookUrl: 'http://127.0.0.1:4567/hooks/demo', webhookEnabled: true });
    expect(isWebhookSecret(s1.webhookSecret ?? '')).toBe(true);

    const people = new Map((await tdb.db.select().from(contacts)).map((c) => [c.email, c]));
    const ada = people.get('ada@demo.punctual.local')!;
    const lin = people.get('lin@demo.punctual.local')!;
    const hana = people.get('hana.host@demo.punctual.local')!;
    for (const c of [ada, lin, hana]) {
      expect(c.phone && parsePhone(c.phone)).toEqual({ ok: true, e164: c.phone });
      expect([...(c.preferences as { reminders: string[] }).reminders, ...(c.preferences as { booking_updates: string[] }).booking_updates]).toContain('sms');
    }
    expect(ada.preferences).toEqual({ reminders: ['email'], booking_updates: ['sms'], announcements: ['sms'] });
    expect(lin.quietHours).toEqual({ start: '22:00', end: '07:00' });
    expect(people.get('sam@demo.punctual.local')?.phone).toBeNull();
    // Reminders are planned per channel at booking time: the host's heads-up goes out by SMS as well as email.
    const hanaSms = await tdb.db.execute<{ n: number }>(
      sql`select count(*)::int as n from reminders r join bookings b on b.id = r.booking_id where b.contact_id = ${hana.id} and r.channel = 'sms'`,
    );
    expect(hanaSms[0].n).toBeGreaterThan(0);
    const adaSms = await tdb.db.execute<{ n: number }>(
      sql`select count(*)::int as n from reminders r join bookings b on b.id = r.booking_id where b.contact_id = ${ada.id} and r.channel = 'sms'`,
    );
    expect(adaSms[0].n).toBe(0); // Ada takes reminders by email only

    // Staff change Ada's preferences; a restart on another catcher port moves the endpoint and keeps the rest.
    await tdb.db.update(contacts).set({ preferences: { reminders: ['email'], booking_updates: ['email'] } }).where(eq(contacts.id, ada.id));
    await seedDemo(tdb.db, new Date(now.getTime() + 60_000), { webhookCatcherUrl: 'http://127.0.0.1:4600' });
    const [s2] = await tdb.db.select().from(notificationSettings);
    expect(s2).toMatchObject({ webhookUrl: 'http://127.0.0.1:4600/hooks/demo', webhookSecret: s1.webhookSecret, smsSender: '+15005550006', webhookEnabled: true });
    const [ada2] = await tdb.db.select().from(contacts).where(eq(contacts.id, ada.id));
    expect(ada2.preferences).toEqual({ reminders: ['email'], booking_updates: ['email'] });
    expect(await tdb.db.select().from(notificationSettings)).toHaveLength(1);

    // An endpoint staff set elsewhere is never moved to the catcher.
    await tdb.db.update(notificationSettings).set({ webhookUrl: 'https://hooks.example.com/punctual' });
    await seedDemo(tdb.db, new Date(now.getTime() + 120_000), { webhookCatcherUrl: 'http://127.0.0.1:4700' });
    expect((await tdb.db.select().from(notificationSettings))[0].webhookUrl).toBe('https://hooks.example.com/punctual');
  });

  it('without a webhook catcher (npm run seed): settings without a webhook; a later start points it at the catcher', async () => {
    await tdb.reset();
    const now = new Date('2027-02-10T09:34:59.182Z');
    await seedDemo(tdb.db, now);
    const [s1] = await tdb.db.select().from(notificationSettings);
    expect(s1).toMatchObject({ policy: defaultPolicy, smsSender: '+15005550006', webhookUrl: null, webhookSecret: null, webhookEnabled: false });
    await seedDemo(tdb.db, now, { webhookCatcherUrl: 'http://127.0.0.1:4567' });
    const [s2] = await tdb.db.select().from(notificationSettings);
    expect(s2).toMatchObject({ webhookUrl: 'http://127.0.0.1:4567/hooks/demo', webhookEnabled: true });
    expect(isWebhookSecret(s2.webhookSecret ?? '')).toBe(true);
  });
});
