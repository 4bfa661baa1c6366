import type { AttemptView, DeliveryView, ReminderView } from '@/db/queries/scheduling/event-views';
import { describeSmsSegments, quietHoursNote, subjectLabels } from '@/domain/sending/message-labels';
import { ChannelBadge } from '@/components/ui/ChannelBadge';
import { TimesInText } from '@/components/ui/TimesInText';
import { ReportList } from '@/components/deliveries/ReportList';
import { StatusBadge } from '@/components/ui/StatusBadge';
import Link from 'next/link';
import { ZonedTime } from '@/components/ui/ZonedTime';

/** Reminder statuses that may still lead to a delivery ("none yet" rather than "none"). */
const waitingStatuses = new Set<string>(['scheduled', 'dispatched', 'done']);

/**
 * For a rule reminder of an older schedule version: the version that replaced it — the next newer version
 * planned for the same participant, else the event's current one. Null when the reminder is current, and
 * always for nudges and notifications: neither is planned from the schedule, so a reschedule does not
 * supersede them (domain/sending/send-decision.ts).
 */
function supersedingVersion(reminder: ReminderView, all: ReminderView[], currentVersion: number): number | null {
  if (reminder.kind !== 'rule' || reminder.scheduleVersion >= currentVersion) return null;
  const newer = all.filter((r) => r.kind === 'rule').map((r) => r.scheduleVersion).filter((v) => v > reminder.scheduleVersion);
  return newer.length > 0 ? Math.min(...newer) : currentVersion;
}

/** The small grey line under a row's title: template, and who asked (nudge) or which schedule version (rule). */
function metaLine(r: ReminderView): string {
  if (r.kind === 'nudge') return `${r.template} · asked by ${r.requestedBy ?? 'staff'}`;
  if (r.kind === 'notification') return `${r.template} · notification · v${r.scheduleVersion}`;
  return `${r.template} · v${r.scheduleVersion}`;
}

/** Longest attempt detail shown in the timeline (a provider's whole JSON answer is on the delivery's page), characters. */
const DETAIL_MAX = 140;
const shorten = (t: string) => (t.length > DETAIL_MAX ? `${t.slice(0, DETAIL_MAX - 1)}…` : t);

function AttemptLine({ a, zone }: { a: AttemptView; zone: string }) {
  return (
    <li data-attempt={a.attemptNo} data-outcome={a.outcome ?? 'in-flight'}>
      <span className="attempt-no">#{a.attemptNo}</span> <ZonedTime instant={a.startedAt} zone={zone} variant="clock" /> ·{' '}
      <strong>{a.outcome ? a.outcome.replace(/_/g, ' ') : 'in flight'}</strong>
      {a.errorCode ? <code className="attempt-code">{a.errorCode}</code> : null}
      {a.detail ? (
        <span className="attempt-detail" title={a.detail.length > DETAIL_MAX ? a.detail : undefined}>
          {' '}
          {shorten(a.detail)}
        </span>
      ) : null}
    </li>
  );
}

/**
 * What went (or goes) out, behind a disclosure: the email subject, the SMS text with its segment count, or
 * the webhook's type and target URL; the address; every provider call with its outcome and error; then what the
 * provider reported afterwards (delivered, bounced, complained …, issue #10) with what each report did.
 */
function DeliveryDetails({ d, zone }: { d: DeliveryView; zone: string }) {
  const label = subjectLabels[d.channel];
  return (
    <details className="timeline-more">
      <summary>
        {label} and {d.attempts.length === 1 ? '1 attempt' : `${d.attempts.length} attempts`}
        {d.reports.length > 0 ? ` · ${d.reports.length === 1 ? '1 report' : `${d.reports.length} reports`}` : ''}
      </summary>
      <dl className="timeline-more-facts">
        {d.channel === 'webhook' ? null : (
          <div>
            <dt>To</dt>
            <dd className="mono">{d.address}</dd>
          </div>
        )}
        <div>
          <dt>{label}</dt>
          <dd data-subject={d.channel}>
            {d.subject !== null && d.channel === 'sms' ? (
              <>
                <span className="sms-text">{d.subject}</span>
                <span className="muted small sms-segments">{describeSmsSegments(d.subject)}</span>
              </>
            ) : d.subject !== null ? (
              <span className={d.channel === 'webhook' ? 'mono' : undefined}>{d.subject}</span>
            ) : d.channel === 'webhook' ? (
              <span className="mono">{d.address}</span>
            ) : (
              <span className="muted">not rendered yet (it is at the first send attempt)</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Provider</dt>
          <dd>{d.provider.replace(/_/g, ' ')}</dd>
        </div>
      </dl>
      {d.attempts.length === 0 ? (
        <p className="muted small">No provider call yet.</p>
      ) : (
        <ol className="attempt-list">
          {d.attempts.map((a) => (
            <AttemptLine key={a.attemptNo} a={a} zone={zone} />
          ))}
        </ol>
      )}
      {d.reports.length > 0 ? (
        <>
          <p className="small muted timeline-reports-title">What the provider reported</p>
          <ReportList reports={d.reports} zone={zone} compact />
        </>
      ) : null}
    </details>
  );
}

/**
 * One participant's messages — rule reminders, nudges and notifications, one row per channel — in due order.
 * Each row: due instant in the event's zone (UTC as tooltip), a channel badge, the title (rule name, "Manual
 * reminder", or the notification's type in plain words), the planned message's status and reason, the
 * delivery's status, reason and attempts with a link to the delivery's page (message key, Message-ID); a
 * quiet-hours note when the message was held; and on expand what was sent (subject, SMS text, webhook target)
 * with every attempt. Rule reminders of an older schedule version are folded behind "Earlier schedule", greyed,
 * each saying which version superseded it.
 * @param personZone the zone of the person's quiet hours (their own, else the tenant's).
 */
export function ReminderTimeline({
  reminders,
  zone,
  currentVersion,
  personZone = zone,
}: {
  reminders: ReminderView[];
  zone: string;
  currentVersion: number;
  personZone?: string;
}) {
  if (reminders.length === 0) {
    return <p className="timeline-empty muted">No reminders planned for this participant.</p>;
  }
  const rows = reminders.map((r) => ({ r, supersededBy: supersedingVersion(r, reminders, currentVersion) }));
  const current = rows.filter((x) => x.supersededBy === null);
  const earlier = rows.filter((x) => x.supersededBy !== null);
  const list = (items: typeof rows) => (
    <ol className="timeline">
      {items.map(({ r, supersededBy }) => {
        const d = r.delivery;
        const held = quietHoursNote({ deferredFrom: r.deferredFrom, dueAt: r.dueAt, personZone, pageZone: zone });
        return (
          <li
            key={r.id}
            className={`timeline-row${supersededBy ? ' is-stale' : ''}`}
            data-reminder-id={r.id}
            data-reminder-status={r.status}
            data-delivery-status={d?.status ?? 'none'}
            data-schedule-version={r.scheduleVersion}
            data-kind={r.kind}
            data-channel={r.channel}
            data-notification-type={r.notificationType ?? undefined}
          >
            <span className={`timeline-dot dot-${r.status}`} aria-hidden="true" />
            <div className="timeline-when">
              <ZonedTime instant={r.dueAt} zone={zone} />
              <div className="muted small">
                {/* The expiry's date too when it falls on another local day than the due instant (a notification's 24 h). */}
                expires <ZonedTime instant={r.expiresAt} zone={zone} variant={sameLocalDay(r.dueAt, r.expiresAt, zone) ? 'time' : 'full'} />
              </div>
            </div>
            <div className="timeline-rule">
              <div className="timeline-title">
                <ChannelBadge channel={r.channel} /> <span className="rule-name">{r.ruleName}</span>
              </div>
              <div className="muted small">{metaLine(r)}</div>
              {held ? <div className="quiet-note small">{held}</div> : null}
              {supersededBy ? <div className="superseded-note small">superseded by version {supersededBy}</div> : null}
            </div>
            <div className="timeline-status">
              <span className="cell-label">{r.kind === 'rule' ? 'Reminder' : r.kind === 'nudge' ? 'Nudge' : 'Notification'}</span>
              <StatusBadge status={r.status} kind="reminder" reason={r.statusReason} zone={zone} />
              {r.statusReason ? (
                <div className="status-reason">
                  <TimesInText text={r.statusReason} zone={zone} />
                </div>
              ) : null}
            </div>
            <div className="timeline-delivery">
              <span className="cell-label">Delivery</span>
              {d ? (
                <>
                  <StatusBadge status={d.status} kind="delivery" reason={d.statusReason} zone={zone} />
                  {d.statusReason ? (
                    <div className="status-reason">
                      <TimesInText text={d.statusReason} zone={zone} />
                    </div>
                  ) : null}
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
                    {' · '}
                    {/* Message key and provider Message-ID are on the delivery's own page. */}
                    <Link href={`/deliveries/${d.id}`} className="delivery-link">
                      delivery details
                    </Link>
                  </div>
                </>
              ) : (
                <span className="muted small">{waitingStatuses.has(r.status) ? 'none yet' : 'none'}</span>
              )}
            </div>
            {d ? <DeliveryDetails d={d} zone={zone} /> : null}
          </li>
        );
      })}
    </ol>
  );
  return (
    <>
      {current.length > 0 ? list(current) : <p className="timeline-empty muted">Nothing planned from the current schedule.</p>}
      {earlier.length > 0 ? (
        // Messages planned from an older timing of the event, superseded by a reschedule: history, folded away.
        <details className="timeline-earlier" data-testid="earlier-schedule">
          <summary>
            Earlier schedule <span className="muted">({earlier.length === 1 ? '1 message' : `${earlier.length} messages`})</span>
          </summary>
          {list(earlier)}
        </details>
      ) : null}
    </>
  );
}

/** Whether two instants (ISO strings or Dates) fall on the same calendar day in `zone` (IANA). */
function sameLocalDay(a: string | Date, b: string | Date, zone: string): boolean {
  const day = (x: string | Date) => {
    try {
      return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(x));
    } catch {
      return new Date(x).toISOString().slice(0, 10);
    }
  };
  return day(a) === day(b);
}

