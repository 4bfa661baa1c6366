import type { ReminderView } from '../db/queries/views';
import { StatusBadge } from './StatusBadge';
import { ZonedTime } from './ZonedTime';

/** Reminder statuses that may still lead to a delivery ("none yet" rather than "none"). */
const waitingStatuses = new Set<string>(['scheduled', 'dispatched', 'done']);

/**
 * For a reminder of an older schedule version: the version that replaced it — the next newer version
 * planned for the same participant, else the event's current one. Null when the reminder is current.
 */
export function supersedingVersion(reminder: ReminderView, all: ReminderView[], currentVersion: number): number | null {
  // A nudge is not planned from the schedule: a reschedule does not supersede it.
  if (reminder.kind === 'nudge' || reminder.scheduleVersion >= currentVersion) return null;
  const newer = all.filter((r) => r.kind !== 'nudge').map((r) => r.scheduleVersion).filter((v) => v > reminder.scheduleVersion);
  return newer.length > 0 ? Math.min(...newer) : currentVersion;
}

/**
 * One participant's reminders (all schedule versions) in due order. Each row: due instant in the event's
 * zone (UTC as tooltip), rule, reminder status and reason, delivery status and reason, message key.
 * Rows of an older schedule version are greyed and say which version superseded them.
 */
export function ReminderTimeline({
  reminders,
  zone,
  currentVersion,
}: {
  reminders: ReminderView[];
  zone: string;
  currentVersion: number;
}) {
  if (reminders.length === 0) {
    return <p className="timeline-empty muted">No reminders planned for this participant.</p>;
  }
  return (
    <ol className="timeline">
      {reminders.map((r) => {
        const supersededBy = supersedingVersion(r, reminders, currentVersion);
        const d = r.delivery;
        return (
          <li
            key={r.id}
            className={`timeline-row${supersededBy ? ' is-stale' : ''}`}
            data-reminder-id={r.id}
            data-reminder-status={r.status}
            data-delivery-status={d?.status ?? 'none'}
            data-schedule-version={r.scheduleVersion}
            data-kind={r.kind}
          >
            <span className={`timeline-dot dot-${r.status}`} aria-hidden="true" />
            <div className="timeline-when">
              <ZonedTime instant={r.dueAt} zone={zone} />
              <div className="muted small">
                expires <ZonedTime instant={r.expiresAt} zone={zone} variant="time" />
              </div>
            </div>
            <div className="timeline-rule">
              <span className="rule-name">{r.ruleName}</span>
              <div className="muted small">
                {r.kind === 'nudge' ? `${r.template} · ${r.channel} · asked by ${r.requestedBy ?? 'staff'}` : `${r.template} · ${r.channel} · v${r.scheduleVersion}`}
              </div>
              {supersededBy ? <div className="superseded-note small">superseded by version {supersededBy}</div> : null}
            </div>
            <div className="timeline-status">
              <span className="cell-label">Reminder</span>
              <StatusBadge status={r.status} kind="reminder" reason={r.statusReason} />
              {r.statusReason ? <div className="status-reason">{r.statusReason}</div> : null}
            </div>
            <div className="timeline-delivery">
              <span className="cell-label">Delivery</span>
              {d ? (
                <>
                  <StatusBadge status={d.status} kind="delivery" reason={d.statusReason} />
                  {d.statusReason ? <div className="status-reason">{d.statusReason}</div> : null}
                  {d.repairOwner ? <div className="status-reason">dead letter · to repair: {d.repairOwner}</div> : null}
                  <div className="muted small">
                    {d.attemptCount} attempt{d.attemptCount === 1 ? '' : 's'}
                    {d.acceptedAt ? (
                      <>
                        {' '}
                        · accepted <ZonedTime instant={d.acceptedAt} zone={zone} variant="clock" />
                      </>
                    ) : null}
                    {d.status === 'retrying' && d.nextAttemptAt ? (
                      <>
                        {' '}
                        · next try <ZonedTime instant={d.nextAttemptAt} zone={zone} variant="clock" />
                      </>
                    ) : null}
                  </div>
                </>
              ) : (
                <span className="muted small">{waitingStatuses.has(r.status) ? 'none yet' : 'none'}</span>
              )}
            </div>
            {d ? (
              <div className="timeline-keys">
                <code className="message-key" title="Message key">
                  {d.messageKey}
                </code>
                {d.providerMessageId ? (
                  <code className="message-key provider-id" title="Provider message id">
                    {d.providerMessageId}
                  </code>
                ) : null}
              </div>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
