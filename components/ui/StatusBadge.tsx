/**
 * Status badges: one colour family per meaning, so a page of mixed statuses reads at a glance.
 * Waiting = grey-blue, in progress = blue, good = green, ended without sending = grey,
 * broken = red, ambiguous = amber, retrying = orange, suppressed = purple.
 */

import { humanizeInstants } from '@/domain/staff-time';
import { TimesInText } from './TimesInText';

/** Colour families a status can belong to (CSS class suffixes in globals.css). */
export type BadgeTone = 'waiting' | 'progress' | 'ok' | 'muted' | 'bad' | 'unknown' | 'retry' | 'suppressed';

const toneByStatus: Record<string, BadgeTone> = {
  scheduled: 'waiting',
  dispatched: 'progress',
  claimed: 'progress',
  sending: 'progress',
  done: 'ok',
  accepted: 'ok',
  delivered: 'ok',
  confirmed: 'ok',
  expired: 'muted',
  cancelled: 'muted',
  superseded: 'muted',
  discarded: 'muted',
  failed: 'bad',
  dead: 'bad',
  soft_bounced: 'retry',
  bounced: 'bad',
  complained: 'bad',
  unknown: 'unknown',
  retrying: 'retry',
  suppressed: 'suppressed',
};

/** The colour family of a reminder, delivery, booking or event status (amber for anything unrecognised). */
function badgeTone(status: string): BadgeTone {
  return toneByStatus[status] ?? 'unknown';
}

/** What the status belongs to; rendered as a data attribute so tests and styles can target it. */
type BadgeKind = 'event' | 'booking' | 'reminder' | 'delivery';

/**
 * A coloured pill with the status word; the reason, when given, is its tooltip, with any ISO-8601 instant in it
 * written as wall-clock time in `zone` (IANA; the event's zone where there is one, else the tenant's; UTC when
 * not given). A reminder that is `done` has handed its message to a delivery: it reads "handed over" in a
 * neutral tone, so only the delivery's badge says whether the message went out (a green "done" beside a dead
 * delivery would mislead).
 */
export function StatusBadge({ status, kind, reason, zone = 'UTC' }: { status: string; kind: BadgeKind; reason?: string | null; zone?: string }) {
  const handedOver = kind === 'reminder' && status === 'done';
  return (
    <span
      className={`badge badge-${handedOver ? 'waiting' : badgeTone(status)}`}
      data-kind={kind}
      data-status={status}
      title={reason ? `${status}: ${humanizeInstants(reason, zone)}` : handedOver ? 'handed over to its delivery, which shows whether it went out' : undefined}
    >
      {handedOver ? 'handed over' : status.replace(/_/g, ' ')}
    </span>
  );
}

/**
 * A badge followed by its reason in small text (for terminal states, which always say why); instants in the
 * reason show in `zone` with the viewer's zone on hover (components/ui/TimesInText.tsx).
 */
export function StatusWithReason({
  status,
  kind,
  reason,
  zone = 'UTC',
}: {
  status: string;
  kind: BadgeKind;
  reason?: string | null;
  zone?: string;
}) {
  return (
    <span className="status-with-reason">
      <StatusBadge status={status} kind={kind} reason={reason} zone={zone} />
      {reason ? (
        <span className="status-reason">
          <TimesInText text={reason} zone={zone} />
        </span>
      ) : null}
    </span>
  );
}
