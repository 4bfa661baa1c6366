/**
 * One alert message (issue #10 §6): its stable key, the page it links to, its words (email subject and text, Slack
 * text, the HTML part), how a send's outcome is decided (sent, retrying after backoff, failed), and the masked
 * webhook URL. Pure; the server plans and sends (server/alerts/).
 */
import { nextAttemptDelayMs, type RetryPolicy } from '@/domain/sending/retry';
import type { AlertCondition, AlertRoute, OutcomeClass } from '@/domain/vocabulary';
import type { AlertStateSnapshot, AlertTransition } from './alerts';
import { alertConditionLabels, alertTime, formatDuration, providerChannel } from './format';
import type { ProviderAuthFailure } from './provider-auth';

/**
 * The stable key of one alert message (`alert_messages.message_key`, unique):
 * `alert:<tenant>:<condition>:<episode>:<started|cleared>:<route>:<recipient>`; a test message has
 * `test` as its condition and the request instant (epoch ms) as its episode. `recipient`: the staff user id
 * (email) or {@link slackRecipientId} of the webhook URL.
 */
export function alertMessageKey(k: { tenantId: string; condition: AlertCondition | 'test'; episode: number; transition: AlertTransition | 'test'; route: AlertRoute; recipient: string }): string {
  return `alert:${k.tenantId}:${k.condition}:${k.episode}:${k.transition}:${k.route}:${k.recipient}`;
}

/** The recipient part of a message key (everything after the route), or null for a key of another shape. */
export function recipientOfKey(messageKey: string): string | null {
  const parts = messageKey.split(':');
  return parts.length >= 7 && parts[0] === 'alert' ? parts.slice(6).join(':') : null;
}

/** The page where a person acts on `condition` (a path; the server makes it absolute with PUNCTUAL_PUBLIC_URL). */
export function alertPath(condition: AlertCondition, failures: readonly ProviderAuthFailure[] = []): { path: string; label: string } {
  switch (condition) {
    case 'dead_letters':
    case 'unknown_outcomes':
      return { path: '/attention', label: 'Open Needs attention' };
    case 'provider_auth': {
      // The deliveries list has no provider filter; the refused deliveries are dead letters on that channel.
      const chans = [...new Set(failures.map((f) => providerChannel[f.provider]))];
      return { path: chans.length === 1 ? `/attention?channel=${chans[0]}` : '/attention', label: 'Open Needs attention' };
    }
    default:
      return { path: '/', label: 'Open the dashboard' };
  }
}

/** `base` + `path` as one absolute URL (`base` with or without a trailing slash). */
export function absoluteLink(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path}`;
}

/** What each condition means and what to do about it, one sentence (message bodies). */
const advice: Record<AlertCondition, string> = {
  dead_letters: 'These deliveries will not be retried automatically: replay or discard them on the Needs attention page.',
  unknown_outcomes: 'These sends may or may not have gone out: mark each as sent or send it again on the Needs attention page.',
  dispatch_lag: 'Reminders are going out later than your threshold: check the worker and the providers on the dashboard.',
  oldest_due: 'A reminder that is due has not been sent: check that the worker is running and the dashboard for errors.',
  provider_auth: 'The provider refuses our credentials or permission: fix the credentials or account; the refused deliveries are dead letters to replay once it is fixed.',
  worker_heartbeat: 'The worker that sends reminders has stopped running its minute sweep: reminders are not going out. Restart the worker.',
};

/** Slack's three escaped characters in message text (Slack "Formatting text for app surfaces": &, <, >). */
export function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The texts of one alert message: email subject and plain-text body, and the Slack `text`. */
interface AlertTexts {
  subject: string;
  /** Plain text; ends with the link on its own line. */
  text: string;
  /** Slack mrkdwn with the link as `<url|label>`. */
  slack: string;
}

/**
 * The words of one alert (stored in `alert_messages` when planned). `state` is the condition's state as stored
 * with the transition (for a clear: the episode that ended, `clearedAt` set). `emailSkipped`: a provider_auth
 * alert about the tenant's own email provider, which is therefore not emailed (said in the text).
 */
export function alertTexts(input: {
  tenantName: string;
  condition: AlertCondition;
  transition: AlertTransition;
  state: AlertStateSnapshot;
  link: string;
  linkLabel: string;
  emailSkipped?: boolean;
  /** The tenant's IANA zone: instants in the text are written in it ({@link alertTime}); UTC when not given. */
  zone?: string;
}): AlertTexts {
  const { tenantName, condition, transition, state, link, linkLabel } = input;
  const isoSecond = (d: Date) => alertTime(d, input.zone ?? 'UTC');
  const label = alertConditionLabels[condition];
  let summary: string;
  let lines: string[];
  if (transition === 'started') {
    summary = state.detail ?? label;
    lines = [summary, '', advice[condition]];
    if (input.emailSkipped) lines.push('', 'This alert is not emailed: the failing provider is the one your email goes through.');
  } else {
    const lasted = state.startedAt && state.clearedAt ? ` after ${formatDuration(state.clearedAt.getTime() - state.startedAt.getTime())}` : '';
    summary = `Cleared: ${clearedPhrase(condition)}${lasted}`;
    lines = [summary, '', `It started at ${state.startedAt ? isoSecond(state.startedAt) : '—'}: ${state.detail ?? label}.`];
  }
  const subject = `[Punctual] ${tenantName}: ${summary}`.slice(0, 250);
  const text = [...lines, '', `${linkLabel}: ${link}`, '', `— Punctual alerts for ${tenantName}. One message when a condition starts, one when it clears; at most one start per condition per hour.`].join('\n');
  const icon = transition === 'started' ? ':rotating_light:' : ':white_check_mark:';
  const slack = `${icon} *${slackEscape(tenantName)}*: ${slackEscape(summary)}\n${slackEscape(lines.slice(2).filter((l) => l !== '').join(' '))}\n<${link}|${slackEscape(linkLabel)}>`;
  return { subject, text, slack };
}

function clearedPhrase(c: AlertCondition): string {
  switch (c) {
    case 'dead_letters':
      return 'no dead letters left';
    case 'unknown_outcomes':
      return 'no unknown outcomes left';
    case 'dispatch_lag':
      return 'dispatch lag is back under the threshold';
    case 'oldest_due':
      return 'no due reminder is waiting longer than the threshold';
    case 'provider_auth':
      return 'the provider accepts our credentials again';
    case 'worker_heartbeat':
      return 'the worker runs its minute sweep again';
  }
}

/** The texts of a test message ("Send test alert" on the alerts page). */
export function testAlertTexts(tenantName: string, link: string, requestedBy: string): AlertTexts {
  const summary = `Test alert requested by ${requestedBy}`;
  const body = 'If you can read this, alerts reach you on this route. Nothing is wrong.';
  return {
    subject: `[Punctual] ${tenantName}: ${summary}`,
    text: [summary, '', body, '', `Open the alert settings: ${link}`].join('\n'),
    slack: `:bell: *${slackEscape(tenantName)}*: ${slackEscape(summary)}\n${slackEscape(body)}\n<${link}|Open the alert settings>`,
  };
}

/**
 * How an alert message send ended: a provider outcome class (channels' `Outcome`) read for alerts — accepted →
 * `sent`; rejected → `failed` (a retry cannot fix a refused address or URL); transient, rate-limited or
 * ambiguous → `retrying` after the backoff (domain/sending/retry.ts, the provider's Retry-After wins), until the policy's
 * attempts are spent (→ `failed`). An ambiguous answer is retried: a person receiving an alert twice is better
 * than none.
 * @param attempts attempts made so far, this one included.
 * @param random a draw in [0, 1) for the jitter.
 */
export function decideAlertSend(input: {
  outcome: { class: OutcomeClass; code?: string; message?: string; retryAfterMs?: number | null };
  attempts: number;
  policy: RetryPolicy;
  now: Date;
  random: number;
  /** The tenant's IANA zone for the next attempt's instant in the reason ({@link alertTime}); UTC when not given. */
  zone?: string;
}): { status: 'sent' } | { status: 'retrying'; nextAttemptAt: Date; reason: string } | { status: 'failed'; reason: string } {
  const o = input.outcome;
  if (o.class === 'accepted') return { status: 'sent' };
  const what = `${o.class}${o.code ? ` (${o.code}${o.message ? `: ${o.message}` : ''})` : o.message ? ` (${o.message})` : ''}`;
  if (o.class === 'rejected') return { status: 'failed', reason: `refused: ${what}` };
  const delay = nextAttemptDelayMs(input.policy, input.attempts, o.class === 'rate_limited' ? (o.retryAfterMs ?? null) : null, input.random);
  if (delay < 0) return { status: 'failed', reason: `gave up after ${input.attempts} attempts (last: ${what})` };
  const nextAttemptAt = new Date(input.now.getTime() + delay);
  return { status: 'retrying', nextAttemptAt, reason: `${what}; next attempt at ${alertTime(nextAttemptAt, input.zone ?? 'UTC')}` };
}

/** Retry policy of alert messages: first retry within 15 s, at most 15 min apart, 8 attempts. */
export const alertRetryPolicy: RetryPolicy = { baseMs: 15_000, capMs: 15 * 60_000, maxAttempts: 8 };

/** A webhook URL for people who may not see it (it is a credential): scheme, host and `/…`. */
export function maskWebhookUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}/…`;
  } catch {
    return '(set)';
  }
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The HTML part of an alert email from its plain text: one paragraph per blank-line-separated block (HTML
 * escaped), the first in bold, and every occurrence of `link` as an anchor to it.
 */
export function alertEmailHtml(text: string, link: string): string {
  const blocks = text.split(/\n{2,}/).map((b) => b.trim()).filter(Boolean);
  const linked = (s: string) => escapeHtml(s).split(escapeHtml(link)).join(`<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`);
  const paras = blocks.map((b, i) => `<p style="margin:0 0 12px">${i === 0 ? `<strong>${linked(b)}</strong>` : linked(b).replace(/\n/g, '<br>')}</p>`);
  return `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a">${paras.join('')}</body></html>`;
}
