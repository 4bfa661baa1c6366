/**
 * SMTP failure semantics through the real send path against a fault-injecting SMTP peer: connection refused
 * and 4xx before DATA retry later under the same message key; a drop after DATA began is `unknown` and never
 * resent; 550 to RCPT is `failed`; a retry that would land after the expiry instant ends `expired`; a full
 * mailbox (552 5.2.2) is retried, never suppressed; every attempt records the server's own reply text. The channel
 * pools its connections: a drop after DATA began on a reused connection is `unknown` just the same.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSmtpChannel, type SmtpChannel } from '@/channels/smtp';
import type { EmailChannel } from '@/channels/types';
import { freePort } from '@/db/embedded';
import { deliveries, deliveryAttempts, reminders, suppressions } from '@/db/schema';
import { createHarness, type Harness } from '@/test/support/harness';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';
import { startSmtpPeer, type SmtpPeer } from '@/test/support/smtp-peer';

let h: Harness;
let peer: SmtpPeer;
let target = 'smtp://127.0.0.1:1?ignoreTLS=true';
/** Pooled channels by URL (each test starts without warm connections); `maxConnections` for the next one made. */
const pools = new Map<string, SmtpChannel>();
let maxConnections = 5;
const closePools = async () => {
  await Promise.all([...pools.values()].map((c) => c.close()));
  pools.clear();
};
/** A channel whose SMTP URL the test can change between attempts. */
const switchable: EmailChannel = {
  name: 'smtp',
  close: closePools,
  send: (m, o) => {
    if (!pools.has(target)) pools.set(target, createSmtpChannel({ url: target, connectTimeoutMs: 2000, socketTimeoutMs: 5000, maxConnections }));
    return pools.get(target)!.send(m, o);
  },
};

beforeAll(async () => {
  peer = await startSmtpPeer();
  h = await createHarness({ channel: switchable });
  // A fixed jitter draw: backoff = 0.5 × ceiling (2.5 s after a first failure with the default policy).
  h.ctx.sendDeps.random = () => 0.5;
});
afterAll(async () => {
  await closePools();
  await h?.close();
  await peer?.close();
});
beforeEach(async () => {
  await closePools();
  maxConnections = 5;
  await h.tdb.reset();
  peer.received.length = 0;
  peer.script('accept');
  target = peer.url;
});

const db = () => h.tdb.db;
async function oneReminder(window = 3600) {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H', window }]);
  return eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
}
const delivery = async () => (await db().select().from(deliveries))[0];
const attempts = async () => db().select().from(deliveryAttempts).orderBy(deliveryAttempts.attemptNo);

describe('SMTP faults', () => {
  it('connection refused → retrying under the same key, then sent once when the server is back', async () => {
    await oneReminder();
    target = `smtp://127.0.0.1:${await freePort()}?ignoreTLS=true`; // nothing listens there
    await h.tick('2027-06-15T07:00:00Z');
    const d1 = await delivery();
    expect(d1.status).toBe('retrying');
    expect(d1.statusReason).toMatch(/^transient/);
    expect(d1.nextAttemptAt!.getTime()).toBeGreaterThan(new Date('2027-06-15T07:00:00Z').getTime());
    expect((await attempts())[0]).toMatchObject({ attemptNo: 1, outcome: 'transient' });
    target = peer.url;
    await h.tick(new Date(d1.nextAttemptAt!.getTime() + 1));
    const d2 = await delivery();
    expect(d2.status).toBe('accepted');
    expect(d2.id).toBe(d1.id);
    expect(d2.messageKey).toBe(d1.messageKey);
    expect(d2.attemptCount).toBe(2);
    expect(peer.received).toHaveLength(1);
    expect(await db().select().from(deliveries)).toHaveLength(1);
  });

  it('451 to RCPT TO → retrying, then accepted; one message', async () => {
    await oneReminder();
    peer.script('tempfail-rcpt', 'accept');
    await h.tick('2027-06-15T07:00:00Z');
    const d1 = await delivery();
    expect(d1.status).toBe('retrying');
    await h.tick(new Date(d1.nextAttemptAt!.getTime() + 1));
    expect((await delivery()).status).toBe('accepted');
    expect(peer.received).toHaveLength(1);
  });

  it('the connection drops after DATA began → unknown, never resent automatically', async () => {
    await oneReminder();
    peer.script('drop-after-data');
    await h.tick('2027-06-15T07:00:00Z');
    const d = await delivery();
    expect(d.status).toBe('unknown');
    expect(d.statusReason).toContain('may or may not have been sent');
    expect(peer.received).toHaveLength(1); // the peer has it
    peer.script('accept');
    await h.tick('2027-06-15T07:10:00Z');
    await h.tick('2027-06-15T07:59:00Z');
    expect(peer.received).toHaveLength(1);
    expect(await attempts()).toHaveLength(1);
    expect((await attempts())[0].outcome).toBe('ambiguous');
  });

  it('on a reused connection: a drop after DATA began → unknown for that message only, never resent, the connection not reused', async () => {
    maxConnections = 1; // both reminders over one connection, one after the other
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H', window: 3600 }]);
    for (const hour of ['08', '09']) {
      await eventWithBooking(db(), tenant.id, { startsAt: `2027-06-15T${hour}:00:00Z`, timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    }
    peer.script('accept', 'drop-after-data', 'accept');
    await h.tick('2027-06-15T07:00:00Z'); // the 08:00 reminder: accepted, its connection kept
    await h.tick('2027-06-15T08:00:00Z'); // the 09:00 reminder on the same connection: dropped after DATA
    expect(peer.received).toHaveLength(2);
    expect(peer.received[1].connectedAt).toBe(peer.received[0].connectedAt); // one connection (one peer session)
    const rows = await db().select().from(deliveries).orderBy(deliveries.createdAt);
    expect(rows.map((d) => d.status)).toEqual(['accepted', 'unknown']);
    expect(rows[1].statusReason).toContain('may or may not have been sent');
    expect(pools.get(target)!.stats()).toMatchObject({ open: 0, idle: 0 }); // the failed connection is gone
    await h.tick('2027-06-15T08:30:00Z');
    expect(peer.received).toHaveLength(2);
    expect((await attempts()).map((a) => a.outcome).sort()).toEqual(['accepted', 'ambiguous']);
  });

  it('550 to RCPT TO → failed at once, no retry', async () => {
    await oneReminder();
    peer.script('reject-rcpt');
    await h.tick('2027-06-15T07:00:00Z');
    const d = await delivery();
    expect(d.status).toBe('failed');
    expect(d.statusReason).toContain('invalid_recipient');
    await h.tick('2027-06-15T07:30:00Z');
    expect(await attempts()).toHaveLength(1);
    expect(peer.received).toHaveLength(0);
  });

  it('552 5.2.2 (mailbox full) to RCPT TO → retrying within the window, the address is not suppressed', async () => {
    await oneReminder();
    peer.script('rcpt:552 5.2.2 Mailbox full', 'accept');
    await h.tick('2027-06-15T07:00:00Z');
    const d1 = await delivery();
    expect(d1.status).toBe('retrying');
    expect(d1.lastError).toContain('552 5.2.2 Mailbox full');
    expect(await db().select().from(suppressions)).toHaveLength(0);
    const [a1] = await attempts();
    expect(a1).toMatchObject({ attemptNo: 1, outcome: 'transient', errorCode: '552', providerResponse: '552 5.2.2 Mailbox full' });
    expect(a1.errorMessage).toContain('552 5.2.2');
    // The mailbox has room again: the same delivery goes out under the same key.
    await h.tick(new Date(d1.nextAttemptAt!.getTime() + 1));
    expect((await delivery()).status).toBe('accepted');
    expect(peer.received).toHaveLength(1);
    expect(await db().select().from(suppressions)).toHaveLength(0);
  });

  it("421 4.3.2 at the greeting and to RCPT TO → retrying; each attempt records the server's own reply", async () => {
    await oneReminder();
    peer.script('greet:421 4.3.2 Service shutting down', 'rcpt:421 4.3.2 Service shutting down', 'accept');
    await h.tick('2027-06-15T07:00:00Z');
    const d1 = await delivery();
    expect(d1.status).toBe('retrying');
    await h.tick(new Date(d1.nextAttemptAt!.getTime() + 1));
    const d2 = await delivery();
    expect(d2.status).toBe('retrying');
    await h.tick(new Date(d2.nextAttemptAt!.getTime() + 1));
    expect((await delivery()).status).toBe('accepted');
    const [a1, a2] = await attempts();
    for (const a of [a1, a2]) {
      expect(a).toMatchObject({ outcome: 'transient', errorCode: '421', providerResponse: '421 4.3.2 Service shutting down' });
      expect(a.errorMessage).toBe('421 4.3.2 Service shutting down');
    }
    expect(peer.received).toHaveLength(1);
  });

  it('a retry that would land after the expiry instant ends expired instead', async () => {
    const { booking } = await oneReminder(1); // one-second late-send window; the retry would come 2.5 s later
    target = `smtp://127.0.0.1:${await freePort()}?ignoreTLS=true`;
    await h.tick('2027-06-15T07:00:00Z');
    const d = await delivery();
    expect(d.status).toBe('expired');
    expect(d.statusReason).toContain('after the expiry instant');
    const [r] = await db().select().from(reminders).where(eq(reminders.bookingId, booking.id));
    expect(r.status).toBe('done');
    expect(peer.received).toHaveLength(0);
  });
});
