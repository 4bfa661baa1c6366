/**
 * Issue #9 scenario: a booking's confirmation, sent by a real worker process (`npm run worker`), which is
 * SIGKILLed between claiming the message key and learning the SMTP outcome → one email or `unknown`, never two.
 * The kill happens after the catcher stored the message and before it answered 250: the worst case.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { caughtMessages, deliveries, notificationSettings } from '@/db/schema';
import { defaultPolicy } from '@/domain/notifications/notification-policy';
import { startMailCatcher, type MailCatcher } from '@/dev/mail-catcher';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { tenantWithRules } from '@/test/support/fixtures';
import { spawnWorker, waitFor, type WorkerProcess } from '@/test/support/processes';
import { databaseNow, waitForQueueIdle } from '@/test/support/lock-wait';

let tdb: TestDatabase;
const workers: WorkerProcess[] = [];
const catchers: MailCatcher[] = [];
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await Promise.all(catchers.splice(0).map((c) => c.close()));
});
afterAll(async () => tdb?.close());
const db = () => tdb.db;

describe('confirmation email and a SIGKILL mid-send', () => {
  it('one email, the delivery ends unknown, nothing is resent after recovery', async () => {
    let victim: WorkerProcess | undefined;
    let killed = false;
    const catcher = await startMailCatcher({
      db: db(),
      beforeReply: async () => {
        if (killed) return;
        killed = true;
        // Gone before the reply (a condition, not a pause).
        await victim!.kill9AndWait();
      },
    });
    catchers.push(catcher);
    const { tenant } = await tenantWithRules(db(), [], 'Europe/Lisbon');
    await db().insert(notificationSettings).values({ tenantId: tenant.id, policy: defaultPolicy });
    const event = await createEvent(db(), tenant.id, { title: 'Tile painting', startsAt: '2027-07-01T09:00:00Z', endsAt: '2027-07-01T11:00:00Z', timeZone: 'Europe/Lisbon' });
    victim = spawnWorker({ DATABASE_URL: tdb.url, SMTP_URL: catcher.url });
    workers.push(victim);
    await victim.ready;
    await addBooking(db(), tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'ana@example.test', name: 'Ana' } }, new Date());
    await waitFor(async () => killed && victim!.child.signalCode === 'SIGKILL', 30_000, () => victim!.output());
    expect((await db().select().from(deliveries))[0].status).toBe('sending');
    // The job the killed worker still holds stays locked for hours: the wait below ignores it.
    const victimDead = await databaseNow(db());
    // A new worker whose clock runs past every lease (and graphile-worker's 4-hour job lock) recovers it.
    const rescuer = spawnWorker({ DATABASE_URL: tdb.url, SMTP_URL: catcher.url, PUNCTUAL_CLOCK_OFFSET_MS: String(5 * 3600_000) });
    workers.push(rescuer);
    await rescuer.ready;
    await waitFor(async () => (await db().select().from(deliveries))[0].status === 'unknown', 20_000, () => rescuer.output());
    // Whatever else the rescuer would run has run: nothing resent.
    await waitForQueueIdle(db(), { ignoreLockedBefore: victimDead });
    const mail = await db().select().from(caughtMessages).where(eq(caughtMessages.channel, 'email'));
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toContain('Tile painting');
    const ds = await db().select().from(deliveries);
    expect(ds).toHaveLength(1);
    expect(ds[0].status).toBe('unknown');
    expect(ds[0].messageKey).toMatch(/^ntf:.*:booking_confirmed:.*:r1:.*:email$/);
    const [{ n }] = await db().select({ n: sql<number>`count(*)::int` }).from(caughtMessages);
    expect(n).toBe(1);
  }, 90_000);
});
