/**
 * The words of the notice staff see after a nudge ("Remind now") — issue #12 "a notice after a nudge or a
 * replay ("Sent to …")". A nudge is queued at once and sent by the worker a moment later, so the notice follows
 * the nudge's own record as the event page's live timeline reads it: "Sending to …" until a provider took the
 * message, "Sent to <address>." once one did, and plain words when it did not go out. Only what the record
 * says is claimed: "Sent" means the provider accepted it (or later reported it delivered).
 */
import type { DeliveryStatus, ReminderStatus } from '@/domain/vocabulary';

/** What the notice needs of the nudge's reminder and its delivery (a subset of db/queries/scheduling/event-views ReminderView). */
export interface NudgeRecord {
  status: ReminderStatus;
  statusReason: string | null;
  delivery: { status: DeliveryStatus; statusReason: string | null; address: string } | null;
}

interface ActionNotice {
  text: string;
  /** `warn`: it did not go out (or may not have) — a person should look. */
  tone: 'ok' | 'warn';
  /** Where to look further, when the outcome needs a person. */
  link?: { href: string; label: string };
}

const attention = { href: '/attention', label: 'Open Needs attention →' };
const because = (reason: string | null) => (reason ? ` (${reason})` : '');

/**
 * The notice for one nudge. `record`: its reminder as last read, or null before the timeline shows it;
 * `who`: the participant's address as the page knows it (used until the delivery names the address it used).
 */
export function nudgeNotice(record: NudgeRecord | null, who: string): ActionNotice {
  const d = record?.delivery ?? null;
  const to = d?.address ?? who;
  if (!d) {
    if (!record || record.status === 'scheduled' || record.status === 'dispatched' || record.status === 'done') return { text: `Sending a reminder to ${to}…`, tone: 'ok' };
    return { text: `Not sent to ${to}: the reminder ${record.status === 'failed' ? 'failed' : `was ${record.status}`}${because(record.statusReason)}.`, tone: 'warn' };
  }
  switch (d.status) {
    case 'claimed':
    case 'sending':
      return { text: `Sending a reminder to ${to}…`, tone: 'ok' };
    case 'retrying':
      return { text: `Not sent to ${to} yet: the provider asked to try again later${because(d.statusReason)}; it is retried automatically.`, tone: 'warn' };
    case 'accepted':
    case 'delivered':
      return { text: `Sent to ${to}.`, tone: 'ok' };
    case 'soft_bounced':
    case 'bounced':
    case 'complained':
      return { text: `Sent to ${to}, but the provider reported it ${d.status.replace('_', ' ')}${because(d.statusReason)}.`, tone: 'warn' };
    case 'suppressed':
      return { text: `Not sent: ${to} is on the suppression list${because(d.statusReason)}.`, tone: 'warn' };
    case 'unknown':
      return { text: `May or may not have reached ${to}: the provider's answer was lost. A person decides.`, tone: 'warn', link: attention };
    case 'dead':
    case 'failed':
      return { text: `Not sent to ${to}${because(d.statusReason)}.`, tone: 'warn', link: d.status === 'dead' ? attention : undefined };
    case 'cancelled':
    case 'superseded':
    case 'expired':
    case 'discarded':
      return { text: `Not sent to ${to}: ${d.status}${because(d.statusReason)}.`, tone: 'warn' };
  }
}
