import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { getDeliveryStory } from '@/db/queries/dashboards/deliveries-log';
import { isUuid } from '@/db/queries/scheduling/event-views';
import { StatusWithReason } from '@/components/ui/StatusBadge';
import { AttemptsTable } from '@/components/deliveries/AttemptsTable';
import { ReportList } from '@/components/deliveries/ReportList';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { sameDayInZone } from '@/components/ui/format';
import { TimesInText } from '@/components/ui/TimesInText';
import { CaseActions } from '@/components/deliveries/CaseActions';
import { can } from '@/domain/accounts/permissions';
import { auditActionLabel } from '@/domain/dashboards/audit-view';
import { ChannelBadge } from '@/components/ui/ChannelBadge';
import { describeSmsSegments, messageTitle, subjectLabels } from '@/domain/sending/message-labels';
import { describeMessageLocale } from '@/domain/messages/locale-fallback';
import { messageTextLabel } from '@/domain/messages/message-text-label';
import { requireStaff } from '@/app/_http/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Delivery' };

/**
 * One delivery's full story on any channel: what it is (rule reminder, nudge, notification), what was sent
 * (subject, SMS text with its segments, webhook target), every attempt with outcome class and error code,
 * provider id, the provider's delivery reports (issue #10: kind, event time, detail, what each did), audit.
 */
export default async function DeliveryPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const db = getDb();
  const { tenant, user } = await requireStaff();
  if (!isUuid(id)) notFound();
  const story = await getDeliveryStory(db, tenant.id, id);
  if (!story) notFound();
  const { delivery: d, reminder: r, rule, event, attempts, audit, reports, sentAs } = story;
  const zone = event?.timeZone ?? tenant.timeZone;
  return (
    <>
      <p className="breadcrumb">
        <Link href="/deliveries">← Deliveries</Link>
      </p>
      <div className="page-head">
        <h1 className="wrap-anywhere">{d.channel === 'email' ? (d.subject ?? d.template) : `${r ? messageTitle({ kind: r.kind, ruleName: rule?.name ?? null, notificationType: r.notificationType }) : d.template} by ${d.channel === 'sms' ? 'SMS' : 'webhook'}`}</h1>
        <p className="muted wrap-anywhere">
          <ChannelBadge channel={d.channel} /> to {d.address} · times in {zone}
        </p>
        {sentAs ? <p className="small" data-testid="sent-as">Sent in {sentAs}’s name: the guest’s own organisation, which sees it in its deliveries and audit log.</p> : null}
      </div>
      {can(user.role, 'operate') && (d.status === 'dead' || d.status === 'unknown') ? <CaseActions deliveryId={d.id} status={d.status} address={d.address} channel={d.channel} /> : null}
      <section className="case-card">
        <dl className="facts">
          <div>
            <dt>Status</dt>
            <dd>
              <StatusWithReason status={d.status} kind="delivery" reason={d.statusReason} zone={zone} />
              {d.repairOwner ? <div className="small">To repair: {d.repairOwner}</div> : null}
            </dd>
          </div>
          {d.channel !== 'email' ? (
            <div>
              <dt>{subjectLabels[d.channel]}</dt>
              <dd data-subject={d.channel}>
                {d.subject === null ? (
                  <span className="muted">not rendered yet (it is at the first send attempt)</span>
                ) : d.channel === 'sms' ? (
                  <>
                    <span className="sms-text">{d.subject}</span>
                    <span className="muted small sms-segments">{describeSmsSegments(d.subject)}</span>
                  </>
                ) : (
                  <span className="mono wrap-anywhere">{d.subject}</span>
                )}
              </dd>
            </div>
          ) : null}
          <div>
            <dt>Provider</dt>
            <dd>
              {d.provider}
              {d.providerMessageId ? <div className="mono small">{d.providerMessageId}</div> : null}
            </dd>
          </div>
          {messageTextLabel(d) ? (
            <div>
              <dt>Text</dt>
              <dd data-testid="message-text" data-text-version={d.messageTextVersion ?? 'built-in'}>
                {messageTextLabel(d)}
              </dd>
            </div>
          ) : null}
          {d.messageLocale ? (
            <div>
              <dt>Language</dt>
              <dd data-locale={d.messageLocale}>{describeMessageLocale(d.messageLocale, d.localeReason)}</dd>
            </div>
          ) : null}
          <div>
            <dt>Event</dt>
            <dd>{event ? <Link href={`/events/${event.id}`}>{event.title}</Link> : '—'}</dd>
          </div>
          <div>
            <dt>{r?.kind === 'notification' ? 'Notification' : 'Reminder'}</dt>
            <dd>
              {r?.kind === 'nudge'
                ? `Manual reminder, asked by ${r.requestedBy ?? 'staff'}`
                : r
                  ? messageTitle({ kind: r.kind, ruleName: rule?.name ?? null, notificationType: r.notificationType })
                  : '—'}
              {r ? (
                <div className="small">
                  due <ZonedTime instant={r.dueAt.toISOString()} zone={zone} /> · useful until <ZonedTime instant={r.expiresAt.toISOString()} zone={zone} variant={sameDayInZone(r.dueAt, r.expiresAt, zone) ? 'time' : 'full'} /> · schedule
                  version {r.scheduleVersion}
                </div>
              ) : null}
            </dd>
          </div>
        </dl>
        <p className="mono small muted">{d.messageKey}</p>
      </section>
      <h2 className="section-title">Attempts</h2>
      <AttemptsTable attempts={attempts} zone={zone} />
      <h2 className="section-title">Delivery reports</h2>
      {reports.length === 0 ? (
        <p className="muted reports-empty">
          {d.channel === 'webhook' ? 'Webhook receivers send no delivery reports.' : 'No report from the provider (yet): it may still say delivered, bounced or complained.'}
        </p>
      ) : (
        <ReportList reports={reports} zone={zone} />
      )}
      <h2 className="section-title">Audit</h2>
      {audit.length === 0 ? (
        <p className="muted">No staff action on this delivery.</p>
      ) : (
        <ul>
          {audit.map((a) => (
            <li key={a.id}>
              <ZonedTime instant={a.createdAt.toISOString()} zone={zone} /> · {a.actor} · <span data-action={a.action}>{auditActionLabel(a.action)}</span>
              {a.reason ? (
                <>
                  {' — “'}
                  <TimesInText text={a.reason} zone={zone} />
                  {'”'}
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
