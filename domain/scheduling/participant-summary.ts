/**
 * One line about one participant's messages on the event page: "3 sent · next: 2 hours before, Tue 8 Dec 09:00 ·
 * 1 needs a person". Pure (no clock: "next" is the earliest message still waiting, whatever the time now).
 *
 * What counts:
 *  - sent: messages of any kind (rule reminder, nudge, notification) the provider took — accepted, delivered or
 *    soft-bounced (the same set as the coverage line, domain/scheduling/coverage.ts);
 *  - next: the earliest message still waiting to go out (reminder `scheduled`/`dispatched` with no delivery yet, or
 *    a delivery claimed, sending or retrying) of the current schedule version — superseded ones never go out;
 *  - needs a person: a delivery whose outcome is unknown or that is a dead letter (someone must replay or discard);
 *  - failed: a delivery that failed for good (rejected, bounced, complained) or a reminder that failed.
 * `problem` (the page's "has a problem" filter, db/queries/scheduling/event-page.ts) is needsPerson + failed > 0.
 */
import { DateTime } from 'luxon';
import type { DeliveryStatus, ReminderKind, ReminderStatus } from '@/domain/vocabulary';

/** What the summary reads of one planned message (a ReminderView has these fields). */
export interface SummaryReminder {
  kind: ReminderKind;
  status: ReminderStatus;
  scheduleVersion: number;
  /** ISO-8601 UTC. */
  dueAt: string;
  /** The row's title: the rule's name ("2 hours before"), "Manual reminder", a notification's type. */
  ruleName: string;
  deliveryStatus: DeliveryStatus | null;
}

export interface ParticipantSummary {
  sent: number;
  next: { label: string; dueAt: string } | null;
  needsPerson: number;
  failed: number;
  /** needsPerson + failed > 0. */
  problem: boolean;
  /** The whole line, parts joined by " · "; "no messages planned" when there is nothing to say. */
  text: string;
}

const SENT: ReadonlySet<DeliveryStatus> = new Set<DeliveryStatus>(['accepted', 'delivered', 'soft_bounced']);
const NEEDS_PERSON: ReadonlySet<DeliveryStatus> = new Set<DeliveryStatus>(['unknown', 'dead']);
const FAILED: ReadonlySet<DeliveryStatus> = new Set<DeliveryStatus>(['failed', 'bounced', 'complained']);
const IN_FLIGHT: ReadonlySet<DeliveryStatus> = new Set<DeliveryStatus>(['claimed', 'sending', 'retrying']);

/**
 * The "has a problem" rule as data, for the SQL side (db/queries/scheduling/event-page.ts filters and counts with
 * it): a person has a problem when one of their messages' newest delivery is in one of `problemDeliveryStatuses`,
 * or a message without any delivery is in `problemReminderStatusesWithoutDelivery` — the same as
 * `participantSummary(...).problem`.
 */
export const problemDeliveryStatuses: readonly DeliveryStatus[] = [...NEEDS_PERSON, ...FAILED];
export const problemReminderStatusesWithoutDelivery: readonly ReminderStatus[] = ['failed'];

/**
 * How many messages the provider took, over messages already counted by newest delivery status (any kind, any
 * schedule version): the sum of `count` where the status is one the summary counts as sent. The event's
 * "N messages sent" (the sum of every participant's summary `sent`).
 */
export function sentMessageCount(groups: readonly { deliveryStatus: DeliveryStatus | null; count: number }[]): number {
  let n = 0;
  for (const g of groups) if (g.deliveryStatus && SENT.has(g.deliveryStatus)) n += g.count;
  return n;
}

function waiting(r: SummaryReminder, currentVersion: number): boolean {
  if (r.kind === 'rule' && r.scheduleVersion !== currentVersion) return false;
  if (r.deliveryStatus) return IN_FLIGHT.has(r.deliveryStatus);
  return r.status === 'scheduled' || r.status === 'dispatched';
}

/** "Tue 8 Dec 09:00" in `zone` (IANA; an unknown zone falls back to UTC). */
function shortWhen(iso: string, zone: string): string {
  const at = DateTime.fromISO(iso, { zone: 'utc' });
  const local = at.setZone(zone);
  return (local.isValid ? local : at).setLocale('en-GB').toFormat('ccc d LLL HH:mm');
}

/**
 * @param reminders one booking's messages, any order, every schedule version.
 * @param currentVersion the event's schedule version.
 * @param zone the zone "next" is shown in (the event's).
 */
export function participantSummary(reminders: readonly SummaryReminder[], currentVersion: number, zone: string): ParticipantSummary {
  let sent = 0;
  let needsPerson = 0;
  let failed = 0;
  let next: SummaryReminder | null = null;
  for (const r of reminders) {
    const d = r.deliveryStatus;
    if (d && SENT.has(d)) sent++;
    else if (d && NEEDS_PERSON.has(d)) needsPerson++;
    else if ((d && FAILED.has(d)) || (!d && problemReminderStatusesWithoutDelivery.includes(r.status))) failed++;
    if (waiting(r, currentVersion) && (!next || r.dueAt < next.dueAt)) next = r;
  }
  const parts: string[] = [];
  if (sent > 0) parts.push(`${sent} sent`);
  if (next) parts.push(`next: ${next.ruleName}, ${shortWhen(next.dueAt, zone)}`);
  if (needsPerson > 0) parts.push(needsPerson === 1 ? '1 needs a person' : `${needsPerson} need a person`);
  if (failed > 0) parts.push(`${failed} failed`);
  return {
    sent,
    next: next ? { label: next.ruleName, dueAt: next.dueAt } : null,
    needsPerson,
    failed,
    problem: needsPerson + failed > 0,
    text: parts.length > 0 ? parts.join(' · ') : 'no messages planned',
  };
}
