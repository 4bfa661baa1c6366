/**
 * Issue #3 scenarios with their exact values, through the real send path and real peers (HTTP email API and
 * SMTP, both fault-injecting, on 127.0.0.1), real PostgreSQL and the real queue, on a simulated clock.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpEmailChannel } from '@/channels/http-email';
import { createSmtpChannel } from '@/channels/smtp';
import type { EmailChannel } from '@/channels/types';
import { listDeliveryCases } from '@/db/queries/sending/operator';
import { auditLog, deliveries, deliveryAttempts, reminders, suppressions } from '@/db/schema';
import { AppError } from '@/server/platform/errors';
import { discardDelivery, markDeliverySent, replayDelivery, sendDeliveryAgain } from '@/server/sending/operator';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { sendReminder } from '@/server/sending/send-reminder';
import { createHarness, type Harness } from '@/test/support/harness';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';
import { startHttpPeer, type HttpPeer } from '@/test/support/http-peer';
import { startSmtpPeer, type SmtpPeer } from '@/test/support/smtp-peer';

let h: Harness | undefined;
let http: (HttpPeer & { setApiKey(k: string): void }) | undefined;
let smtp: SmtpPeer | undefined;
afterEach(async () => {
  await h?.close();
  await http?.close();
  await smtp?.close();
  h = undefined;
  http = undefined;
  smtp = undefined;
});

const db = () => h!.tdb.db;
const onlyDelivery = async () => {
  const ds = await db().select().from(deliveries);
  expect(ds).toHaveLength(1);
  return ds[0];
};
/** A channel that forwards to whatever `target.current` is (a provider whose config is fixed mid-test). */
const switchable = (target: { current: EmailChannel }): EmailChannel => ({
  name: 'switchable',
  idempotent: true,
  close: async () => {},
  send: (m, o) => target.current.send(m, o),
  lookup: (k, s) => target.current.lookup!(k, s),
});

describe('timeout after acceptance (Amsterdam 2027-05-20T14:00, -PT24H due 2027-05-19T12:00:00Z)', () => {
  it('HTTP: the peer stores attempt 1 but answers after 35 s, the client gives up at 10 s → one message, one provider id, accepted', async () => {
    http = await startHttpPeer({ script: ['delay:35', 'accept'] });
    const channel = createHttpEmailChannel({ baseUrl: http.url, apiKey: http.apiKey, timeoutMs: 10_000 });
    h = await createHarness({ deps: { channels: { http_api: channel }, providerTimeoutMs: 10_000, random: () => 0.5 } });
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT24H' }], 'Europe/Amsterdam', 'http_api');
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-05-20T12:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-05-01T00:00:00Z'));
    const [r] = await db().select().from(reminders).where(eq(reminders.bookingId, booking.id));
    expect(r.dueAt.toISOString()).toBe('2027-05-19T12:00:00.000Z');
    await h.tick('2027-05-19T12:00:00Z');
    const d1 = await onlyDelivery();
    expect(d1.status).toBe('retrying'); // ambiguous on an idempotent provider: same-key retry
    expect(http.messages).toHaveLength(1); // …but the provider has it already
    await h.tick(new Date(d1.nextAttemptAt!.getTime() + 1));
    const d2 = await onlyDelivery();
    expect(d2.status).toBe('accepted');
    expect(http.messages).toHaveLength(1);
    expect(d2.providerMessageId).toBe(http.messages[0].id);
    expect(http.requests.filter((q) => q.status !== 'dropped')).toHaveLength(1); // the retry looked the key up instead of posting
    const attempts = await db().select().from(deliveryAttempts).orderBy(deliveryAttempts.attemptNo);
    expect(attempts.map((a) => a.outcome)).toEqual(['ambiguous', 'accepted']);
  }, 40_000);

  it('SMTP: the connection drops after DATA → one message, unknown, no automatic resend', async () => {
    smtp = await startSmtpPeer(['drop-after-data', 'accept']);
    h = await createHarness({ channel: createSmtpChannel({ url: smtp.url }) });
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT24H' }]);
    await eventWithBooking(db(), tenant.id, { startsAt: '2027-05-20T12:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-05-01T00:00:00Z'));
    await h.tick('2027-05-19T12:00:00Z');
    await h.tick('2027-05-19T12:30:00Z');
    await h.tick('2027-05-19T12:59:00Z');
    expect(smtp.received).toHaveLength(1);
    const d = await onlyDelivery();
    expect(d.status).toBe('unknown');
    // Listed with its evidence for a person to decide.
    const [c] = await listDeliveryCases(db(), tenant.id, ['unknown']);
    expect(c.attempts.map((a) => [a.outcome, a.errorCode])).toEqual([['ambiguous', 'ECONNECTION']]);
  });
});

describe('recovery burst: 500 reminders due 2027-09-01T07:00:00Z, peer allows 120/min then 429 Retry-After 60, one invalid recipient', () => {
  it('499 delivered exactly once within about 5 simulated minutes; none sent or dead because of a 429; the invalid one failed at once', async () => {
    let fakeNow = () => Date.parse('2027-09-01T07:00:00Z');
    http = await startHttpPeer({ ratePerMinute: 120, invalidRecipients: ['nobody@invalid.test'], now: () => fakeNow() });
    h = await createHarness({
      deps: {
        channels: { http_api: createHttpEmailChannel({ baseUrl: http.url, apiKey: http.apiKey }) },
        rateLimits: { http_api: 120 },
        random: () => 0.5,
      },
    });
    const harness = h;
    fakeNow = () => harness.clock.now().getTime();
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT3H', window: 2 * 3600 }], 'Europe/Amsterdam', 'http_api');
    // Events at 10:00Z and later (one per 50 participants, ten minutes apart); each rule is due 3 h before.
    const start = Date.parse('2027-09-01T10:00:00Z');
    for (let e = 0; e < 10; e++) {
      const event = await createEvent(db(), tenant.id, { title: `Talk ${e}`, startsAt: new Date(start + e * 0), endsAt: new Date(start + 3_600_000), timeZone: 'Europe/Amsterdam' });
      for (let i = 0; i < 50; i++) {
        const email = e === 7 && i === 13 ? 'nobody@invalid.test' : `p${e}-${i}@burst.test`;
        await addBooking(db(), tenant.id, { eventId: event.id, role: 'attendee', contact: { email } }, new Date('2027-08-01T00:00:00Z'));
      }
    }
    const t0 = Date.parse('2027-09-01T07:00:00Z');
    let finishedAt: number | null = null;
    for (let t = t0; t <= t0 + 8 * 60_000; t += 10_000) {
      await h.tick(new Date(t));
      const [{ open }] = await db().execute<{ open: number }>(sql`select count(*)::int as open from deliveries where status in ('claimed','retrying','sending')`);
      const [{ all }] = await db().execute<{ all: number }>(sql`select count(*)::int as all from deliveries`);
      if (all === 500 && open === 0) {
        finishedAt = t;
        break;
      }
    }
    const byStatus = Object.fromEntries(
      (await db().execute<{ status: string; n: number }>(sql`select status, count(*)::int as n from deliveries group by 1`)).map((r) => [r.status, r.n]),
    );
    expect(byStatus).toEqual({ accepted: 499, failed: 1 });
    expect(http.messages).toHaveLength(499);
    expect(new Set(http.messages.map((m) => m.idempotencyKey)).size).toBe(499);
    expect(finishedAt).not.toBeNull();
    expect(finishedAt! - t0).toBeLessThanOrEqual(5 * 60_000 + 30_000); // ≈ 500 / 120 per minute
    // Nothing ended dead or was recorded as sent because of a 429.
    const limited = await db().execute<{ n: number }>(sql`
      select count(*)::int as n from deliveries d where d.status <> 'accepted' and exists (
        select 1 from delivery_attempts a where a.delivery_id = d.id and a.outcome = 'rate_limited')`);
    expect(limited[0].n).toBe(0);
    const [bad] = await db().select().from(deliveries).where(eq(deliveries.status, 'failed'));
    expect(bad.address).toBe('nobody@invalid.test');
    expect(bad.attemptCount).toBe(1);
    expect(bad.statusReason).toContain('invalid_recipient');
    const [s] = await db().select().from(suppressions);
    expect(s.address).toBe('nobody@invalid.test');
    // Due order: the provider received messages in the order the reminders were claimed (by due, then id).
    const firstAttempt = await db().execute<{ started: string }>(sql`select min(started_at)::text as started from delivery_attempts`);
    expect(new Date(firstAttempt[0].started).toISOString()).toBe('2027-09-01T07:00:00.000Z');
  }, 300_000);
});

describe('crash before the provider call (the worker died between claim and call)', () => {
  async function claimAndDie(window: number) {
    smtp = await startSmtpPeer(['accept']);
    h = await createHarness({ channel: createSmtpChannel({ url: smtp.url }) });
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H', window }]);
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    h.clock.set('2027-06-15T07:00:00Z');
    const [r] = await db().select().from(reminders).where(eq(reminders.bookingId, booking.id));
    await sendReminder(h.ctx.sendDeps, r.id, { deliverInline: false });
    // The worker holding the deliver job dies: the job stays locked (graphile-worker keeps it for 4 h).
    await h.tdb.sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'dead-worker'`;
    expect((await onlyDelivery()).status).toBe('claimed');
  }

  it('sent once after the claim lease (60 s), while still before expiry', async () => {
    await claimAndDie(3600);
    await h!.tick('2027-06-15T07:00:30Z');
    expect(smtp!.received).toHaveLength(0); // the lease still holds
    await h!.tick('2027-06-15T07:01:01Z');
    expect(smtp!.received).toHaveLength(1);
    expect((await onlyDelivery()).status).toBe('accepted');
    await h!.tick('2027-06-15T07:10:00Z');
    expect(smtp!.received).toHaveLength(1);
  });

  it('a retrying delivery whose deliver job died with its worker is picked up again', async () => {
    smtp = await startSmtpPeer(['tempfail-rcpt', 'accept']);
    h = await createHarness({ channel: createSmtpChannel({ url: smtp.url }), deps: { random: () => 0.5 } });
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    await h.tick('2027-06-15T07:00:00Z');
    const d = await onlyDelivery();
    expect(d.status).toBe('retrying');
    await h.tdb.sql`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'dead-worker'`;
    await h.tick(new Date(d.nextAttemptAt!.getTime() + 1000));
    expect(smtp.received).toHaveLength(0); // its job is held by the dead worker
    await h.tick(new Date(d.nextAttemptAt!.getTime() + 61_000));
    expect(smtp.received).toHaveLength(1);
    expect((await onlyDelivery()).status).toBe('accepted');
  });

  it('expired, not sent, when the lease runs out after the expiry instant', async () => {
    await claimAndDie(30);
    await h!.tick('2027-06-15T07:01:01Z');
    expect(smtp!.received).toHaveLength(0);
    expect((await onlyDelivery()).status).toBe('expired');
  });
});

describe('permission error (401) and the dead letter', () => {
  it('dead with owner configuration after one attempt; replay after fixing the key sends exactly once; a second replay is refused', async () => {
    http = await startHttpPeer();
    const target = { current: createHttpEmailChannel({ baseUrl: http.url, apiKey: 'revoked-key' }) as EmailChannel };
    h = await createHarness({ deps: { channels: { http_api: switchable(target) } } });
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }], 'Europe/Amsterdam', 'http_api');
    await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    await h.tick('2027-06-15T07:00:00Z');
    const dead = await onlyDelivery();
    expect(dead).toMatchObject({ status: 'dead', repairOwner: 'configuration', attemptCount: 1 });
    expect(dead.lastError).toContain('HTTP_401');
    await h.tick('2027-06-15T07:20:00Z');
    expect((await onlyDelivery()).attemptCount).toBe(1); // no automatic retry

    target.current = createHttpEmailChannel({ baseUrl: http.url, apiKey: http.apiKey }); // the operator fixes the key
    const ctx = { tenantId: tenant.id, actor: 'ops@demo.test', now: new Date('2027-06-15T07:21:00Z') };
    await replayDelivery(db(), ctx, dead.id);
    await h.tick('2027-06-15T07:21:00Z');
    const sent = await onlyDelivery();
    expect(sent.status).toBe('accepted');
    expect(sent.messageKey).toBe(dead.messageKey);
    expect(http.messages).toHaveLength(1);

    const again = await replayDelivery(db(), { ...ctx, now: new Date('2027-06-15T07:22:00Z') }, dead.id).catch((e) => e);
    expect(again).toBeInstanceOf(AppError);
    expect((again as AppError).message).toContain('replay refused: the provider already accepted this message');
    await h.tick('2027-06-15T07:23:00Z');
    expect(http.messages).toHaveLength(1);
    const audit = await db().select().from(auditLog);
    expect(audit.map((a) => [a.action, a.actor])).toEqual([['replay', 'ops@demo.test']]);
  });

  it('discard needs a reason; another tenant cannot touch the delivery', async () => {
    http = await startHttpPeer({ apiKey: 'right' });
    h = await createHarness({ deps: { channels: { http_api: createHttpEmailChannel({ baseUrl: http.url, apiKey: 'wrong' }) } } });
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }], 'Europe/Amsterdam', 'http_api');
    const { tenant: other } = await tenantWithRules(db(), []);
    await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    await h.tick('2027-06-15T07:00:00Z');
    const d = await onlyDelivery();
    const now = new Date('2027-06-15T07:05:00Z');
    await expect(discardDelivery(db(), { tenantId: tenant.id, actor: 'ops', now }, d.id, ' ')).rejects.toMatchObject({ code: 'validation', field: 'reason' });
    await expect(replayDelivery(db(), { tenantId: other.id, actor: 'intruder', now }, d.id)).rejects.toMatchObject({ code: 'not_found' });
    await discardDelivery(db(), { tenantId: tenant.id, actor: 'ops', now }, d.id, 'customer asked us not to remind them');
    const after = await onlyDelivery();
    expect(after.status).toBe('discarded');
    expect(after.statusReason).toBe('discarded by ops: customer asked us not to remind them');
    expect(await db().select().from(auditLog)).toHaveLength(1);
  });
});

describe('unknown outcomes over SMTP: a person decides', () => {
  async function unknownDelivery() {
    smtp = await startSmtpPeer(['drop-after-data', 'accept']);
    h = await createHarness({ channel: createSmtpChannel({ url: smtp.url }) });
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    await h.tick('2027-06-15T07:00:00Z');
    const d = await onlyDelivery();
    expect(d.status).toBe('unknown');
    return { tenant, d, ctx: { tenantId: tenant.id, actor: 'ops@demo.test', now: new Date('2027-06-15T07:05:00Z') } };
  }

  it('"mark as sent" records it accepted, audited, without sending', async () => {
    const { d, ctx } = await unknownDelivery();
    await markDeliverySent(db(), ctx, d.id, 'guest confirmed by phone they got it');
    await h!.tick('2027-06-15T07:10:00Z');
    expect((await onlyDelivery()).status).toBe('accepted');
    expect(smtp!.received).toHaveLength(1);
    expect((await db().select().from(auditLog))[0]).toMatchObject({ action: 'mark_sent', actor: 'ops@demo.test' });
  });

  it('"send again" is a new attempt under the same key, audited with the duplicate warning', async () => {
    const { d, ctx } = await unknownDelivery();
    await sendDeliveryAgain(db(), ctx, d.id, 'guest says nothing arrived');
    await h!.tick('2027-06-15T07:05:00Z');
    const after = await onlyDelivery();
    expect(after).toMatchObject({ status: 'accepted', messageKey: d.messageKey, attemptCount: 2 });
    expect(smtp!.received).toHaveLength(2); // the person chose this risk
    const [a] = await db().select().from(auditLog);
    expect(a.action).toBe('send_again');
    expect(a.details).toMatchObject({ warning: 'the recipient may receive this message twice' });
  });
});
