/**
 * Alerts that reach a person (issue #10 §6): the pure decisions. Given the previous state of one alert condition
 * of one tenant, what is observed now and `now`, {@link decideAlert} says what the state becomes and whether a
 * person is to be told ("started" or "cleared"); the server (server/alerts/alerts.ts) applies that under a row lock and
 * plans one message per route and recipient, keyed by {@link alertMessageKey} so a re-evaluation plans nothing
 * twice. Nothing here reads a clock or does I/O.
 *
 * Conditions (domain/vocabulary.ts `alertConditions`) and when each HOLDS:
 *   dead_letters      ≥ 1 delivery of the tenant is `dead` now (the episode's items are the dead letters that
 *                     appeared since it began: while it lasts, more may join; it clears when none is left —
 *                     replayed or discarded).
 *   unknown_outcomes  the same for `unknown`.
 *   dispatch_lag      p95 of (first provider call − due instant) over the first attempts started in the last
 *                     5 minutes ({@link LAG_WINDOW_MS}) is above the tenant's `lag_p95_ms` ("over the threshold
 *                     for 5 minutes"). No attempt in the window: it does not hold (nothing was sent late; a
 *                     backlog that sends nothing is `oldest_due`'s).
 *   oldest_due        the oldest reminder still `scheduled`/`dispatched`, not expired, whose due instant has
 *                     passed, has waited longer than the tenant's `oldest_due_seconds`.
 *   provider_auth     a provider's latest decisive attempt (accepted, or rejected for authentication/permission:
 *                     {@link isAuthRejection}) was such a rejection. To START it must have happened within the
 *                     last 15 minutes ({@link PROVIDER_AUTH_WINDOW_MS}: old history does not page anyone when
 *                     alerts are switched on); once active it lasts until a later attempt on that provider is
 *                     accepted (no attempt at all is not a recovery).
 *   worker_heartbeat  the newest `worker_heartbeats.last_sweep_at` is more than 3 minutes old
 *                     ({@link HEARTBEAT_STALE_MS}). No heartbeat row at all: never seen a worker, does not hold.
 *
 * Rules for telling a person (issue #10 §6):
 *   - once when a condition starts and once when it clears — the clear only when the start was sent;
 *   - grouped: for the count conditions (dead letters, unknown outcomes) the start waits until no new item has
 *     appeared for 60 s ({@link ALERT_QUIET_MS}) or 5 minutes have passed since the first item
 *     ({@link ALERT_GROUP_MAX_MS}), so a burst is one alert naming the whole count ("12 new dead letters, first
 *     at …"); the other conditions alert at the first evaluation that sees them;
 *   - at most one start alert per condition per hour ({@link ALERT_MIN_START_INTERVAL_MS}): an episode that
 *     starts within the hour after the last start alert (a flap) is tracked — it has its own episode number and
 *     shows on the page — but not sent; if it is STILL active when the hour has passed, its start is sent then
 *     (a real problem is never silenced for good by an earlier flap);
 *   - a start is only "sent" when there is someone to send it to (`canNotify`); otherwise it is tried again at
 *     every evaluation, so a recipient added during an episode hears of it.
 */
import { enhancedStatusOf } from '@/domain/sending/smtp-outcome';
import { nextAttemptDelayMs, type RetryPolicy } from '@/domain/sending/retry';
import type { AlertCondition, AlertRoute, Channel, OutcomeClass, Provider } from '@/domain/vocabulary';
import { formatStaffTime } from '@/domain/staff-time';

/** A count condition's start waits until no new item has appeared for this long, ms. */
export const ALERT_QUIET_MS = 60_000;
/**
 * The grouping quiet period a decision uses, ms: {@link ALERT_QUIET_MS} in production. Only the browser tests pass
 * another (server/alerts/alerts.ts `alertQuietMsFromEnv`, PUNCTUAL_ALERT_QUIET_MS), so they need not wait out a real minute.
 */
export interface AlertTiming {
  quietMs?: number;
}
/** …or at most this long after the episode's first item, ms. */
export const ALERT_GROUP_MAX_MS = 5 * 60_000;
/** At most one start alert per condition within this long, ms. */
const ALERT_MIN_START_INTERVAL_MS = 3_600_000;
/** Dispatch lag is judged over the first attempts started within this window before now, ms. */
export const LAG_WINDOW_MS = 5 * 60_000;
/** A provider's auth/permission rejection starts an alert only when it happened within this window, ms. */
export const PROVIDER_AUTH_WINDOW_MS = 15 * 60_000;
/** No worker minute sweep for longer than this → the heartbeat condition holds, ms. */
export const HEARTBEAT_STALE_MS = 3 * 60_000;

/** The conditions whose items are counted and grouped (dead letters, unknown outcomes). */
const countConditions: readonly AlertCondition[] = ['dead_letters', 'unknown_outcomes'];
const isCountCondition = (c: AlertCondition): c is 'dead_letters' | 'unknown_outcomes' => countConditions.includes(c);

/** One `alert_states` row as the decision sees it (instants are UTC). */
export interface AlertStateSnapshot {
  active: boolean;
  /** Counts starts: episode N's messages carry N in their key. 0 = never started. */
  episode: number;
  startedAt: Date | null;
  clearedAt: Date | null;
  /** Count conditions: dead letters / unknown outcomes there now. Others: see {@link decideAlert}. */
  itemCount: number;
  /** When the episode's first item appeared (count conditions), or what the condition is measured from. */
  firstItemAt: Date | null;
  /** When the newest item appeared (the grouping's quiet period runs from here). */
  lastItemAt: Date | null;
  /** What is (or was) wrong, in one line, e.g. "12 new dead letters, first at 2027-03-01T12:00:05Z". */
  detail: string | null;
  /** Whether this episode's start was sent to someone (its clear is sent only then). */
  startNotified: boolean;
  /** When the last start alert of this condition was planned (any episode): the hourly limit runs from here. */
  lastStartAlertAt: Date | null;
}

/** A condition that has never been evaluated. */
export const idleAlertState: AlertStateSnapshot = {
  active: false,
  episode: 0,
  startedAt: null,
  clearedAt: null,
  itemCount: 0,
  firstItemAt: null,
  lastItemAt: null,
  detail: null,
  startNotified: false,
  lastStartAlertAt: null,
};

/** A provider whose latest decisive attempt was an authentication/permission rejection. */
export interface ProviderAuthFailure {
  provider: Provider;
  /** When that attempt ended (else started), UTC. */
  at: Date;
  /** The attempt's error code as stored (`535`, `HTTP_401`, `20003`, …) and the provider's words. */
  code: string;
  message: string;
}

/** What the server observed for one condition (cheap queries, db/queries/alerts/alerts.ts). */
export type AlertObservation =
  | {
      condition: 'dead_letters' | 'unknown_outcomes';
      /** Deliveries in that status now. */
      count: number;
      /** When the oldest / newest of them reached it (their last attempt's end, else their last change), or null. */
      firstAt: Date | null;
      lastAt: Date | null;
    }
  | { condition: 'dispatch_lag'; p95Ms: number | null; samples: number; thresholdMs: number }
  | { condition: 'oldest_due'; oldestDueAt: Date | null; waiting: number; thresholdSeconds: number }
  | { condition: 'provider_auth'; failures: ProviderAuthFailure[] }
  | { condition: 'worker_heartbeat'; lastSweepAt: Date | null };

type AlertTransition = 'started' | 'cleared';

interface AlertDecision {
  /** The state to store (identical to the previous one when nothing changed: see `changed`). */
  next: AlertStateSnapshot;
  changed: boolean;
  /** The message to plan now, or null. */
  notify: AlertTransition | null;
}

const ms = (d: Date | null | undefined) => (d ? d.getTime() : null);
const minDate = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);
const maxDate = (a: Date | null, b: Date | null): Date | null => (!a ? b : !b ? a : a.getTime() >= b.getTime() ? a : b);

/**
 * An instant as alert texts name it: wall-clock time to the second in the tenant's zone `zone` (IANA) with the
 * zone's abbreviation, "Mon 1 Mar 2027, 13:00:05 CET" — the words of the staff UI (domain/staff-time.ts), never a
 * raw ISO instant (issue #12: alert emails and Slack posts are read by staff, without a page to hover on).
 */
export function alertTime(d: Date, zone: string): string {
  return formatStaffTime(d, zone, { seconds: true });
}

/** "45 s", "3 min", "2 h 5 min", "1 d 3 h": a duration for people (rounded down, never negative). */
export function formatDuration(durationMs: number): string {
  const s = Math.max(0, Math.floor(durationMs / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** Provider names for people. */
export const providerLabels: Record<Provider, string> = {
  smtp: 'The SMTP server',
  http_api: 'The HTTP email API',
  sms_api: 'The SMS API',
  webhook: 'Your webhook receiver',
};

/** The channel a provider carries (for the needs-attention filter). */
const providerChannel: Record<Provider, Channel> = { smtp: 'email', http_api: 'email', sms_api: 'sms', webhook: 'webhook' };

/** Condition names for people (page headings, message subjects). */
export const alertConditionLabels: Record<AlertCondition, string> = {
  dead_letters: 'Dead letters',
  unknown_outcomes: 'Unknown outcomes',
  dispatch_lag: 'Dispatch lag',
  oldest_due: 'Oldest due reminder',
  provider_auth: 'Provider refuses our credentials',
  worker_heartbeat: 'Worker heartbeat',
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Is this stored attempt a provider refusing our credentials or permission? (issue #10 §6: "a provider answering
 * with an authentication/permission error".) Reads the attempt as the channels store it (`delivery_attempts`
 * `outcome`, `error_code`, `error_message`, `provider_response`):
 *   - SMTP (channels/smtp.ts stores the reply code): 530 (authentication required), 534, 535 (credentials
 *     invalid), 538 (RFC 4954 §6), nodemailer's `EAUTH`, and any 5xx whose RFC 3463 enhanced code is 5.7.x
 *     (security or policy status, e.g. `550 5.7.1`, `535 5.7.8`);
 *   - HTTP APIs and webhook receivers (code `HTTP_<status>`): 401, 403;
 *   - the SMS API: Twilio 20003 (authentication error), or HTTP 401/403 without a Twilio code.
 * Only `rejected` attempts qualify: a 4xx "try later" is not a credentials problem.
 */
export function isAuthRejection(a: {
  provider: Provider;
  outcome: OutcomeClass | null;
  errorCode: string | null;
  errorMessage?: string | null;
  providerResponse?: string | null;
}): boolean {
  if (a.outcome !== 'rejected') return false;
  const code = (a.errorCode ?? '').trim().toUpperCase();
  if (code === 'HTTP_401' || code === 'HTTP_403') return true;
  if (a.provider === 'sms_api') return code === '20003';
  if (a.provider !== 'smtp') return false;
  if (code === 'EAUTH' || code === '530' || code === '534' || code === '535' || code === '538') return true;
  if (!/^5\d\d$/.test(code)) return false;
  const text = a.providerResponse ?? a.errorMessage ?? undefined;
  const enhanced = enhancedStatusOf(a.providerResponse ?? undefined, Number(code)) ?? enhancedStatusOf(a.errorMessage ?? undefined, Number(code));
  if (!enhanced) return false;
  if (SMTP_AUTH_STATUSES.has(enhanced)) return true;
  // 5.7.1 is usually ONE recipient's policy ("delivery not authorized", a spam refusal): a per-message dead letter,
  // not a provider that refuses us. Only "relay access denied" means our server may not send through it at all.
  return enhanced === '5.7.1' && /relay/i.test(text ?? '');
}

/**
 * Enhanced status codes (RFC 3463, RFC 4954 §6, IANA registry) that mean the SMTP server refuses US, whatever the
 * recipient: 5.7.0 authentication required, 5.7.8 credentials invalid, 5.7.9 mechanism too weak, 5.7.11 encryption
 * required, 5.7.13 account disabled, 5.7.14 trust relationship required.
 */
const SMTP_AUTH_STATUSES: ReadonlySet<string> = new Set(['5.7.0', '5.7.8', '5.7.9', '5.7.11', '5.7.13', '5.7.14']);

/** One attempt of a provider, newest first, as {@link providerAuthFailure} reads it. */
export interface DecisiveAttempt {
  provider: Provider;
  outcome: OutcomeClass | null;
  errorCode: string | null;
  errorMessage: string | null;
  providerResponse: string | null;
  at: Date;
}

/**
 * The auth failure a provider is in, from its recent attempts NEWEST FIRST: the first attempt that is accepted
 * (→ null: the provider takes our credentials) or an auth rejection (→ that failure) decides; attempts that say
 * nothing about credentials (transient, a bad recipient) are skipped. Null when none decides.
 */
export function providerAuthFailure(attemptsNewestFirst: readonly DecisiveAttempt[]): ProviderAuthFailure | null {
  for (const a of attemptsNewestFirst) {
    if (a.outcome === 'accepted') return null;
    if (isAuthRejection(a)) return { provider: a.provider, at: a.at, code: a.errorCode ?? '', message: (a.providerResponse || a.errorMessage || '').slice(0, 300) };
  }
  return null;
}

/** Whether the observed condition holds now (module doc), given whether it was active. */
export function conditionHolds(obs: AlertObservation, wasActive: boolean, now: Date): boolean {
  switch (obs.condition) {
    case 'dead_letters':
    case 'unknown_outcomes':
      return obs.count > 0;
    case 'dispatch_lag':
      return obs.p95Ms !== null && obs.samples > 0 && obs.p95Ms > obs.thresholdMs;
    case 'oldest_due':
      return obs.oldestDueAt !== null && now.getTime() - obs.oldestDueAt.getTime() > obs.thresholdSeconds * 1000;
    case 'provider_auth':
      return wasActive ? obs.failures.length > 0 : obs.failures.some((f) => now.getTime() - f.at.getTime() <= PROVIDER_AUTH_WINDOW_MS);
    case 'worker_heartbeat':
      return obs.lastSweepAt !== null && now.getTime() - obs.lastSweepAt.getTime() > HEARTBEAT_STALE_MS;
  }
}

/**
 * The one-line summary of what is wrong now ({@link AlertStateSnapshot.detail}); `state` gives the episode's first
 * item. Instants are written in `zone` (the tenant's IANA zone; UTC when not given): see {@link alertTime}.
 */
function describeActive(obs: AlertObservation, state: Pick<AlertStateSnapshot, 'itemCount' | 'firstItemAt'>, now: Date, zone = 'UTC'): string {
  const isoSecond = (d: Date) => alertTime(d, zone);
  switch (obs.condition) {
    case 'dead_letters':
    case 'unknown_outcomes': {
      const what = obs.condition === 'dead_letters' ? plural(state.itemCount, 'new dead letter', 'new dead letters') : plural(state.itemCount, 'new unknown outcome', 'new unknown outcomes');
      return state.firstItemAt ? `${what}, first at ${isoSecond(state.firstItemAt)}` : what;
    }
    case 'dispatch_lag':
      return `Dispatch lag p95 is ${formatDuration(obs.p95Ms ?? 0)} over the last 5 minutes (threshold ${formatDuration(obs.thresholdMs)}; ${plural(obs.samples, 'send', 'sends')})`;
    case 'oldest_due':
      return `The oldest due reminder has waited ${formatDuration(now.getTime() - (obs.oldestDueAt ?? now).getTime())} (due ${obs.oldestDueAt ? isoSecond(obs.oldestDueAt) : '—'}; threshold ${formatDuration(obs.thresholdSeconds * 1000)}; ${plural(obs.waiting, 'reminder', 'reminders')} waiting)`;
    case 'provider_auth':
      return obs.failures.map((f) => `${providerLabels[f.provider]} refused our credentials: ${f.message || f.code} (at ${isoSecond(f.at)})`).join('; ');
    case 'worker_heartbeat':
      return `No worker has run its minute sweep since ${obs.lastSweepAt ? isoSecond(obs.lastSweepAt) : '—'} (${formatDuration(now.getTime() - (obs.lastSweepAt ?? now).getTime())} ago)`;
  }
}

/** Why an active episode's start is not sent yet: the hourly limit, or a count condition's grouping window. */
type StartHold = { kind: 'hourly'; lastAt: Date; retryAt: Date } | { kind: 'grouping'; until: Date };

/**
 * Whether an active episode's start may be sent now (module doc): grouping for count conditions (sent once no
 * new item has come for {@link ALERT_QUIET_MS}, at the latest {@link ALERT_GROUP_MAX_MS} after the first), the
 * hourly limit ({@link ALERT_MIN_START_INTERVAL_MS}) for all. Null when it may. `timing.quietMs` replaces the quiet
 * period (tests only, {@link AlertTiming}).
 */
export function startHold(condition: AlertCondition, s: AlertStateSnapshot, now: Date, timing: AlertTiming = {}): StartHold | null {
  const t = now.getTime();
  const quietMs = timing.quietMs ?? ALERT_QUIET_MS;
  if (s.lastStartAlertAt && t - s.lastStartAlertAt.getTime() < ALERT_MIN_START_INTERVAL_MS) {
    return { kind: 'hourly', lastAt: s.lastStartAlertAt, retryAt: new Date(s.lastStartAlertAt.getTime() + ALERT_MIN_START_INTERVAL_MS) };
  }
  if (isCountCondition(condition)) {
    const quietSince = ms(s.lastItemAt ?? s.firstItemAt);
    const first = ms(s.firstItemAt);
    const quiet = quietSince === null || t - quietSince >= quietMs;
    const capped = first === null || t - first >= ALERT_GROUP_MAX_MS;
    if (!quiet && !capped) return { kind: 'grouping', until: new Date(Math.min(quietSince! + quietMs, first! + ALERT_GROUP_MAX_MS)) };
  }
  return null;
}

/** {@link startHold} in words for the alerts page (instants in `zone`, see {@link alertTime}), or null when the start may be sent now. */
export function startHeldReason(condition: AlertCondition, s: AlertStateSnapshot, now: Date, timing: AlertTiming = {}, zone = 'UTC'): string | null {
  const h = startHold(condition, s, now, timing);
  const isoSecond = (d: Date) => alertTime(d, zone);
  if (!h) return null;
  return h.kind === 'hourly'
    ? `an alert for this went out at ${isoSecond(h.lastAt)} (at most one an hour); if it is still active at ${isoSecond(h.retryAt)} it is sent then`
    : `waiting until no new one has appeared for a minute, so a burst is one alert (sent by ${isoSecond(h.until)} at the latest)`;
}

/**
 * The next state of one condition and the message to plan (module doc).
 * - Not holding and inactive: nothing changes.
 * - Holding and inactive: a new episode (`episode + 1`, `startedAt` = now, start not sent yet).
 * - Holding: the item count, first/last item instants and `detail` follow the observation; the start is sent
 *   (`notify: 'started'`, `startNotified`, `lastStartAlertAt` = now) once {@link startHeldReason} allows it and
 *   `canNotify` (someone to tell on some route).
 * - Not holding and active: cleared at now; `notify: 'cleared'` only when the start was sent.
 * Item instants from the observation are never taken later than `now` (a clock that runs ahead).
 * `itemCount` for non-count conditions: sends measured (lag), reminders waiting (oldest due), failing providers
 * (auth), 0 (heartbeat); `firstItemAt`: the oldest due instant / the first failure / the last sweep.
 */
export function decideAlert(prev: AlertStateSnapshot, obs: AlertObservation, opts: { now: Date; canNotify: boolean; timing?: AlertTiming; zone?: string }): AlertDecision {
  const { now } = opts;
  const holds = conditionHolds(obs, prev.active, now);
  if (!holds) {
    if (!prev.active) return { next: prev, changed: false, notify: null };
    return {
      next: { ...prev, active: false, clearedAt: now },
      changed: true,
      notify: prev.startNotified ? 'cleared' : null,
    };
  }
  const fresh = !prev.active;
  const base: AlertStateSnapshot = fresh
    ? { ...prev, active: true, episode: prev.episode + 1, startedAt: now, clearedAt: null, itemCount: 0, firstItemAt: null, lastItemAt: null, startNotified: false }
    : { ...prev };
  let next: AlertStateSnapshot;
  if (obs.condition === 'dead_letters' || obs.condition === 'unknown_outcomes') {
    const clamp = (d: Date | null) => (d ? minDate(d, now) : null);
    const grew = fresh || obs.count > prev.itemCount;
    const observedLast = clamp(obs.lastAt) ?? (grew ? now : null);
    next = {
      ...base,
      itemCount: obs.count,
      firstItemAt: fresh ? (clamp(obs.firstAt) ?? now) : (base.firstItemAt ?? clamp(obs.firstAt) ?? now),
      lastItemAt: maxDate(fresh ? null : base.lastItemAt, observedLast),
    };
  } else {
    const first =
      obs.condition === 'oldest_due'
        ? obs.oldestDueAt
        : obs.condition === 'provider_auth'
          ? obs.failures.reduce<Date | null>((m, f) => (!m || f.at < m ? f.at : m), null)
          : obs.condition === 'worker_heartbeat'
            ? obs.lastSweepAt
            : fresh
              ? now
              : base.firstItemAt;
    const count = obs.condition === 'dispatch_lag' ? obs.samples : obs.condition === 'oldest_due' ? obs.waiting : obs.condition === 'provider_auth' ? obs.failures.length : 0;
    next = { ...base, itemCount: count, firstItemAt: first, lastItemAt: fresh ? now : base.lastItemAt };
  }
  next.detail = describeActive(obs, next, now, opts.zone);
  if (!next.startNotified && opts.canNotify && startHeldReason(obs.condition, next, now, opts.timing) === null) {
    next = { ...next, startNotified: true, lastStartAlertAt: now };
    return { next, changed: true, notify: 'started' };
  }
  return { next, changed: fresh || !sameState(prev, next), notify: null };
}

function sameState(a: AlertStateSnapshot, b: AlertStateSnapshot): boolean {
  return (
    a.active === b.active &&
    a.episode === b.episode &&
    ms(a.startedAt) === ms(b.startedAt) &&
    ms(a.clearedAt) === ms(b.clearedAt) &&
    a.itemCount === b.itemCount &&
    ms(a.firstItemAt) === ms(b.firstItemAt) &&
    ms(a.lastItemAt) === ms(b.lastItemAt) &&
    a.detail === b.detail &&
    a.startNotified === b.startNotified &&
    ms(a.lastStartAlertAt) === ms(b.lastStartAlertAt)
  );
}

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

/** Who an active alert was sent to, as the banner says it. */
export interface AlertReach {
  /** Distinct email recipients whose start message was sent / is still on its way / failed. */
  peopleSent: number;
  slackSent: boolean;
  pending: number;
  failed: number;
}

/**
 * The banner line of an active alert ("3 new dead letters since 12:01 — alert sent to 2 people"). `since` is
 * the start (count conditions: the first item; worker_heartbeat: the last sweep) formatted by the caller in the
 * tenant's zone. `pending` says why a start is not sent yet: `hold` is {@link startHold} at render time,
 * `hasRecipients` whether the alert settings name a staff email recipient or a Slack URL, `formatAt` formats the
 * hourly limit's instants in the tenant's zone.
 */
export function alertBannerLine(
  condition: AlertCondition,
  s: AlertStateSnapshot,
  since: string,
  reach: AlertReach,
  pending: { hold: StartHold | null; hasRecipients: boolean; formatAt: (d: Date) => string },
): string {
  let head: string;
  switch (condition) {
    case 'dead_letters':
      head = `${plural(s.itemCount, 'new dead letter', 'new dead letters')} since ${since}`;
      break;
    case 'unknown_outcomes':
      head = `${plural(s.itemCount, 'new unknown outcome', 'new unknown outcomes')} since ${since}`;
      break;
    case 'dispatch_lag':
      head = `Dispatch lag over your threshold since ${since}`;
      break;
    case 'oldest_due':
      head = `A due reminder is waiting longer than your threshold (since ${since})`;
      break;
    case 'provider_auth':
      head = `A provider refuses our credentials (since ${since})`;
      break;
    case 'worker_heartbeat':
      head = `The worker has not run its minute sweep since ${since}`;
      break;
  }
  return `${head} — ${reachPhrase(condition, s, reach, pending)}`;
}

/**
 * The banner's "what happened to the alert" part. A start not sent yet reads, in this order: no recipient when the
 * settings have neither a staff email recipient nor a Slack URL (`hasRecipients` false); the hourly limit with
 * both instants; the grouping window of a count condition; else that the next check (the worker's minute sweep)
 * sends it — the page can be rendered between the end of a hold and that sweep.
 */
function reachPhrase(
  condition: AlertCondition,
  s: AlertStateSnapshot,
  r: AlertReach,
  p: { hold: StartHold | null; hasRecipients: boolean; formatAt: (d: Date) => string },
): string {
  if (!s.startNotified) {
    if (!p.hasRecipients) return 'no alert sent: no recipient is set up';
    if (p.hold?.kind === 'hourly') return `alert held: one went out at ${p.formatAt(p.hold.lastAt)} (at most one an hour); sent at ${p.formatAt(p.hold.retryAt)} if still active`;
    if (p.hold?.kind === 'grouping') {
      const item = condition === 'unknown_outcomes' ? 'unknown outcome' : 'dead letter';
      return `alert goes out when no new ${item} has come for a minute (at the latest ${ALERT_GROUP_MAX_MS / 60_000} min after the first)`;
    }
    return 'alert goes out at the next check (within a minute)';
  }
  const to = [r.peopleSent > 0 ? plural(r.peopleSent, 'person', 'people') : null, r.slackSent ? 'Slack' : null].filter(Boolean).join(' and ');
  if (to) return `alert sent to ${to}${r.pending > 0 ? ` (${r.pending} still on the way)` : ''}${r.failed > 0 ? ` (${r.failed} failed)` : ''}`;
  if (r.pending > 0) return 'alert on its way';
  if (r.failed > 0) return 'the alert could not be sent (see Alerts)';
  return 'alert planned';
}

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
