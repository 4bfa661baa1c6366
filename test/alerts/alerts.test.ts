/**
 * Alerts that reach a person (issue #10 §6) against real PostgreSQL, the real queue, the real SMTP catcher (alert
 * emails and the `+deny-once` faults that make dead letters), an HTTP email API peer answering 401, and a local
 * Slack-compatible webhook receiver — on a simulated clock. The minute sweep is the real `dispatch_due` task with
 * a `_cron` payload; the web watchdog is server/alerts/sender.ts runHeartbeatWatchdog.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpEmailChannel } from '@/channels/http-email';
import { createSlackPoster } from '@/channels/slack';
import type { EmailChannel } from '@/channels/types';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { alertMessages, alertStates, auditLog, deliveries, staffUsers, tenants, type AlertMessage, type CaughtMessage } from '@/db/schema';
import { makeAlertRuntime } from '@/jobs/alert-runtime';
import { formatTimeInZone } from '@/components/ui/format';
import { activeAlertBanners, alertsOverview } from '@/server/alerts/overview';
import { evaluateAlerts } from '@/server/alerts/evaluation';
import { readAlertSettings, saveAlertSettings, sendTestAlert } from '@/server/alerts/settings';
import { runHeartbeatWatchdog, sendAlertMessage, type AlertSenders } from '@/server/alerts/sender';
import { AppError } from '@/server/platform/errors';
import { discardDelivery, replayDelivery } from '@/server/sending/operator';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { TASK } from '@/jobs/registry';
import { seedDemo } from '@/dev/seed';
import { startWebhookCatcher } from '@/dev/webhook-catcher';
import { createHarness, type Harness } from '@/test/support/harness';
import { tenantWithRules } from '@/test/support/fixtures';
import { startHttpPeer, type HttpPeer } from '@/test/support/http-peer';
import { startSlackPeer, type SlackPeer } from '@/test/support/slack-peer';

const PUBLIC = 'https://punctual.example.test';
const ADMIN = 'olga.ops@example.test';

let h: Harness | undefined;
let slack: SlackPeer | undefined;
let http: (HttpPeer & { setApiKey(k: string): void }) | undefined;
afterEach(async () => {
  await h?.close();
  await slack?.close();
  await http?.close();
  h = slack = http = undefined;
});
const db = () => h!.tdb.db;

interface Setup {
  tenantId: string;
  adminId: string;
  senders: AlertSenders;
}

/**
 * A harness, a tenant (one rule: 1 h before start, late-send window 1 h) with an admin, alert settings that email
 * the admin and post to the Slack peer, and the worker's alert runtime (links under {@link PUBLIC}).
 */
async function setup(opts: { emailProvider?: 'smtp' | 'http_api'; settings?: { lagP95Ms?: number; oldestDueSeconds?: number } } = {}): Promise<Setup> {
  slack = await startSlackPeer();
  const channels: Partial<Record<'http_api', EmailChannel>> = {};
  if (opts.emailProvider === 'http_api') {
    http = await startHttpPeer({ script: ['401'] });
    channels.http_api = createHttpEmailChannel({ baseUrl: http.url, apiKey: http.apiKey });
  }
  h = await createHarness({ deps: { channels, random: () => 0.5 } });
  const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H', window: 3600 }], 'Europe/Amsterdam', opts.emailProvider ?? 'smtp');
  const adminId = (await insertStaffUser(db(), { tenantId: tenant.id, email: ADMIN, name: 'Olga Ops', role: 'admin', passwordHash: 'not-used' }))!;
  const senders: AlertSenders = { email: { smtp: h.ctx.channel, ...channels }, slack: createSlackPoster({ allowHttp: true, allowedOrigins: [new URL(slack.url).origin] }), random: () => 0.5 };
  h.ctx.alerts = makeAlertRuntime(senders, h.clock.now(), PUBLIC);
  await saveAlertSettings(
    db(),
    { tenantId: tenant.id, actor: ADMIN, actorId: adminId, now: h.clock.now() },
    { emailRecipients: [adminId], slackWebhookUrl: slack.url, lagP95Ms: opts.settings?.lagP95Ms ?? 60_000, oldestDueSeconds: opts.settings?.oldestDueSeconds ?? 600, version: 0 },
    { allowHttp: true, allowedOrigins: [new URL(slack.url).origin] },
  );
  return { tenantId: tenant.id, adminId, senders };
}

/** The worker's minute sweep at `now`: due jobs and the dispatcher (tick), then the real cron job `dispatch_due` { _cron }. */
async function sweep(now: string): Promise<void> {
  await h!.tick(now);
  await enqueueJob(db(), TASK.dispatchDue, { _cron: { ts: now, backfilled: false } });
  await h!.drain();
}

/** Alert emails the catcher received (subject "[Punctual] …"), oldest first. */
async function alertMails(): Promise<CaughtMessage[]> {
  return (await h!.caught()).filter((m) => m.subject?.startsWith('[Punctual]'));
}
const messages = (where = sql`true`): Promise<AlertMessage[]> => db().select().from(alertMessages).where(where).orderBy(asc(alertMessages.createdAt), asc(alertMessages.messageKey));
const stateOf = async (tenantId: string, condition: AlertMessage['condition']) => {
  const [s] = await db().select().from(alertStates).where(and(eq(alertStates.tenantId, tenantId), eq(alertStates.condition, condition)));
  return s;
};

/** `n` bookings with `+deny-once` addresses on an event starting at `startsAt` (their reminders fall due 1 h before). */
async function denyOnceEvent(tenantId: string, startsAt: string, n: number, prefix: string): Promise<void> {
  const event = await createEvent(db(), tenantId, { title: `Burst ${prefix}`, startsAt, endsAt: new Date(new Date(startsAt).getTime() + 3_600_000).toISOString(), timeZone: 'Europe/Amsterdam' });
  for (let i = 0; i < n; i++) {
    await addBooking(db(), tenantId, { eventId: event.id, role: 'attendee', contact: { email: `${prefix}${i}+deny-once@example.test`, name: `P ${i}` } }, new Date('2027-02-01T00:00:00Z'));
  }
}

describe('50 dead letters within two minutes (issue #10 scenario)', () => {
  it('→ exactly one alert email and one webhook post naming 50; after replay/discard one "cleared" per route; re-evaluating changes nothing', async () => {
    const { tenantId } = await setup();
    await denyOnceEvent(tenantId, '2027-03-01T13:00:00Z', 25, 'a'); // due 12:00:00
    await denyOnceEvent(tenantId, '2027-03-01T13:01:30Z', 25, 'b'); // due 12:01:30

    await h!.tick('2027-03-01T12:00:00Z');
    await sweep('2027-03-01T12:00:30Z');
    await h!.tick('2027-03-01T12:01:30Z');
    const dead = await db().select().from(deliveries).where(eq(deliveries.status, 'dead'));
    expect(dead).toHaveLength(50);
    await sweep('2027-03-01T12:02:00Z');
    // Still grouping: the newest dead letter is 30 s old.
    expect(await messages(eq(alertMessages.condition, 'dead_letters'))).toHaveLength(0);
    expect((await stateOf(tenantId, 'dead_letters')).itemCount).toBe(50);

    await sweep('2027-03-01T12:03:00Z');
    const mails = await alertMails();
    const deadMails = mails.filter((m) => m.subject!.includes('dead letters'));
    expect(deadMails).toHaveLength(1);
    expect(deadMails[0].subject).toBe('[Punctual] Test Org: 50 new dead letters, first at Mon 1 Mar 2027, 13:00:00 CET');
    expect(deadMails[0].envelopeTo).toEqual([ADMIN]);
    // Staff read alerts without a page to hover on: instants in the tenant's zone, never a raw ISO instant (issue #12).
    for (const t of [deadMails[0].subject ?? '', deadMails[0].text ?? '']) expect(t).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(deadMails[0].text).toContain(`Open Needs attention: ${PUBLIC}/attention`);
    expect(deadMails[0].html).toContain(`<a href="${PUBLIC}/attention">`);
    const deadPosts = slack!.posts.filter((p) => p.text.includes('new dead letters'));
    expect(deadPosts).toHaveLength(1);
    expect(deadPosts[0].text).toContain('50 new dead letters, first at Mon 1 Mar 2027, 13:00:00 CET');
    expect(deadPosts[0].text).toContain(`<${PUBLIC}/attention|Open Needs attention>`);
    expect(deadPosts[0].contentType).toBe('application/json');
    // The catcher's 550 5.7.1 is ONE recipient's policy: 50 dead letters, but no "provider refuses us" alert.
    expect(slack!.posts.filter((p) => p.text.includes('refused our credentials'))).toHaveLength(0);
    expect(await messages(eq(alertMessages.condition, 'provider_auth'))).toHaveLength(0);

    // Re-evaluating plans nothing.
    const before = (await messages()).length;
    await sweep('2027-03-01T12:04:00Z');
    expect(await evaluateAlerts(db(), new Date('2027-03-01T12:04:10Z'), { publicUrl: PUBLIC })).toEqual({ tenants: 1, planned: [] });
    expect(await messages()).toHaveLength(before);

    // A person replays half and discards half.
    const ctx = { tenantId, actor: ADMIN, now: new Date('2027-03-01T12:05:00Z') };
    h!.clock.set(ctx.now);
    const banners = async () => (await activeAlertBanners(db(), tenantId, ctx.now, (d) => formatTimeInZone(d, 'Europe/Amsterdam'))).map((b) => b.condition);
    expect(await banners()).toEqual(['dead_letters']);
    for (const [i, d] of dead.entries()) {
      if (i % 2 === 0) await replayDelivery(db(), ctx, d.id);
      else await discardDelivery(db(), ctx, d.id, 'the event moved; guests told by phone');
      // The banner stays while a dead letter is left, and goes with the last one — before the sweep resolves the alert.
      if (i === dead.length - 2) expect(await banners()).toEqual(['dead_letters']);
    }
    expect(await stateOf(tenantId, 'dead_letters')).toMatchObject({ active: true });
    expect(await banners()).toEqual([]);
    await h!.tick('2027-03-01T12:05:00Z');
    expect((await db().select().from(deliveries).where(eq(deliveries.status, 'accepted'))).length).toBe(25);
    await sweep('2027-03-01T12:06:00Z');

    const after = await alertMails();
    expect(after.filter((m) => m.subject!.includes('dead letters'))).toHaveLength(2);
    const cleared = after.filter((m) => m.subject!.includes('Cleared'));
    expect(cleared.map((m) => m.subject)).toEqual(['[Punctual] Test Org: Cleared: no dead letters left after 5 min']);
    expect(slack!.posts.filter((p) => p.text.includes('Cleared: no dead letters left'))).toHaveLength(1);
    expect(slack!.posts.filter((p) => p.text.includes('credentials'))).toHaveLength(0);
    expect(await stateOf(tenantId, 'dead_letters')).toMatchObject({ active: false, episode: 1, startNotified: true });

    const total = (await messages()).length;
    const postsBefore = slack!.posts.length;
    await sweep('2027-03-01T12:07:00Z');
    await sweep('2027-03-01T12:08:00Z');
    expect(await messages()).toHaveLength(total);
    expect(slack!.posts).toHaveLength(postsBefore);
    expect(await alertMails()).toHaveLength(2);
    expect((await messages()).every((m) => m.status === 'sent')).toBe(true);
  }, 90_000);
});

describe('a provider answering 401 (issue #10 scenario)', () => {
  it('→ an alert within one minute, by Slack and not by email, when the failing provider carries the tenant email', async () => {
    const { tenantId } = await setup({ emailProvider: 'http_api' });
    const event = await createEvent(db(), tenantId, { title: 'Keys rotated', startsAt: '2027-04-10T10:00:00Z', endsAt: '2027-04-10T11:00:00Z', timeZone: 'Europe/Amsterdam' });
    await addBooking(db(), tenantId, { eventId: event.id, role: 'attendee', contact: { email: 'pat@example.test' } }, new Date('2027-04-01T00:00:00Z'));

    // The reminder is due at 09:00:00; its only attempt gets 401. The outcome enqueues `alerts_check`: no sweep needed.
    await h!.tick('2027-04-10T09:00:00Z');
    const [d] = await db().select().from(deliveries);
    expect(d.status).toBe('dead');
    const auth = await messages(eq(alertMessages.condition, 'provider_auth'));
    expect(auth.map((m) => [m.transition, m.route, m.status])).toEqual([['started', 'slack', 'sent']]);
    expect(auth[0].sentAt!.getTime() - new Date('2027-04-10T09:00:00Z').getTime()).toBeLessThanOrEqual(60_000);
    expect(auth[0].link).toBe(`${PUBLIC}/attention?channel=email`);
    const [post] = slack!.posts;
    expect(post.text).toContain('The HTTP email API refused our credentials');
    expect(post.text).toContain('not emailed: the failing provider is the one your email goes through');
    // Nothing about it was emailed — through the failing provider or any other.
    expect(http!.requests).toHaveLength(1);
    expect(await alertMails()).toHaveLength(0);
    expect((await alertsOverview(db(), tenantId, new Date('2027-04-10T09:00:10Z'))).conditions.find((c) => c.condition === 'provider_auth')!.state.active).toBe(true);
    // Twenty minutes without another attempt on that provider is not a recovery: still active, no clear.
    await sweep('2027-04-10T09:20:00Z');
    expect(await stateOf(tenantId, 'provider_auth')).toMatchObject({ active: true, episode: 1 });
    expect(await messages(and(eq(alertMessages.condition, 'provider_auth'), eq(alertMessages.transition, 'cleared')))).toHaveLength(0);
  });
});

describe('worker heartbeat (the web watchdog alerts when the worker stops sweeping)', () => {
  it('no sweep for 3 minutes → one alert; a sweep again → cleared; a flap within the hour → not sent again', async () => {
    const { tenantId, senders } = await setup();
    await sweep('2027-05-03T12:00:00Z');
    expect((await runHeartbeatWatchdog(db(), senders, new Date('2027-05-03T12:02:59Z'), PUBLIC)).planned).toBe(0);

    // 3 min 1 s without a sweep: the web process plans AND sends the alert itself.
    const w = await runHeartbeatWatchdog(db(), senders, new Date('2027-05-03T12:03:01Z'), PUBLIC);
    expect(w.planned).toBe(2);
    expect(w.results.map((r) => r.status)).toEqual(['sent', 'sent']);
    // The dashboard banner names the last sweep (12:00 UTC), not when the condition started (12:03:01), in the
    // tenant's zone (Europe/Amsterdam, CEST).
    const inZone = (d: Date) => formatTimeInZone(d, 'Europe/Amsterdam');
    expect((await activeAlertBanners(db(), tenantId, new Date('2027-05-03T12:03:30Z'), inZone)).map((b) => b.line)).toEqual([
      'The worker has not run its minute sweep since 14:00 CEST — alert sent to 1 person and Slack',
    ]);
    let mails = await alertMails();
    expect(mails.map((m) => m.subject)).toEqual(['[Punctual] Test Org: No worker has run its minute sweep since Mon 3 May 2027, 14:00:00 CEST (3 min ago)']);
    expect(mails[0].text).toContain(`Open the dashboard: ${PUBLIC}/`);
    expect(slack!.posts).toHaveLength(1);
    // The worker's send_alert jobs for the same messages find them sent: nothing twice.
    await h!.drain();
    expect(await alertMails()).toHaveLength(1);
    expect(slack!.posts).toHaveLength(1);

    // The worker sweeps again → cleared, once per route.
    await sweep('2027-05-03T12:04:00Z');
    mails = await alertMails();
    expect(mails.map((m) => m.subject)).toEqual([
      '[Punctual] Test Org: No worker has run its minute sweep since Mon 3 May 2027, 14:00:00 CEST (3 min ago)',
      '[Punctual] Test Org: Cleared: the worker runs its minute sweep again after 59 s',
    ]);
    expect(slack!.posts.map((p) => p.text.split('\n')[0])).toEqual([
      ':rotating_light: *Test Org*: No worker has run its minute sweep since Mon 3 May 2027, 14:00:00 CEST (3 min ago)',
      ':white_check_mark: *Test Org*: Cleared: the worker runs its minute sweep again after 59 s',
    ]);

    // A flap within the hour: tracked as episode 2, shown on the page, not sent; nor is its clear.
    await runHeartbeatWatchdog(db(), senders, new Date('2027-05-03T12:07:30Z'), PUBLIC);
    const flap = await stateOf(tenantId, 'worker_heartbeat');
    expect(flap).toMatchObject({ active: true, episode: 2, startNotified: false });
    const page = await alertsOverview(db(), tenantId, new Date('2027-05-03T12:07:30Z'));
    expect(page.conditions.find((c) => c.condition === 'worker_heartbeat')!.held).toContain('at most one an hour');
    // The banner: since the last sweep (12:04), held by the hourly limit (recipients are set up, so never "no recipient").
    expect((await activeAlertBanners(db(), tenantId, new Date('2027-05-03T12:07:30Z'), inZone)).map((b) => b.line)).toEqual([
      'The worker has not run its minute sweep since 14:04 CEST — alert held: one went out at 14:03 CEST (at most one an hour); sent at 15:03 CEST if still active',
    ]);
    await sweep('2027-05-03T12:08:00Z');
    expect(await stateOf(tenantId, 'worker_heartbeat')).toMatchObject({ active: false, episode: 2, startNotified: false });
    expect(await alertMails()).toHaveLength(2);
    expect(slack!.posts).toHaveLength(2);
    expect(await messages()).toHaveLength(4);
  });
});

describe('dispatch lag and the oldest due reminder', () => {
  it('oldest due: a reminder waiting 10 min 1 s over a 10 min threshold starts it; once sent it clears', async () => {
    const { tenantId } = await setup({ settings: { oldestDueSeconds: 600 } });
    const event = await createEvent(db(), tenantId, { title: 'Backlog', startsAt: '2027-06-01T13:00:00Z', endsAt: '2027-06-01T14:00:00Z', timeZone: 'Europe/Amsterdam' });
    await addBooking(db(), tenantId, { eventId: event.id, role: 'attendee', contact: { email: 'late@example.test' } }, new Date('2027-05-01T00:00:00Z'));
    // No worker dispatched it (the reminder is due 12:00): evaluated directly.
    expect((await evaluateAlerts(db(), new Date('2027-06-01T12:10:00Z'), { publicUrl: PUBLIC })).planned).toHaveLength(0);
    const r = await evaluateAlerts(db(), new Date('2027-06-01T12:10:01Z'), { publicUrl: PUBLIC });
    expect(r.planned.map((p) => [p.condition, p.transition, p.route])).toEqual([
      ['oldest_due', 'started', 'email'],
      ['oldest_due', 'started', 'slack'],
    ]);
    await h!.drain();
    expect((await alertMails()).map((m) => m.subject)).toEqual([
      '[Punctual] Test Org: The oldest due reminder has waited 10 min (due Tue 1 Jun 2027, 14:00:00 CEST; threshold 10 min; 1 reminder waiting)',
    ]);
    // The worker comes back and sends it (late, inside its window): the condition clears.
    await h!.tick('2027-06-01T12:10:30Z');
    const c = await evaluateAlerts(db(), new Date('2027-06-01T12:10:40Z'), { publicUrl: PUBLIC });
    expect(c.planned.filter((p) => p.condition === 'oldest_due').map((p) => p.transition)).toEqual(['cleared', 'cleared']);
  });

  it('dispatch lag: first attempts 2 min after their due instant over a 60 s p95 threshold start it; 5 minutes without late sends clear it', async () => {
    const { tenantId } = await setup({ settings: { lagP95Ms: 60_000 } });
    const event = await createEvent(db(), tenantId, { title: 'Lagging', startsAt: '2027-06-02T13:00:00Z', endsAt: '2027-06-02T14:00:00Z', timeZone: 'Europe/Amsterdam' });
    for (const p of ['a', 'b', 'c']) await addBooking(db(), tenantId, { eventId: event.id, role: 'attendee', contact: { email: `${p}@lag.test` } }, new Date('2027-05-01T00:00:00Z'));
    await h!.tick('2027-06-02T12:02:00Z'); // due 12:00, first attempts at 12:02: lag 120 s
    const r = await evaluateAlerts(db(), new Date('2027-06-02T12:02:30Z'), { publicUrl: PUBLIC });
    expect(r.planned.map((p) => [p.condition, p.transition])).toEqual([
      ['dispatch_lag', 'started'],
      ['dispatch_lag', 'started'],
    ]);
    expect((await stateOf(tenantId, 'dispatch_lag')).detail).toBe('Dispatch lag p95 is 2 min over the last 5 minutes (threshold 1 min; 3 sends)');
    expect((await evaluateAlerts(db(), new Date('2027-06-02T12:06:59Z'), { publicUrl: PUBLIC })).planned).toHaveLength(0);
    const c = await evaluateAlerts(db(), new Date('2027-06-02T12:07:01Z'), { publicUrl: PUBLIC });
    expect(c.planned.map((p) => [p.condition, p.transition])).toEqual([
      ['dispatch_lag', 'cleared'],
      ['dispatch_lag', 'cleared'],
    ]);
  });
  it('dispatch lag counts only the time we took: reminders planned after their due instant (a late booking, the demo seed) are measured from when they were planned', async () => {
    const { tenantId } = await setup({ settings: { lagP95Ms: 60_000 } });
    const event = await createEvent(db(), tenantId, { title: 'Booked late', startsAt: '2027-06-03T13:00:00Z', endsAt: '2027-06-03T14:00:00Z', timeZone: 'Europe/Amsterdam' });
    for (const p of ['a', 'b', 'c']) await addBooking(db(), tenantId, { eventId: event.id, role: 'attendee', contact: { email: `${p}@late.test` } }, new Date('2027-05-01T00:00:00Z'));
    // As if planned at 12:01:50, after the 12:00 due instant (inside the late-send window).
    await h!.tdb.sql`update reminders set created_at = '2027-06-03T12:01:50Z' where tenant_id = ${tenantId}`;
    await h!.tick('2027-06-03T12:02:00Z'); // sent 10 s after they were planned, 2 min after their due instant
    const r = await evaluateAlerts(db(), new Date('2027-06-03T12:02:30Z'), { publicUrl: PUBLIC });
    expect(r.planned.filter((p) => p.condition === 'dispatch_lag')).toHaveLength(0);
    expect((await stateOf(tenantId, 'dispatch_lag')).active).toBe(false);
  });
});

describe('settings and sending', () => {
  it('a save carries the version; a stale one is a 409 with the current values; bad input names the field; audited', async () => {
    const { tenantId, adminId } = await setup();
    const ctx = { tenantId, actor: ADMIN, actorId: adminId, now: new Date('2027-07-01T08:00:00Z') };
    const v1 = await readAlertSettings(db(), tenantId, { withUrl: true });
    expect(v1).toMatchObject({ version: 1, emailRecipients: [adminId], lagP95Ms: 60_000, oldestDueSeconds: 600 });
    const v2 = await saveAlertSettings(db(), ctx, { emailRecipients: [adminId], slackWebhookUrl: '', lagP95Ms: 120_000, oldestDueSeconds: 900, version: 1 }, { allowHttp: true });
    expect(v2).toMatchObject({ version: 2, slackWebhookUrl: null, lagP95Ms: 120_000 });
    const stale = await saveAlertSettings(db(), ctx, { emailRecipients: [], slackWebhookUrl: null, lagP95Ms: 60_000, oldestDueSeconds: 600, version: 1 }, { allowHttp: true }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(AppError);
    expect((stale as AppError).httpStatus).toBe(409);
    expect((stale as AppError).details).toMatchObject({ version: 2, current: { lagP95Ms: 120_000, oldestDueSeconds: 900 } });
    const bad = async (input: Record<string, unknown>, field: string, opts = { allowHttp: false }) => {
      const e = await saveAlertSettings(db(), ctx, { emailRecipients: [adminId], slackWebhookUrl: null, lagP95Ms: 60_000, oldestDueSeconds: 600, version: 2, ...input }, opts).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).field).toBe(field);
      return (e as AppError).message;
    };
    expect(await bad({ emailRecipients: ['someone-else'] }, 'emailRecipients')).toContain('is not a staff member');
    expect(await bad({ slackWebhookUrl: 'http://127.0.0.1:9/hook' }, 'slackWebhookUrl')).toContain('https');
    expect(await bad({ slackWebhookUrl: 'https://10.0.0.5/hook' }, 'slackWebhookUrl')).toContain('public address');
    expect(await bad({ lagP95Ms: 10 }, 'lagP95Ms')).toContain('at least 1 second');
    expect(await bad({ oldestDueSeconds: 5 }, 'oldestDueSeconds')).toContain('at least 1 minute');
    const audits = await db().select().from(auditLog).where(eq(auditLog.action, 'alert_settings_update')).orderBy(asc(auditLog.createdAt));
    expect(audits).toHaveLength(2);
    expect(audits[1].details).toEqual({
      changes: {
        slackWebhookUrl: { from: `http://127.0.0.1:${new URL(slack!.url).port}/…`, to: null },
        lagP95Ms: { from: 60_000, to: 120_000 },
        oldestDueSeconds: { from: 600, to: 900 },
      },
    });
  });

  it('"Send test alert" plans and sends one test message per route', async () => {
    const { tenantId, adminId, senders } = await setup();
    const r = await sendTestAlert(db(), { tenantId, actor: ADMIN, actorId: adminId, now: new Date('2027-07-02T08:00:00Z') }, senders, { publicUrl: PUBLIC });
    expect(r.results.map((x) => [x.route, x.status])).toEqual([
      ['email', 'sent'],
      ['slack', 'sent'],
    ]);
    expect((await alertMails()).map((m) => m.subject)).toEqual([`[Punctual] Test Org: Test alert requested by ${ADMIN}`]);
    expect(slack!.posts[0].text).toContain(`<${PUBLIC}/alerts|Open the alert settings>`);
    await h!.drain();
    expect(await alertMails()).toHaveLength(1);
  });

  it('a receiver answering 500 → retrying with backoff, sent on the next attempt; two senders at once → one post', async () => {
    const { senders } = await setup();
    slack!.script(500, 'ok');
    await h!.tick('2027-05-03T12:00:00Z');
    await evaluateAlerts(db(), new Date('2027-05-03T12:00:00Z'), { publicUrl: PUBLIC, conditions: ['worker_heartbeat'] }); // no heartbeat yet: nothing
    await sweep('2027-05-03T12:00:00Z');
    const r = await evaluateAlerts(db(), new Date('2027-05-03T12:03:30Z'), { publicUrl: PUBLIC, conditions: ['worker_heartbeat'] });
    const slackId = r.planned.find((p) => p.route === 'slack')!.id;
    const now = new Date('2027-05-03T12:03:30Z');
    const first = await sendAlertMessage(db(), slackId, senders, now);
    expect(first).toMatchObject({ status: 'retrying', nextAttemptAt: new Date(now.getTime() + 7_500) });
    // Not due yet: nobody takes it.
    expect((await sendAlertMessage(db(), slackId, senders, new Date(now.getTime() + 7_000))).status).toBe('skipped');
    const later = new Date(now.getTime() + 7_500);
    const both = await Promise.all([sendAlertMessage(db(), slackId, senders, later), sendAlertMessage(db(), slackId, senders, later)]);
    expect(both.map((b) => b.status).sort()).toEqual(['sent', 'skipped']);
    expect(slack!.posts.map((p) => p.status)).toEqual([500, 200]);
    const [m] = await messages(eq(alertMessages.id, slackId));
    expect(m).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });
});

describe('the demo', () => {
  it('the seed emails the demo admin and posts to the built-in receiver’s /slack/demo/{secret}, which takes a Slack post (200 ok, stored, verified); a post without the secret is not verified', async () => {
    h = await createHarness();
    const receiver = await startWebhookCatcher({ db: db() });
    try {
      await seedDemo(db(), new Date('2027-08-01T09:00:00Z'), { webhookCatcherUrl: receiver.url });
      const demo = (await db().select().from(tenants).where(eq(tenants.slug, 'demo')))[0];
      const s = await readAlertSettings(db(), demo.id, { withUrl: true });
      const [adminUser] = await db().select().from(staffUsers).where(eq(staffUsers.email, 'admin@demo.punctual.local'));
      expect(s).toMatchObject({ version: 1, emailRecipients: [adminUser.id] });
      // Like a real Slack webhook URL, the demo's holds a secret (issue #12): the bare path is not enough to post as the demo.
      expect(s.slackWebhookUrl).toMatch(new RegExp(`^${receiver.url}/slack/demo/[\\w-]{24}$`));
      const poster = createSlackPoster({ allowHttp: true, allowedOrigins: [new URL(receiver.url).origin] });
      expect(await poster.post(s.slackWebhookUrl!, 'hello from the test', { now: new Date(), tenantId: s.tenantId })).toMatchObject({ class: 'accepted' });
      expect(await poster.post(`${receiver.url}/slack/demo`, 'forged', { now: new Date(), tenantId: s.tenantId })).toMatchObject({ class: 'rejected', code: 'HTTP_404' });
      expect(await poster.post(`${receiver.url}/slack/nobody`, 'x', { now: new Date(), tenantId: s.tenantId })).toMatchObject({ class: 'rejected', code: 'HTTP_404' });
      // The Slack-compatible posts of this test: the demo's seeded history fills the catcher with its own messages,
      // its alerts about the seeded dead letter and unknown outcome included (dev/demo-history.ts).
      const history = (await h.caught()).filter((m) => m.envelopeTo.some((t) => t.startsWith('/slack/')) && (m.text ?? '').includes('Punctual Demo Studio'));
      expect(history.map((m) => m.envelopeTo)).toEqual([['/hooks/demo', '/slack/demo/…'], ['/hooks/demo', '/slack/demo/…']]);
      const caught = (await h.caught()).filter((m) => m.envelopeTo.some((t) => t.startsWith('/slack/')) && !history.some((x) => x.id === m.id));
      expect(caught.map((m) => [m.channel, m.subject, m.envelopeTo, (m.headers as { verified: boolean }).verified])).toEqual([
        ['webhook', 'slack alert', ['/hooks/demo', '/slack/demo/…'], true],
        ['webhook', 'slack alert', ['/hooks/demo', '/slack/demo'], false],
        ['webhook', 'slack alert', ['/hooks/nobody', '/slack/nobody'], false],
      ]);
      expect(caught[0].text).toContain('hello from the test');
      // A re-seed keeps the settings.
      await seedDemo(db(), new Date('2027-08-01T09:00:00Z'), { webhookCatcherUrl: receiver.url });
      expect((await readAlertSettings(db(), demo.id, { withUrl: true })).version).toBe(1);
      // A receiver on another port (a later start): the URL moves there and keeps its secret.
      await seedDemo(db(), new Date('2027-08-01T09:00:00Z'), { webhookCatcherUrl: 'http://127.0.0.1:4999' });
      const secret = s.slackWebhookUrl!.split('/').pop();
      expect((await readAlertSettings(db(), demo.id, { withUrl: true })).slackWebhookUrl).toBe(`http://127.0.0.1:4999/slack/demo/${secret}`);
    } finally {
      await receiver.close();
    }
  });
});
