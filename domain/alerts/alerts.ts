/**
 * Alerts that reach a person (issue #10 §6): the pure decisions. Given the previous state of one alert condition
 * of one tenant, what is observed now and `now`, {@link decideAlert} says what the state becomes and whether a
 * person is to be told ("started" or "cleared"); the server (server/alerts/evaluation.ts) applies that under a row lock and
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
 *
 * This module holds the state, the observations and the decision; the rest of the alerts' pure parts:
 * domain/alerts/provider-auth.ts (which attempts mean a provider refuses our credentials), format.ts (instants,
 * durations and names for people), messages.ts (message keys, links, texts, the send decision) and banner.ts (the
 * banner line of an active alert).
 */
import type { AlertCondition } from '@/domain/vocabulary';
import { alertTime, formatDuration, plural, providerLabels } from './format';
import type { ProviderAuthFailure } from './provider-auth';

/** A count condition's start waits until no new item has appeared for this long, ms. */
const ALERT_QUIET_MS = 60_000;
/**
 * The grouping quiet period a decision uses, ms: {@link ALERT_QUIET_MS} in production. Only the browser tests pass
 * another (server/alerts/evaluation.ts `alertTimingFromEnv`, PUNCTUAL_ALERT_QUIET_MS), so they need not wait out a real minute.
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

export type AlertTransition = 'started' | 'cleared';

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
export type StartHold = { kind: 'hourly'; lastAt: Date; retryAt: Date } | { kind: 'grouping'; until: Date };

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
