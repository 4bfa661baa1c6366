/**
 * Sending alert messages (issue #10 §6) — {@link sendAlertMessage}: claim the row (pending/retrying-due/lease-expired →
 * `sending` under a lease, guarded UPDATE: of the worker's job and the web process only one sends), send, record
 * `sent`, `retrying` (backoff with jitter, domain/sending/retry.ts; a new `send_alert` job at the next attempt) or
 * `failed`. A sender that died while `sending` leaves a lease that runs out; the message is then sent again (an alert
 * twice beats none).
 *
 * Email goes through the tenant's own email provider (`tenants.email_provider`); Slack through a Slack-compatible
 * incoming webhook (channels/slack.ts). The web process's senders come from its environment (webAlertSenders), and
 * its heartbeat watchdog (runHeartbeatWatchdog) evaluates and sends the worker heartbeat without the queue.
 */
import { createHttpEmailChannel } from '@/channels/http-email';
import { createSlackPoster, type SlackPoster } from '@/channels/slack';
import { createSmtpChannel } from '@/channels/smtp';
import type { EmailChannel, Outcome } from '@/channels/types';
import type { Db } from '@/db/client';
import { claimAlertMessage, dueAlertMessageIds, finishAlertMessage, getAlertMessage } from '@/db/queries/alerts/alerts';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { getTenant } from '@/db/queries/scheduling/scheduling';
import type { AlertMessage, Tenant } from '@/db/schema';
import { alertEmailHtml, alertRetryPolicy, decideAlertSend } from '@/domain/alerts/messages';
import { messageIdFor } from '@/domain/keys';
import type { RetryPolicy } from '@/domain/sending/retry';
import type { AlertCondition, EmailProvider } from '@/domain/vocabulary';
import { webhookUrlPolicy } from '@/server/notifications/notification-settings';
import type { SenderIdentityConfig } from '@/domain/organisations/sender-identity';
import { senderFor } from '@/server/organisations/sender-identity';
import { evaluateAlerts } from './evaluation';
import { WEB_SEND_HEAD_START_MS } from './outbox';
import { TASK } from '@/jobs/registry';

/** What sends alert messages in this process. */
export interface AlertSenders {
  /** Email channels by provider; the tenant's `email_provider` picks one (as for its reminders). */
  email: Partial<Record<EmailProvider, EmailChannel>>;
  /** The Slack-compatible webhook poster, or null. */
  slack: SlackPoster | null;
  /** Retry policy (default domain/alerts/messages.ts alertRetryPolicy). */
  policy?: RetryPolicy;
  /** Jitter draw in [0, 1) (default Math.random). */
  random?: () => number;
  /** The operator's sender settings (server/organisations/sender-identity.ts; default: this process's environment). */
  senderIdentity?: SenderIdentityConfig;
  /** Lease while `sending`, ms (default 60 000). */
  leaseMs?: number;
  /** Per-send timeout, ms (default 20 000). */
  timeoutMs?: number;
}

/** What one {@link sendAlertMessage} call did with the message. */
export type SendAlertResult =
  | { id: string; status: 'sent' }
  | { id: string; status: 'retrying'; reason: string; nextAttemptAt: Date }
  | { id: string; status: 'failed'; reason: string }
  /** Nothing done: not claimable now (sent, another sender has it, a retry not yet due), or no sender here. */
  | { id: string; status: 'skipped'; reason: string };

/**
 * Sends one alert message (module doc): claim, send, record.
 * @param opts.missingChannel what to do when this process has no sender for the message's route or the tenant's
 *   email provider: `skip` (default; the web process — the worker will send it) or `fail` (the worker: nobody else will).
 * @throws only for infrastructure errors (the row is then `sending` under a lease, taken again after it).
 */
export async function sendAlertMessage(db: Db, id: string, senders: AlertSenders, now: Date, opts: { missingChannel?: 'skip' | 'fail' } = {}): Promise<SendAlertResult> {
  const m = await getAlertMessage(db, id);
  if (!m) return { id, status: 'skipped', reason: 'no such alert message' };
  const tenant = await getTenant(db, m.tenantId);
  if (!tenant) return { id, status: 'skipped', reason: 'tenant not found' };
  const email = m.route === 'email' ? senders.email[tenant.emailProvider] : undefined;
  const missing = m.route === 'email' ? (email ? null : `no ${tenant.emailProvider} email channel is configured in this process`) : senders.slack ? null : 'no Slack poster in this process';
  if (missing && opts.missingChannel !== 'fail') return { id, status: 'skipped', reason: missing };
  const leaseMs = senders.leaseMs ?? 60_000;
  const claimed = await claimAlertMessage(db, id, now, new Date(now.getTime() + leaseMs));
  if (!claimed) return { id, status: 'skipped', reason: `not claimable now (${m.status})` };
  let outcome: Outcome;
  if (missing) {
    outcome = { class: 'rejected', kind: 'permission', code: 'NO_CHANNEL', message: missing };
  } else {
    const signal = AbortSignal.timeout(senders.timeoutMs ?? 20_000);
    try {
      outcome = m.route === 'email' ? await sendEmail(email!, tenant, claimed, signal, senders.senderIdentity) : await senders.slack!.post(claimed.address, claimed.body, { now, tenantId: tenant.id, signal });
    } catch (e) {
      // An adapter that throws broke its contract; we cannot know whether anything went out: retry.
      outcome = { class: 'ambiguous', code: 'ADAPTER_ERROR', message: e instanceof Error ? e.message : String(e) };
    }
  }
  const decision = decideAlertSend({
    outcome: { class: outcome.class, ...(outcome.class === 'accepted' ? {} : { code: outcome.code, message: outcome.message }), ...(outcome.class === 'rate_limited' ? { retryAfterMs: outcome.retryAfterMs } : {}) },
    attempts: claimed.attempts,
    policy: senders.policy ?? alertRetryPolicy,
    now,
    random: (senders.random ?? Math.random)(),
    zone: tenant.timeZone,
  });
  return db.transaction(async (tx): Promise<SendAlertResult> => {
    const r =
      decision.status === 'sent'
        ? ({ status: 'sent', sentAt: now } as const)
        : decision.status === 'retrying'
          ? ({ status: 'retrying', nextAttemptAt: decision.nextAttemptAt, lastError: decision.reason } as const)
          : ({ status: 'failed', lastError: decision.reason } as const);
    const recorded = await finishAlertMessage(tx, id, claimed.attempts, r);
    if (!recorded) return { id, status: 'skipped', reason: 'the lease ran out and another sender took the message' };
    if (decision.status === 'retrying') {
      await enqueueJob(tx, TASK.sendAlert, { id }, { runAt: decision.nextAttemptAt, jobKey: `send_alert:${id}`, jobKeyMode: 'replace' });
      return { id, status: 'retrying', reason: decision.reason, nextAttemptAt: decision.nextAttemptAt };
    }
    return decision.status === 'sent' ? { id, status: 'sent' } : { id, status: 'failed', reason: decision.reason };
  });
}

/**
 * One alert email through the tenant's channel, from its sender address once proven (else the deployment's,
 * server/organisations/sender-identity.ts), with a Message-ID made from the message key.
 */
function sendEmail(channel: EmailChannel, tenant: Tenant, m: AlertMessage, signal: AbortSignal, senderIdentity?: SenderIdentityConfig): Promise<Outcome> {
  const sender = senderFor(tenant, senderIdentity, { displayName: `${tenant.name} (Punctual alerts)` });
  return channel.send(
    {
      tenantId: tenant.id,
      from: sender.from,
      ...(sender.replyTo ? { replyTo: sender.replyTo } : {}),
      to: { name: '', address: m.address },
      subject: m.subject,
      text: m.body,
      html: alertEmailHtml(m.body, m.link),
      messageId: messageIdFor(m.messageKey),
      headers: { 'X-Punctual-Alert': `${m.condition} ${m.transition}` },
    },
    { idempotencyKey: m.messageKey, signal },
  );
}

/** Sends every message a sender may take now (optionally of one condition), one after another. */
async function sendDueAlertMessages(db: Db, senders: AlertSenders, now: Date, opts: { condition?: AlertCondition } = {}): Promise<SendAlertResult[]> {
  const out: SendAlertResult[] = [];
  for (const id of await dueAlertMessageIds(db, now, opts)) out.push(await sendAlertMessage(db, id, senders, now));
  return out;
}

/**
 * Alert senders from the environment (the web process): SMTP_URL, HTTP_EMAIL_API_URL + HTTP_EMAIL_API_KEY, and a
 * Slack poster (the webhook URL policy, server/notifications/notification-settings.ts webhookUrlPolicy: http:// only with
 * PUNCTUAL_WEBHOOK_ALLOW_HTTP=true, a non-public host only when PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS names its origin). A provider whose
 * variables are unset has no channel here: its messages are left to the worker.
 */
function alertSendersFromEnv(env: Record<string, string | undefined> = process.env): AlertSenders {
  const email: Partial<Record<EmailProvider, EmailChannel>> = {};
  if (env.SMTP_URL) email.smtp = createSmtpChannel({ url: env.SMTP_URL });
  if (env.HTTP_EMAIL_API_URL && env.HTTP_EMAIL_API_KEY) email.http_api = createHttpEmailChannel({ baseUrl: env.HTTP_EMAIL_API_URL, apiKey: env.HTTP_EMAIL_API_KEY });
  return { email, slack: createSlackPoster(webhookUrlPolicy(env)) };
}

const globalForSenders = globalThis as unknown as { __punctualAlertSenders?: AlertSenders };
/** The web process's senders (made once from the environment). */
export function webAlertSenders(): AlertSenders {
  globalForSenders.__punctualAlertSenders ??= alertSendersFromEnv();
  return globalForSenders.__punctualAlertSenders;
}

/**
 * The web process's watchdog tick (server/alerts/watchdog.ts): evaluates ONLY the worker heartbeat for every tenant and
 * sends heartbeat messages directly — the queue's worker is what may have stopped. The worker sends them too
 * when it runs; the claim makes each go out once.
 */
export async function runHeartbeatWatchdog(db: Db, senders: AlertSenders, now: Date, publicUrl?: string): Promise<{ planned: number; results: SendAlertResult[] }> {
  const r = await evaluateAlerts(db, now, { conditions: ['worker_heartbeat'], publicUrl, jobDelayMs: WEB_SEND_HEAD_START_MS });
  const results = await sendDueAlertMessages(db, senders, now, { condition: 'worker_heartbeat' });
  return { planned: r.planned.length, results };
}
