/**
 * A working day's history for the demo (issue #12: "a demo that looks alive"): the messages a worker WOULD have
 * sent over the past hours and days, made by the real send path — the dispatcher's claim, server/notifications/notify.ts for
 * booking facts, server/sending/send-reminder.ts for every send and retry with its real state machine, outcome rules,
 * message keys, subjects and attempts — on a simulated clock, against simulated providers:
 *
 *  - the clock starts at each step's own instant (a reminder's due instant plus a dispatch lag of 0.15–0.55 s, a
 *    domain event's instant plus 0.3–0.8 s, a retry's next-attempt instant) and each provider call takes
 *    90–380 ms; the jitter is a fixed pseudo-random sequence, so a seed is reproducible;
 *  - the providers answer what `outcome` says for each attempt (accepted by default) and file what they accept in
 *    `caught_messages` as the built-in catchers would (email: raw source, headers, subject and parts as
 *    dev/mail-catcher.ts files them; SMS as dev/sms-catcher.ts stores the form; webhooks with their Standard
 *    Webhooks signature) at the simulated
 *    instant — so the mailbox shows the same history the dashboard counts. A dropped connection files the
 *    message too (the catcher had it; the sender cannot know: an unknown outcome), a refusal files nothing.
 *
 * The worker's minute sweep runs too where it would have mattered: at the first minute boundary at least a minute
 * after a delivery ended `dead` or `unknown`, the real alert evaluation (server/alerts/evaluation.ts) starts its episode and
 * sends the alert — email and Slack post through simulated providers, filed like the rest — so a fresh demo shows
 * the alert that went out when it happened, and starting the worker does not alert about the past again.
 *
 * Nothing goes over the network. Afterwards the stamps PostgreSQL wrote with its own now() (a delivery's
 * created_at, updated_at) are moved to the simulated instants (dev/queries/demo-history.ts), and rule reminders get
 * their booking's instant as created_at: they were planned when the booking was made, before their due instant.
 *
 * Only the given tenant's given events are simulated, strictly before `until` (the seed's now). Jobs the send path
 * adds on the way (a retry's `deliver`, wake-ups) stay in the queue with past run_at instants; the worker finds
 * them already done when it starts.
 */
import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { composeMessage } from '@/channels/smtp';
import type { EmailChannel, OutgoingEmail, OutgoingSms, OutgoingWebhook, Outcome, SendOptions, SmsChannel, WebhookChannel } from '@/channels/types';
import type { Db } from '@/db/client';
import { dispatchOne, nextHistoryStep, notificationsPlannedAt, settleHistoryStamps } from '@/dev/queries/demo-history';
import { caughtMessages } from '@/db/schema';
import type { Channel } from '@/domain/vocabulary';
import type { Clock } from '@/server/platform/clock';
import type { SlackPoster } from '@/channels/slack';
import { evaluateAlerts } from '@/server/alerts/evaluation';
import { sendAlertMessage } from '@/server/alerts/sender';
import { processDomainEvent } from '@/server/notifications/notify';
import { deliver, sendReminder, type SendDeps } from '@/server/sending/send-reminder';

/** How a simulated provider answers one attempt. */
type ScriptedOutcome =
  /** Taken (and filed in the catcher). */
  | 'accepted'
  /** `421 4.7.0 Try again later`: retried by the real retry policy. */
  | 'transient'
  /** `550 5.7.1` — a permission refusal: a dead letter owned by configuration, nothing filed. */
  | 'refused'
  /** The message was filed, then the connection dropped before the reply: an unknown outcome. */
  | 'dropped';

/** One provider call as the script sees it: `attemptNo` counts the calls for this message key (1 = first). */
interface ScriptedCall {
  channel: Channel;
  address: string;
  messageKey: string;
  attemptNo: number;
}

interface HistoryOptions {
  tenantId: string;
  /** The events whose reminders and booking facts are simulated (the seed's batch). */
  eventIds: string[];
  /** Simulate everything due strictly before this instant (UTC; the seed's now). */
  until: Date;
  /** The answer to each provider call (default: accepted). */
  outcome?: (call: ScriptedCall) => ScriptedOutcome;
  /** Base URL of the links in alert messages (default: server/alerts/evaluation.ts alertPublicUrl). */
  publicUrl?: string;
}

interface HistoryResult {
  /** Steps taken (claims, notification plans, retries). */
  steps: number;
  /** Provider calls made. */
  calls: number;
  /** Alert messages sent by the simulated minute sweeps. */
  alerts: number;
}

/** A clock the simulation moves by hand (never backwards). */
class SimulatedClock implements Clock {
  private t = 0;
  now(): Date {
    return new Date(this.t);
  }
  /** Moves to `at` unless the clock is already later (two steps due together run one after the other). */
  moveTo(at: Date): void {
    this.t = Math.max(this.t, at.getTime());
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

/** A fixed pseudo-random sequence in [0, 1) (a linear congruential generator): reproducible jitter. */
function jitter(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) / 0x1000000;
  };
}

const hex = (s: string) => createHash('sha256').update(s).digest('hex');

/** "Name <address>" as a header writes a mailbox (the bare address without a name). */
const mailbox = (p: { name: string; address: string }) => (p.name ? `${p.name} <${p.address}>` : p.address);

/**
 * The `caught_messages` fields of an email as the mail catcher files them (dev/mail-catcher.ts storedForm):
 * the raw source as it would travel (channels/smtp.ts composeMessage) with `Return-Path` on top, its headers by
 * lower-case name, subject, HTML and text. Read from the message we built rather than parsed back from the raw
 * source (a full MIME parse per message made the seed several times slower); the header block is unfolded, and
 * the headers that carry encoded words (subject, from, to) are taken from the message itself, decoded.
 */
async function caughtEmailRow(m: OutgoingEmail, mailFrom: string) {
  const raw = `Return-Path: <${mailFrom}>\r\n${(await composeMessage(m)).toString('utf8')}`;
  const end = raw.search(/\r?\n\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of (end < 0 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  Object.assign(headers, { subject: m.subject, from: mailbox(m.from), to: mailbox(m.to), 'return-path': `<${mailFrom}>` });
  // As the catcher records who sent it (dev/mail-catcher.ts): the sender's declaration.
  return { tenantId: m.tenantId, accountMail: !!m.accountMail, messageId: m.messageId, subject: m.subject, headers, html: m.html, text: m.text, raw };
}

/**
 * Simulates the worker over the past for `o.eventIds` (module doc).
 * @returns how many steps and provider calls it made.
 * @throws only for infrastructure errors (a seed then fails as a whole).
 */
export async function replayHistory(db: Db, o: HistoryOptions): Promise<HistoryResult> {
  if (o.eventIds.length === 0) return { steps: 0, calls: 0, alerts: 0 };
  const clock = new SimulatedClock();
  const rnd = jitter(0x5eed);
  const between = (lo: number, hi: number) => Math.round(lo + (hi - lo) * rnd());
  const script = o.outcome ?? (() => 'accepted');
  const callsPerKey = new Map<string, number>();
  let calls = 0;
  /** The provider's answer to this call, after its latency on the simulated clock. */
  const answer = (channel: Channel, address: string, key: string): ScriptedOutcome => {
    const attemptNo = (callsPerKey.get(key) ?? 0) + 1;
    callsPerKey.set(key, attemptNo);
    calls++;
    clock.advance(between(90, 380));
    return script({ channel, address, messageKey: key, attemptNo });
  };

  const email: EmailChannel = {
    name: 'smtp',
    idempotent: false,
    async send(m: OutgoingEmail, opts: SendOptions): Promise<Outcome> {
      const a = answer('email', m.to.address, opts.idempotencyKey);
      if (a === 'refused') {
        const reply = '550 5.7.1 Sender not authorized for this recipient';
        return { class: 'rejected', kind: 'permission', code: '550', message: reply, response: reply };
      }
      if (a === 'transient') {
        const reply = '421 4.7.0 Try again later, closing connection.';
        return { class: 'transient', code: '421', message: reply, response: reply };
      }
      const mailFrom = m.envelopeFrom || m.from.address;
      await db.insert(caughtMessages).values({ channel: 'email', receivedAt: clock.now(), envelopeFrom: mailFrom, envelopeTo: [m.to.address], ...(await caughtEmailRow(m, mailFrom)) });
      if (a === 'dropped') return { class: 'ambiguous', code: 'ECONNECTION', message: 'Connection closed unexpectedly' };
      return { class: 'accepted', providerId: m.messageId, response: `250 2.0.0 Ok: queued as ${hex(m.messageId).slice(0, 12).toUpperCase()}` };
    },
    async close() {},
  };

  const sms: SmsChannel = {
    name: 'sms_api',
    idempotent: false,
    async send(m: OutgoingSms, opts: SendOptions): Promise<Outcome> {
      const a = answer('sms', m.to, opts.idempotencyKey);
      if (a === 'transient') return { class: 'transient', code: 'HTTP_503', message: 'Service Unavailable' };
      if (a === 'refused') return { class: 'rejected', kind: 'permission', code: '21610', message: 'Attempt to send to unsubscribed recipient' };
      const sid = `SM${hex(`${opts.idempotencyKey}:${callsPerKey.get(opts.idempotencyKey)}`).slice(0, 32)}`;
      const form: Record<string, string> = { To: m.to, From: m.from, Body: m.body };
      await db.insert(caughtMessages).values({
        channel: 'sms',
        tenantId: m.tenantId,
        receivedAt: clock.now(),
        envelopeFrom: m.from,
        envelopeTo: [m.to],
        messageId: sid,
        subject: null,
        headers: form,
        html: null,
        text: m.body,
        raw: new URLSearchParams(form).toString(),
      });
      if (a === 'dropped') return { class: 'ambiguous', code: 'ECONNRESET', message: 'socket hang up' };
      return { class: 'accepted', providerId: sid, response: JSON.stringify({ sid, status: 'queued' }) };
    },
    async close() {},
  };

  const webhook: WebhookChannel = {
    name: 'webhook',
    idempotent: true,
    async send(m: OutgoingWebhook, opts: SendOptions & { now: Date }): Promise<Outcome> {
      const a = answer('webhook', m.url, opts.idempotencyKey);
      if (a === 'transient') return { class: 'transient', code: 'HTTP_503', message: 'Service Unavailable' };
      if (a === 'refused') return { class: 'rejected', kind: 'permission', code: 'HTTP_403', message: 'Forbidden' };
      const body = JSON.stringify(m.payload);
      const headers: Record<string, string> = {
        'webhook-id': m.id,
        'webhook-timestamp': String(Math.floor(opts.now.getTime() / 1000)),
        'webhook-signature': new Webhook(m.secret).sign(m.id, opts.now, body),
        'content-type': 'application/json',
      };
      const type = (m.payload as { type?: unknown } | null)?.type;
      await db.insert(caughtMessages).values({
        channel: 'webhook',
        tenantId: m.tenantId,
        receivedAt: clock.now(),
        envelopeFrom: null,
        envelopeTo: [new URL(m.url).pathname],
        messageId: m.id,
        subject: typeof type === 'string' ? type : null,
        headers: { ...headers, verified: true, verification: 'signature valid (standardwebhooks)' },
        html: null,
        text: JSON.stringify(m.payload, null, 2),
        raw: body,
      });
      if (a === 'dropped') return { class: 'ambiguous', code: 'ECONNRESET', message: 'socket hang up' };
      return { class: 'accepted', providerId: 'http-204', response: 'HTTP 204' };
    },
    async close() {},
  };

  const slack: SlackPoster = {
    async post(url: string, text: string, opts: { now: Date; tenantId: string }): Promise<Outcome> {
      const a = answer('webhook', url, `slack:${opts.now.getTime()}:${text.length}`);
      if (a !== 'accepted') return { class: 'transient', code: 'HTTP_503', message: 'Service Unavailable' };
      // As the built-in receiver files a Slack-compatible post (dev/webhook-catcher.ts): the secret path hidden.
      const path = new URL(url).pathname.replace(/\/+$/, '');
      const slug = path.split('/')[2] ?? '';
      const body = JSON.stringify({ text });
      await db.insert(caughtMessages).values({
        channel: 'webhook',
        tenantId: opts.tenantId,
        receivedAt: clock.now(),
        envelopeFrom: null,
        envelopeTo: [`/hooks/${slug}`, `/slack/${slug}${path.split('/').length > 3 ? '/…' : ''}`],
        messageId: null,
        subject: 'slack alert',
        headers: {
          'content-type': 'application/json',
          verified: true,
          verification: "posted to the Slack URL in this tenant's alert settings (Slack webhooks carry no signature: the URL is the secret)",
        },
        html: null,
        text: JSON.stringify({ text }, null, 2),
        raw: body,
      });
      return { class: 'accepted', providerId: 'http-200', response: 'ok' };
    },
  };

  const deps: SendDeps = { db, channel: email, sms, webhook, clock, random: rnd, smsFrom: 'Punctual' };
  const seen = new Set<string>();
  let steps = 0;
  let alerts = 0;
  /** Minute sweeps still to run (UTC instants, ascending): one a minute after each dead letter or unknown outcome. */
  const sweeps: number[] = [];
  const scheduleSweep = (endedAt: Date) => {
    const at = Math.ceil((endedAt.getTime() + 60_000) / 60_000) * 60_000;
    if (!sweeps.includes(at)) sweeps.push(at);
    sweeps.sort((a, b) => a - b);
  };
  /** The worker's minute sweeps due before `before`: evaluate the tenant's alerts then, send what they plan. */
  const runSweeps = async (before: number) => {
    while (sweeps.length > 0 && sweeps[0]! < before) {
      const at = new Date(sweeps.shift()!);
      clock.moveTo(new Date(at.getTime() + between(20, 200)));
      // Only the conditions the history makes: the simulation says nothing about heartbeats or lag of the real worker.
      const { planned } = await evaluateAlerts(db, clock.now(), { tenantId: o.tenantId, publicUrl: o.publicUrl, conditions: ['dead_letters', 'unknown_outcomes'] });
      for (const m of planned) {
        clock.advance(between(5, 40));
        const r = await sendAlertMessage(db, m.id, { email: { smtp: email, http_api: email }, slack, random: rnd }, clock.now());
        if (r.status === 'sent') alerts++;
      }
    }
  };
  const ended = (status: string | undefined) => {
    if (status === 'dead' || status === 'unknown') scheduleSweep(clock.now());
  };
  for (;;) {
    const step = await nextHistoryStep(db, o.tenantId, o.eventIds, o.until, seen);
    await runSweeps(step ? step.at.getTime() : o.until.getTime());
    if (!step) break;
    seen.add(`${step.kind}:${step.id}:${step.at.getTime()}`);
    steps++;
    if (step.kind === 'domain_event') {
      // The notify job picks the fact up a moment after it was recorded, and plans its notifications then.
      clock.moveTo(new Date(step.at.getTime() + between(300, 800)));
      await processDomainEvent(db, step.id, clock.now());
      await notificationsPlannedAt(db, step.id, clock.now());
    } else if (step.kind === 'reminder') {
      // The dispatcher claims it a moment after its due instant; the send job runs right after.
      clock.moveTo(new Date(step.at.getTime() + between(150, 450)));
      if (!(await dispatchOne(db, step.id, clock.now()))) continue;
      clock.advance(between(5, 60));
      const r = await sendReminder(deps, step.id);
      if (r.kind === 'delivered') ended(r.result.status);
    } else {
      clock.moveTo(new Date(step.at.getTime() + between(20, 120)));
      ended((await deliver(deps, step.id)).status);
    }
  }
  await settleHistoryStamps(db, o.tenantId, o.eventIds);
  return { steps, calls, alerts };
}
