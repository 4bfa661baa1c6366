/**
 * Staff words of the announcement screens, each a whole line (no sentence joined from parts): the audience count as
 * "label: number" lines, an instant in the organisation's zone, and the outcome of an announcement's messages.
 */
import { formatStaffTime } from '@/domain/staff-time';

/** The audience count as whole lines, for the live count and the confirmation. */
export function countLines(c: { people: number; email: number; sms: number; optedOut: number; unreachable: number }): { label: string; value: number; testId: string }[] {
  return [
    { label: 'People in the audience', value: c.people, testId: 'count-people' },
    { label: 'Get it by email', value: c.email, testId: 'count-email' },
    { label: 'Get it by SMS', value: c.sms, testId: 'count-sms' },
    { label: 'Opted out of announcements (recorded as not sent)', value: c.optedOut, testId: 'count-opted-out' },
    { label: 'No address for the chosen channels', value: c.unreachable, testId: 'count-unreachable' },
  ];
}

/** An instant in the organisation's zone: "Tue 1 Jun 2027, 18:00 CEST". */
export function whenSentence(iso: string, zone: string): string {
  return formatStaffTime(iso, zone);
}

const outcomeLabels: Record<string, string> = {
  scheduled: 'waiting',
  dispatched: 'on its way',
  claimed: 'on its way',
  sending: 'on its way',
  retrying: 'retrying',
  accepted: 'sent',
  delivered: 'delivered',
  soft_bounced: 'sent (soft bounce)',
  suppressed: 'not sent (suppressed)',
  cancelled: 'not sent (cancelled)',
  expired: 'not sent (too late)',
  failed: 'failed',
  dead: 'failed (dead letter)',
  bounced: 'bounced',
  complained: 'marked as spam',
  unknown: 'unknown outcome',
  discarded: 'discarded',
  done: 'on its way',
  superseded: 'not sent (superseded)',
};

/** Outcome counts as "label: number" lines, in a fixed order of what matters first. */
export function outcomeLines(outcomes: Record<string, number>): string[] {
  const sums = new Map<string, number>();
  for (const [state, n] of Object.entries(outcomes)) {
    const label = outcomeLabels[state] ?? state;
    sums.set(label, (sums.get(label) ?? 0) + n);
  }
  return [...sums.entries()].sort((a, b) => b[1] - a[1]).map(([label, n]) => `${label}: ${n}`);
}
