/** The demo seed that `npm start` runs: what a new user sees in the first minutes, and idempotence. */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, contacts, events, notificationSettings, reminders } from '../db/schema';
import { defaultPolicy } from '../domain/notification-policy';
import { parsePhone } from '../domain/phone';
import { isWebhookSecret } from '../domain/webhook-secret';
import { seedDemo } from '../server/seed';
import { createTestDatabase, type TestDatabase } from './support/db';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.close());

describe('seedDemo', () => {
  it('seeds events minutes from now, all three roles, one reminder due at once, expired ones with reasons; then is idempotent', async () => {
    const now = new Date('2027-02-10T09:34:59.182Z');
    const r1 = await seedDemo(tdb.db, now);
    expect(r1).toEqual({ tenantSlug: 'demo', createdTenant: true, createdEvents: 3 });
    const evs = await tdb.db.select().from(events);
    expect(evs).toHaveLength(3);
    // Whole minutes: the seed rounds `now` up.
    expect(evs.every((e) => e.startsAt.getUTCSeconds() === 0 && e.startsAt.getUTCMilliseconds() === 0)).toBe(true);
    expect(evs.filter((e) => e.allDay)).toHaveLength(1);
    const roles = new Set((await tdb.db.select().from(bookings)).map((b) => b.role));
    expect(roles).toEqual(new Set(['attendee', 'external', 'host']));
    const rs = await tdb.db.select().from(reminders);
    const dueNow = rs.filter((r) => r.status === 'scheduled' && r.dueAt <= now);
    expect(dueNow.length).toBeGreaterThanOrEqual(1); // the host heads-up: sent as soon as the worker runs
    const soon = rs.filter((r) => r.status === 'scheduled' && r.dueAt > now && r.dueAt.getTime() - now.getTime() < 20 * 60_000);
    expect(soon.length).toBeGreaterThanOrEqual(5); // more during the first minutes
    const expired = rs.filter((r) => r.status === 'expired');
    expect(expired.length).toBeGreaterThan(0);
    expect(expired.every((r) => (r.statusReason ?? '').startsWith('planned after its expiry instant'))).toBe(true);

    const r2 = await seedDemo(tdb.db, new Date(now.getTime() + 60_000));
    expect(r2.createdEvents).toBe(0);
    expect(await tdb.db.select().from(events)).toHaveLength(3);

    // A day later nothing starts soon: a fresh batch, same tenants.
    const r3 = await seedDemo(tdb.db, new Date(now.getTime() + 86_400_000));
    expect(r3).toEqual({ tenantSlug: 'demo', createdTenant: false, createdEvents: 3 });
    const [{ n }] = await tdb.db.execute<{ n: number }>(sql`select count(*)::int as n from tenants`);
    expect(n).toBe(2);
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
    expect(ada.preferences).toEqual({ reminders: ['email'], booking_updates: ['sms'] });
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
