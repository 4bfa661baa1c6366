/**
 * The batch send path (server/sending/send-batch.ts) through the real dispatcher, the real queue, real PostgreSQL and
 * a real fault-injecting SMTP peer: the due reminders of one tenant and channel go out as ONE `send_reminders` job,
 * and a batch is a unit of work, never of fate — one message timing out after DATA (→ `unknown`), one suppressed at
 * send time (→ `suppressed`, with the reason), one whose event was cancelled a moment before (→ `cancelled`) and the
 * rest accepted: exactly those states, one message each at the peer. Two batches (and a single send) racing for the
 * same reminders send each message once.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSmtpChannel, type SmtpChannel } from '@/channels/smtp';
import { deliveries, deliveryAttempts, events, reminders, suppressions } from '@/db/schema';
import { defaultDispatchPolicy, dispatchDue } from '@/server/sending/dispatch';
import { cancelEvent } from '@/server/scheduling/events';
import { addSuppression } from '@/server/suppressions/suppressions';
import { applyReport } from '@/server/reports/reports';
import { sendReminderBatch } from '@/server/sending/send-batch';
import { createSendWindow } from '@/server/sending/send-window';
import { sendReminder } from '@/server/sending/send-reminder';
import { createHarness, type Harness } from '@/test/support/harness';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';
import { startSmtpPeer, type SmtpPeer } from '@/test/support/smtp-peer';

const SLOW = 'slow@batch.test';
const REPORTED = 'reported@batch.test';
let h: Harness;
let peer: SmtpPeer;
let channel: SmtpChannel;

beforeAll(async () => {
  // The slow recipient's server reads the whole message, then does not answer for 12 s: past the 4 s provider
  // timeout (long enough that no other message reaches it on a loaded machine), after DATA began → ambiguous.
  peer = await startSmtpPeer(['accept'], { byRecipient: { [SLOW]: 'delay:12000', [REPORTED]: 'delay:1200' } });
  channel = createSmtpChannel({ url: peer.url, maxConnections: 10 });
  h = await createHarness({ channel, deps: { providerTimeoutMs: 4000, random: () => 0.5 } });
}, 30_000);
afterAll(async () => {
  await h?.close();
  await peer?.close();
});
beforeEach(async () => {
  await h.tdb.reset();
  peer.received.length = 0;
});

const db = () => h.tdb.db;
const DUE = '2027-06-15T07:00:00Z';

/** `n` reminders of one tenant and one rule (-PT1H before 08:00Z), each on its own event, one person each. */
async function reminderSet(emails: string[]) {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
  const out: { email: string; eventId: string; reminderId: string }[] = [];
  for (const email of emails) {
    const { event, booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam', title: `Talk for ${email}` }, new Date('2027-06-01T00:00:00Z'), { email });
    const [r] = await db().select().from(reminders).where(eq(reminders.bookingId, booking.id));
    expect(r.dueAt.toISOString()).toBe('2027-06-15T07:00:00.000Z');
    out.push({ email, eventId: event.id, reminderId: r.id });
  }
  return { tenant, reminders: out };
}

/** The waiting jobs of a task, payload and key. */
const jobsOf = (task: string) =>
  h.tdb.sql<{ payload: Record<string, unknown>; key: string | null }[]>`
    select j.payload, j.key from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
    where t.identifier = ${task} order by j.id`;

const received = (email: string) => peer.received.filter((m) => m.to.includes(email)).length;

describe('a batch is a unit of work, never of fate', () => {
  it('timeout after DATA → unknown, suppressed at send time → suppressed, event cancelled a moment before → cancelled, the rest accepted: one message each', async () => {
    const ok = ['a@batch.test', 'b@batch.test', 'c@batch.test', 'd@batch.test'];
    const SUPPRESSED = 'gone@batch.test';
    const CANCELLED = 'cancelled@batch.test';
    const STALE_ROW = 'stale@batch.test';
    const { tenant, reminders: set } = await reminderSet([...ok, SLOW, SUPPRESSED, CANCELLED, STALE_ROW]);
    h.clock.set(DUE);
    // The dispatcher claims the eight and adds ONE batch job for them (one tenant, one channel; not spread over slots).
    const r = await dispatchDue(db(), h.clock.now(), { ...defaultDispatchPolicy, sendBatchSpread: 1 });
    expect(r.dispatched).toBe(8);
    const batches = await jobsOf('send_reminders');
    expect(batches).toHaveLength(1);
    expect([...(batches[0].payload.reminderIds as string[])].sort()).toEqual(set.map((s) => s.reminderId).sort());
    expect(await jobsOf('send_reminder')).toHaveLength(0);

    // A moment before the batch runs: staff cancel one event, the address of another goes on the suppression list,
    // and a third event's row says cancelled (the send path's own re-read must catch it, invariant 4).
    const byEmail = Object.fromEntries(set.map((s) => [s.email, s]));
    await cancelEvent(db(), tenant.id, byEmail[CANCELLED].eventId, 'speaker ill', h.clock.now());
    await addSuppression(db(), tenant.id, { address: SUPPRESSED, reason: 'complained', source: 'test' });
    await db().update(events).set({ status: 'cancelled', statusReason: 'room flooded' }).where(eq(events.id, byEmail[STALE_ROW].eventId));

    await h.drain();

    const ds = await db().select().from(deliveries);
    const byReminder = new Map(ds.map((d) => [d.reminderId!, d]));
    for (const e of ok) {
      expect(byReminder.get(byEmail[e].reminderId)?.status, e).toBe('accepted');
      expect(received(e), e).toBe(1);
    }
    const slow = byReminder.get(byEmail[SLOW].reminderId)!;
    expect(slow.status).toBe('unknown');
    expect(received(SLOW)).toBe(1); // the peer has it: exactly why nobody may resend it automatically
    const [slowAttempt] = await db().select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, slow.id));
    expect(slowAttempt.outcome).toBe('ambiguous');
    const gone = byReminder.get(byEmail[SUPPRESSED].reminderId)!;
    expect(gone.status).toBe('suppressed');
    expect(gone.statusReason).toMatch(/suppress|complain/i);
    expect(gone.attemptCount).toBe(0);
    expect(received(SUPPRESSED)).toBe(0);
    for (const e of [CANCELLED, STALE_ROW]) {
      expect(byReminder.has(byEmail[e].reminderId), e).toBe(false); // nothing claimed
      const [rem] = await db().select().from(reminders).where(eq(reminders.id, byEmail[e].reminderId));
      expect(rem.status, e).toBe('cancelled');
      expect(received(e), e).toBe(0);
    }
    const [stale] = await db().select().from(reminders).where(eq(reminders.id, byEmail[STALE_ROW].reminderId));
    expect(stale.statusReason).toMatch(/cancel/i);
    // Every other reminder is done with exactly one delivery; nothing arrived twice.
    expect(ds).toHaveLength(6);
    expect(peer.received).toHaveLength(5);
    expect(new Set(peer.received.map((m) => m.messageKey)).size).toBe(5);

    // Later passes (sweeps, recovery) change nothing: the unknown one is never resent automatically.
    await h.tick('2027-06-15T07:10:00Z');
    await h.tick('2027-06-15T07:40:00Z');
    expect(peer.received).toHaveLength(5);
    const after = await db().select().from(deliveries);
    expect(after.map((d) => [d.id, d.status]).sort()).toEqual(ds.map((d) => [d.id, d.status]).sort());
  }, 30_000);

  it('the same reminders in two concurrent batches and a single send → one message each', async () => {
    const emails = Array.from({ length: 12 }, (_, i) => `race${i}@batch.test`);
    const { reminders: set } = await reminderSet(emails);
    h.clock.set(DUE);
    // Claimed by the dispatcher (`dispatched`); then three workers race for overlapping sets, in different orders.
    await dispatchDue(db(), h.clock.now(), { batchSize: 200, maxBatches: 1, staleDispatchMs: 90_000, claimLeaseMs: 60_000 });
    const ids = set.map((s) => s.reminderId);
    const results = await Promise.all([
      sendReminderBatch(h.ctx.sendDeps, ids.slice(0, 8)),
      sendReminderBatch(h.ctx.sendDeps, [...ids.slice(4)].reverse()),
      sendReminder(h.ctx.sendDeps, ids[5]),
      sendReminderBatch(h.ctx.sendDeps, ids),
    ]);
    const ds = await db().select().from(deliveries);
    expect(ds).toHaveLength(12);
    expect(new Set(ds.map((d) => d.reminderId)).size).toBe(12);
    expect(ds.every((d) => d.status === 'accepted')).toBe(true);
    expect(peer.received).toHaveLength(12);
    for (const e of emails) expect(received(e), e).toBe(1);
    // Each reminder was sent by exactly one of the racers; the others saw it done (skipped) or its key claimed.
    const [b1, b2, single, b3] = results;
    for (const id of ids) {
      const outcomes = [b1.get(id), b2.get(id), id === ids[5] ? single : undefined, b3.get(id)].filter(Boolean);
      expect(outcomes.filter((o) => o!.kind === 'delivered'), id).toHaveLength(1);
      expect(outcomes.every((o) => o!.kind === 'delivered' || o!.kind === 'skipped' || o!.kind === 'already_claimed')).toBe(true);
    }
    const rem = await db().select().from(reminders).where(inArray(reminders.id, ids));
    expect(rem.every((r) => r.status === 'done')).toBe(true);
  }, 30_000);

  it('a batch racing a cancellation of one of its events neither deadlocks nor sends to the cancelled event after it committed', async () => {
    const emails = Array.from({ length: 10 }, (_, i) => `lock${i}@batch.test`);
    const { tenant, reminders: set } = await reminderSet(emails);
    h.clock.set(DUE);
    await dispatchDue(db(), h.clock.now(), { batchSize: 200, maxBatches: 1, staleDispatchMs: 90_000, claimLeaseMs: 60_000 });
    const victim = set[6];
    const [, cancelled] = await Promise.all([
      sendReminderBatch(h.ctx.sendDeps, set.map((s) => s.reminderId)),
      cancelEvent(db(), tenant.id, victim.eventId, 'venue closed', h.clock.now()),
    ]);
    expect(cancelled.status).toBe('cancelled');
    const [rem] = await db().select().from(reminders).where(eq(reminders.id, victim.reminderId));
    const [d] = await db().select().from(deliveries).where(eq(deliveries.reminderId, victim.reminderId));
    // Either the batch locked first and sent (the cancellation then found the reminder done), or the cancellation
    // committed first and the batch's re-read saw it: never a send decided on a cancelled event.
    if (d) {
      expect(rem.status).toBe('done');
      expect(d.status).toBe('accepted');
      expect(received(victim.email)).toBe(1);
    } else {
      expect(rem.status).toBe('cancelled');
      expect(received(victim.email)).toBe(0);
    }
    for (const s of set.filter((x) => x !== victim)) expect(received(s.email), s.email).toBe(1);
  }, 30_000);

  it('batches given the same reminders in opposite orders, and single sends in between, finish without a deadlock: one message each', async () => {
    const emails = Array.from({ length: 6 }, (_, i) => `order${i}@batch.test`);
    const { reminders: set } = await reminderSet(emails);
    h.clock.set(DUE);
    await dispatchDue(db(), h.clock.now(), { batchSize: 200, maxBatches: 1, staleDispatchMs: 90_000, claimLeaseMs: 60_000 });
    const ids = set.map((s) => s.reminderId);
    // A deadlock would fail one of these with PostgreSQL's 40P01 (the batch path takes every lock in id order).
    await Promise.all([
      sendReminderBatch(h.ctx.sendDeps, ids),
      sendReminderBatch(h.ctx.sendDeps, [...ids].reverse()),
      ...[...ids].reverse().map((id) => sendReminder(h.ctx.sendDeps, id)),
    ]);
    expect(peer.received).toHaveLength(6);
    const ds = await db().select().from(deliveries);
    expect(ds).toHaveLength(6);
    expect(ds.every((d) => d.status === 'accepted')).toBe(true);
  }, 30_000);

  it('a batch holds no more deliveries in `sending` than the send window; the rest wait `dispatched` and are judged in their own wave', async () => {
    const emails = Array.from({ length: 9 }, (_, i) => `wave${i}@batch.test`);
    const { tenant, reminders: set } = await reminderSet(emails);
    h.clock.set(DUE);
    await dispatchDue(db(), h.clock.now(), { batchSize: 200, maxBatches: 1, staleDispatchMs: 90_000, claimLeaseMs: 60_000 });
    const ids = set.map((s) => s.reminderId).sort();
    // The last wave's reminder (waves go in id order); its event is cancelled while the first wave is at the provider.
    const victim = set.find((s) => s.reminderId === ids[ids.length - 1])!;
    peer.script('delay:300');
    try {
      const window = createSendWindow(3);
      let finished = false;
      const run = sendReminderBatch({ ...h.ctx.sendDeps, sendWindow: window }, ids).finally(() => (finished = true));
      let most = 0;
      let waitingWhileSending = false;
      let cancelled = false;
      while (!finished) {
        const [row] = await h.tdb.sql<{ sending: number; dispatched: number }[]>`
          select (select count(*)::int from deliveries where status = 'sending') as sending,
                 (select count(*)::int from reminders where status = 'dispatched') as dispatched`;
        most = Math.max(most, row.sending);
        if (row.sending > 0 && row.dispatched > 0) waitingWhileSending = true;
        if (row.sending > 0 && !cancelled) {
          cancelled = true;
          await cancelEvent(db(), tenant.id, victim.eventId, 'room lost', h.clock.now());
        }
      }
      const results = await run;
      expect(cancelled).toBe(true);
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(3);
      expect(waitingWhileSending).toBe(true);
      expect(window.free()).toBe(3);
      // The cancelled event's reminder was judged in its own wave, after the cancellation: nothing claimed, nothing sent.
      expect(results.get(victim.reminderId)).toMatchObject({ kind: 'skipped' });
      const [rem] = await db().select().from(reminders).where(eq(reminders.id, victim.reminderId));
      expect(rem.status).toBe('cancelled');
      expect(received(victim.email)).toBe(0);
      for (const s of set.filter((x) => x !== victim)) expect(received(s.email), s.email).toBe(1);
      const ds = await db().select().from(deliveries);
      expect(ds).toHaveLength(8);
      expect(ds.every((d) => d.status === 'accepted')).toBe(true);
    } finally {
      peer.script('accept');
    }
  }, 30_000);

  it('a bounce report that names a message while its provider call is under way waits, and applies when the batch records it accepted', async () => {
    const emails = ['rep0@batch.test', 'rep1@batch.test', REPORTED];
    const { tenant, reminders: set } = await reminderSet(emails);
    h.clock.set(DUE);
    await dispatchDue(db(), h.clock.now(), { batchSize: 200, maxBatches: 1, staleDispatchMs: 90_000, claimLeaseMs: 60_000 });
    const victim = set.find((s) => s.email === REPORTED)!;
    const run = sendReminderBatch(h.ctx.sendDeps, set.map((s) => s.reminderId));
    // The reported recipient's server holds its answer for 1.2 s: the DSN arrives meanwhile (a fast bounce).
    let d: typeof deliveries.$inferSelect | undefined;
    while (!d) [d] = await db().select().from(deliveries).where(and(eq(deliveries.reminderId, victim.reminderId), eq(deliveries.status, 'sending')));
    const r = await applyReport(db(), { source: 'smtp_dsn', providerEventId: '<fast@mx>:reported@batch.test', deliveryId: d.id, kind: 'hard_bounce', occurredAt: h.clock.now(), detail: '550 5.1.1 no such user' }, h.clock.now());
    expect(r).toMatchObject({ outcome: 'applied', status: 'sending' });
    const results = await run;
    expect(results.get(victim.reminderId)).toMatchObject({ kind: 'delivered', result: { status: 'bounced' } });
    const ds = await db().select().from(deliveries);
    expect(Object.fromEntries(ds.map((x) => [x.address, x.status]))).toEqual({ 'rep0@batch.test': 'accepted', 'rep1@batch.test': 'accepted', [REPORTED]: 'bounced' });
    expect(ds.every((x) => x.acceptedAt !== null)).toBe(true);
    const attempts = await db().select().from(deliveryAttempts);
    expect(attempts.map((a) => a.outcome)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(attempts.every((a) => a.endedAt !== null && /^250/.test(a.providerResponse ?? ''))).toBe(true);
    const live = await db().select().from(suppressions).where(eq(suppressions.tenantId, tenant.id));
    expect(live.map((x) => [x.address, x.reason])).toEqual([[REPORTED, 'hard_bounce']]);
  }, 30_000);

  it('a wake-up only claims: a stale dispatch waits for the sweep, which re-adds it', async () => {
    const emails = ['wake0@batch.test', 'wake1@batch.test'];
    await reminderSet(emails);
    h.clock.set(DUE);
    await dispatchDue(db(), h.clock.now(), { ...defaultDispatchPolicy, sendBatchMax: 1 });
    expect(await jobsOf('send_reminder')).toHaveLength(2);
    // Their jobs are lost (a worker died holding them, or a restore); past the stale-dispatch threshold.
    await h.tdb.sql`delete from graphile_worker._private_jobs`;
    h.clock.set('2027-06-15T07:05:00Z');
    const woken = await dispatchDue(db(), h.clock.now(), { ...defaultDispatchPolicy, sendBatchMax: 1 }, { claimOnly: true });
    expect(woken.redispatched).toBe(0);
    expect(await jobsOf('send_reminder')).toHaveLength(0);
    const swept = await dispatchDue(db(), h.clock.now(), { ...defaultDispatchPolicy, sendBatchMax: 1 });
    expect(swept.redispatched).toBe(2);
    expect(await jobsOf('send_reminder')).toHaveLength(2);
    await h.drain();
    for (const e of emails) expect(received(e), e).toBe(1);
  }, 30_000);

  it('recovery leaves reminders to their waiting batch job, and re-adds them one by one once that batch failed', async () => {
    const emails = Array.from({ length: 5 }, (_, i) => `stale${i}@batch.test`);
    await reminderSet(emails);
    h.clock.set(DUE);
    await dispatchDue(db(), h.clock.now());
    expect(await jobsOf('send_reminders')).toHaveLength(1);
    // A long backlog: the batch has not run 2 minutes later (past the 90 s stale-dispatch threshold).
    h.clock.set('2027-06-15T07:02:00Z');
    expect((await dispatchDue(db(), h.clock.now())).redispatched).toBe(0);
    expect(await jobsOf('send_reminder')).toHaveLength(0);
    // The batch ran once and failed (graphile-worker will retry it later): its reminders come back as single sends.
    await h.tdb.sql`update graphile_worker._private_jobs set attempts = 1, run_at = now() + interval '1 hour'`;
    h.clock.set('2027-06-15T07:04:00Z');
    expect((await dispatchDue(db(), h.clock.now())).redispatched).toBe(5);
    expect(await jobsOf('send_reminder')).toHaveLength(5);
    await h.drain();
    expect(peer.received).toHaveLength(5);
    for (const e of emails) expect(received(e), e).toBe(1);
  }, 30_000);
});
