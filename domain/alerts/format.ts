/**
 * Alerts in words for people (issue #10 §6, issue #12): instants in the tenant's zone, durations, and the names of
 * providers and conditions. Pure.
 */
import { formatStaffTime } from '@/domain/staff-time';
import type { AlertCondition, Channel, Provider } from '@/domain/vocabulary';

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
export const providerChannel: Record<Provider, Channel> = { smtp: 'email', http_api: 'email', sms_api: 'sms', webhook: 'webhook' };

/** Condition names for people (page headings, message subjects). */
export const alertConditionLabels: Record<AlertCondition, string> = {
  dead_letters: 'Dead letters',
  unknown_outcomes: 'Unknown outcomes',
  dispatch_lag: 'Dispatch lag',
  oldest_due: 'Oldest due reminder',
  provider_auth: 'Provider refuses our credentials',
  worker_heartbeat: 'Worker heartbeat',
};

/** `n` with the singular or plural noun: "1 dead letter", "3 dead letters". */
export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
