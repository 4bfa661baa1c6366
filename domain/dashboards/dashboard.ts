/**
 * Pure arithmetic behind the dashboard (issue #4 item 2): the time windows its tiles count over, the hour
 * buckets of its two charts (aligned to the tenant zone's hour boundaries), filling hours without data, and
 * the one-line text summaries that stand in for the charts for screen readers. No I/O, no clock reads: `now`
 * is always passed in.
 *
 * Units: instants are `Date`s (UTC instants); lags are seconds (fractional); counts are integers.
 */
import { DateTime } from 'luxon';
import { channels, outcomeClasses, type Channel, type OutcomeClass, type ReminderKind } from '@/domain/vocabulary';

const HOUR_MS = 3_600_000;

/** The instants the dashboard's tiles count between, all UTC instants derived from `now`. */
interface DashboardWindows {
  now: Date;
  /** now + 1 h: end of "due in the next hour" (exclusive). */
  in1h: Date;
  /** now + 24 h: end of "due in the next 24 hours" (exclusive). */
  in24h: Date;
  /** now − 24 h: start of "last 24 h" counts (inclusive). */
  since24h: Date;
  /** The local midnight that started today in the tenant's zone: start of "today" counts (inclusive). */
  todayStart: Date;
  /** Today's local date in the tenant's zone, `YYYY-MM-DD` (for links to date-filtered lists). */
  today: string;
}

/**
 * The tile windows for `now` in `zone` (IANA). "Today" starts at the local midnight in `zone` (on a day whose
 * midnight does not exist, luxon's start of day: the first instant of that date).
 */
export function dashboardWindows(now: Date, zone: string): DashboardWindows {
  const local = DateTime.fromJSDate(now).setZone(zone);
  const t = now.getTime();
  return {
    now,
    in1h: new Date(t + HOUR_MS),
    in24h: new Date(t + 24 * HOUR_MS),
    since24h: new Date(t - 24 * HOUR_MS),
    todayStart: local.startOf('day').toJSDate(),
    today: local.toISODate()!,
  };
}

/** One hour of a chart: [start, end) as UTC instants, with its wall-clock label in the tenant zone. */
interface HourBucket {
  /** 0 = oldest. */
  index: number;
  start: Date;
  /** start + 1 h (exclusive). */
  end: Date;
  /** Local wall-clock start in the tenant zone, `HH:mm` (two buckets can share a label on a DST fall-back day). */
  label: string;
}

/**
 * `count` consecutive one-hour buckets ending with the local hour that contains `now`: the first starts at
 * the local hour boundary (in `zone`) of `now` minus `count − 1` hours. Each bucket is exactly one hour of
 * elapsed time, so a row's bucket index is `floor((instant − buckets[0].start) / 1 h)` — which is what the
 * SQL in db/queries/dashboards/dashboard.ts computes. On a DST change the wall-clock labels skip or repeat an hour
 * (23:00, 00:00, 01:00, 03:00 … / … 02:00, 02:00, 03:00), exactly as the clock on the wall does. (Zones whose
 * offset changes by 30 minutes, e.g. Australia/Lord_Howe, get buckets 30 minutes off the local hour for half
 * the year; no tenant uses one today.)
 */
export function hourBuckets(now: Date, zone: string, count = 24): HourBucket[] {
  const currentHourStart = DateTime.fromJSDate(now).setZone(zone).startOf('hour').toMillis();
  const first = currentHourStart - (count - 1) * HOUR_MS;
  return Array.from({ length: count }, (_, index) => {
    const start = new Date(first + index * HOUR_MS);
    return { index, start, end: new Date(start.getTime() + HOUR_MS), label: DateTime.fromJSDate(start).setZone(zone).toFormat('HH:mm') };
  });
}

/**
 * Whether a planned message was **planned late**: a rule reminder whose row was created after its due instant
 * (a booking made after the moment "1 hour before" had passed, a reschedule or import that planned a reminder
 * already due). Such a reminder goes out at once when it is still inside its late-send window, but the time
 * between its due instant and its send is not the scheduler's: it did not exist yet. The dashboard's dispatch-lag
 * chart therefore leaves it out and counts it on its own (issue #12, "Honest numbers").
 *
 * Nudges and notifications are never planned late: their due instant is the moment the request or the change was
 * recorded (server/sending/nudge.ts, server/notifications/notify.ts), so any delay after it is ours and counts as lag.
 * `createdAt` and `dueAt` are UTC instants; equal instants count as planned in time.
 * db/queries/dashboards/dashboard.ts applies the same rule in SQL (`kind = 'rule' and created_at > due_at`).
 */
export function isLatePlanned(r: { kind: ReminderKind; createdAt: Date; dueAt: Date }): boolean {
  return r.kind === 'rule' && r.createdAt.getTime() > r.dueAt.getTime();
}

/** One hour of dispatch lag as SQL returns it (only hours with at least one first attempt). */
export interface LagRow {
  /** Bucket index (see hourBuckets). */
  bucket: number;
  /** Median of (first attempt started_at − reminder due_at), seconds, over reminders planned in time (see isLatePlanned). */
  p50Seconds: number;
  /** 95th percentile of the same, seconds. */
  p95Seconds: number;
  /** First attempts in the hour of reminders planned in time (late-planned ones are counted apart: LatePlannedSends). */
  count: number;
}

/** One hour of the dispatch-lag chart; p50/p95 are null for an hour without first attempts. */
export interface LagPoint {
  start: Date;
  label: string;
  p50Seconds: number | null;
  p95Seconds: number | null;
  count: number;
}

/** Every bucket with its lag row, or nulls and 0 where SQL returned none. Rows outside the buckets are dropped. */
export function fillLag(buckets: HourBucket[], rows: LagRow[]): LagPoint[] {
  const byBucket = new Map(rows.map((r) => [r.bucket, r]));
  return buckets.map((b) => {
    const r = byBucket.get(b.index);
    return { start: b.start, label: b.label, p50Seconds: r ? r.p50Seconds : null, p95Seconds: r ? r.p95Seconds : null, count: r ? r.count : 0 };
  });
}

/** Attempts of one outcome class in one hour, as SQL returns them (only non-zero pairs). */
export interface OutcomeRow {
  bucket: number;
  outcome: OutcomeClass;
  count: number;
}

type OutcomeCounts = Record<OutcomeClass, number>;

/** One hour of the provider-outcomes chart: a count per outcome class (0 when none) and their total. */
export interface OutcomePoint {
  start: Date;
  label: string;
  counts: OutcomeCounts;
  total: number;
}

const zeroCounts = (): OutcomeCounts => Object.fromEntries(outcomeClasses.map((o) => [o, 0])) as OutcomeCounts;

/** Every bucket with its per-outcome counts (zeros where SQL returned none). Rows outside the buckets are dropped. */
export function fillOutcomes(buckets: HourBucket[], rows: OutcomeRow[]): OutcomePoint[] {
  const points = buckets.map((b) => ({ start: b.start, label: b.label, counts: zeroCounts(), total: 0 }));
  for (const r of rows) {
    const p = points[r.bucket];
    if (!p || !(r.outcome in p.counts)) continue;
    p.counts[r.outcome] += r.count;
    p.total += r.count;
  }
  return points;
}

/**
 * A lag for people: "0.4 s", "12 s", "3 min 20 s", "2 h 5 min". Negative values (a worker clock slightly
 * ahead of the database) keep their sign: "−1.2 s".
 */
export function formatLagSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—';
  const sign = seconds < 0 ? '−' : '';
  const s = Math.abs(seconds);
  if (s < 10) return `${sign}${(Math.round(s * 10) / 10).toFixed(1)} s`;
  if (s < 60) return `${sign}${Math.round(s)} s`;
  if (s < 3600) {
    const m = Math.floor(s / 60);
    const rest = Math.round(s - m * 60);
    return rest === 60 ? `${sign}${m + 1} min` : `${sign}${m} min${rest ? ` ${rest} s` : ''}`;
  }
  const h = Math.floor(s / 3600);
  const m = Math.round((s - h * 3600) / 60);
  return m === 60 ? `${sign}${h + 1} h` : `${sign}${h} h${m ? ` ${m} min` : ''}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * One sentence describing the lag chart, or null when it has no data: how many first attempts, the worst
 * hourly p95 (with its hour label) and the latest hour's median. `zoneLabel` names the zone of the labels.
 */
export function summarizeLag(points: LagPoint[], zoneLabel: string): string | null {
  const withData = points.filter((p) => p.count > 0 && p.p95Seconds !== null);
  if (withData.length === 0) return null;
  const attempts = withData.reduce((n, p) => n + p.count, 0);
  const worst = withData.reduce((a, b) => (b.p95Seconds! > a.p95Seconds! ? b : a));
  const latest = withData[withData.length - 1]!;
  return (
    `${plural(attempts, 'first attempt')} in ${plural(withData.length, 'hour')}. ` +
    `Worst hourly p95: ${formatLagSeconds(worst.p95Seconds!)} (hour from ${worst.label} ${zoneLabel}). ` +
    `Latest hour with sends (${latest.label}): p50 ${formatLagSeconds(latest.p50Seconds!)}, p95 ${formatLagSeconds(latest.p95Seconds!)}.`
  );
}

/**
 * The first attempts of late-planned reminders (see isLatePlanned) over the chart's window, as SQL returns them:
 * how many, and how long after they were PLANNED they went out (seconds: first attempt started_at − created_at;
 * null when count is 0).
 */
export interface LatePlannedSends {
  count: number;
  p50Seconds: number | null;
  p95Seconds: number | null;
}

/**
 * One sentence about the late-planned sends the lag chart leaves out, or null when there were none:
 * "3 reminders were planned after their due instant (booked late) and are not counted as lag; they went out
 * 0.4 s (median) after they were planned."
 */
export function summarizeLatePlanned(s: LatePlannedSends): string | null {
  if (s.count === 0) return null;
  const one = s.count === 1;
  const after =
    s.p50Seconds === null
      ? ''
      : one
        ? `; it went out ${formatLagSeconds(s.p50Seconds)} after it was planned`
        : `; they went out ${formatLagSeconds(s.p50Seconds)} (median) after they were planned`;
  return `${plural(s.count, 'reminder')} ${one ? 'was' : 'were'} planned after ${one ? 'its' : 'their'} due instant (booked late) and ${one ? 'is' : 'are'} not counted as lag${after}.`;
}

/** Outcome classes as staff read them in legends and summaries. */
export const outcomeLabels: Record<OutcomeClass, string> = {
  accepted: 'accepted',
  transient: 'transient',
  rate_limited: 'rate limited',
  ambiguous: 'ambiguous',
  rejected: 'rejected',
};

/**
 * One sentence describing the outcomes chart, or null when it has no data: the total and the count per
 * outcome class that occurred, in vocabulary order ("12 attempts: 10 accepted, 2 transient.").
 */
export function summarizeOutcomes(points: OutcomePoint[]): string | null {
  const totals = zeroCounts();
  for (const p of points) for (const o of outcomeClasses) totals[o] += p.counts[o];
  const all = outcomeClasses.reduce((n, o) => n + totals[o], 0);
  if (all === 0) return null;
  const parts = outcomeClasses.filter((o) => totals[o] > 0).map((o) => `${totals[o]} ${outcomeLabels[o]}`);
  return `${plural(all, 'attempt')}: ${parts.join(', ')}.`;
}

const TICK_STEPS_S = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

/**
 * Round y-axis ticks (seconds) for a lag chart whose largest value is `maxSeconds`: 0 up to the first
 * multiple of a "nice" step (0.1 s … 1 day) at or above the max, at most 6 ticks, e.g. max 292 s → 0, 60,
 * 120, 180, 240, 300. Negative or missing maxima give [0, 1].
 */
export function lagTicks(maxSeconds: number): number[] {
  if (!Number.isFinite(maxSeconds) || maxSeconds <= 0) return [0, 1];
  const step = TICK_STEPS_S.find((s) => maxSeconds / s <= 5) ?? Math.ceil(maxSeconds / 5 / 86400) * 86400;
  const n = Math.max(1, Math.ceil(maxSeconds / step - 1e-9));
  return Array.from({ length: n + 1 }, (_, i) => Math.round(i * step * 10) / 10);
}

/** A y-axis tick label: "0", "0.5 s", "30 s", "2 min", "1.5 h" (one unit, at most one decimal). */
export function formatLagTick(seconds: number): string {
  if (seconds === 0) return '0';
  const one = (v: number) => String(Math.round(v * 10) / 10);
  if (Math.abs(seconds) < 60) return `${one(seconds)} s`;
  if (Math.abs(seconds) < 3600) return `${one(seconds / 60)} min`;
  return `${one(seconds / 3600)} h`;
}

/** Attempts of one outcome class on one channel over the whole window, as SQL returns them (only non-zero pairs). */
export interface ChannelOutcomeRow {
  channel: Channel;
  outcome: OutcomeClass;
  count: number;
}

/** One channel's line of the per-channel breakdown: a count per outcome class (0 when none) and their total. */
export interface ChannelOutcomes {
  channel: Channel;
  counts: OutcomeCounts;
  total: number;
}

/**
 * Every channel (vocabulary order: email, SMS, webhook), each with its per-outcome counts — zeros where SQL
 * returned none, so a channel that sent nothing still has its line. Rows of unknown channels or outcome
 * classes are dropped.
 */
export function fillChannelOutcomes(rows: ChannelOutcomeRow[]): ChannelOutcomes[] {
  const lines = channels.map((channel) => ({ channel, counts: zeroCounts(), total: 0 }));
  for (const r of rows) {
    const line = lines.find((l) => l.channel === r.channel);
    if (!line || !(r.outcome in line.counts)) continue;
    line.counts[r.outcome] += r.count;
    line.total += r.count;
  }
  return lines;
}

/** Channel names in running text: "email", "SMS", "webhook". */
const channelWords: Record<Channel, string> = { email: 'email', sms: 'SMS', webhook: 'webhook' };

/**
 * One sentence per channel describing the per-channel breakdown, for screen readers and as the visible
 * summary, or null when no channel had an attempt: "By channel: email 10 attempts (9 accepted, 1 transient);
 * SMS 2 attempts (2 accepted); webhook no attempts."
 */
export function summarizeChannelOutcomes(lines: ChannelOutcomes[]): string | null {
  if (lines.every((l) => l.total === 0)) return null;
  const parts = lines.map((l) => {
    if (l.total === 0) return `${channelWords[l.channel]} no attempts`;
    const classes = outcomeClasses.filter((o) => l.counts[o] > 0).map((o) => `${l.counts[o]} ${outcomeLabels[o]}`);
    return `${channelWords[l.channel]} ${plural(l.total, 'attempt')} (${classes.join(', ')})`;
  });
  return `By channel: ${parts.join('; ')}.`;
}
