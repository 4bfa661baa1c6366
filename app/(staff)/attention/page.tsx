import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { listDeliveryCases, webhookSwitchedOff, type DeliveryCase } from '@/db/queries/sending/operator';
import { ChannelBadge } from '@/components/ui/ChannelBadge';
import { ChannelFilter } from '@/components/ui/ChannelFilter';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { TimesInText } from '@/components/ui/TimesInText';
import { channelLabels, reconcileHint } from '@/domain/sending/message-labels';
import { channels } from '@/domain/vocabulary';
import { EmptyState } from '@/components/ui/EmptyState';
import { StatusWithReason } from '@/components/ui/StatusBadge';
import { AttemptsTable } from '@/components/deliveries/AttemptsTable';
import { CaseActions } from '@/components/deliveries/CaseActions';
import { ReplaySelection, SELECT_NAME } from '@/components/deliveries/ReplaySelection';
import { repairStep, type RepairStep } from '@/domain/sending/repair-step';
import { can } from '@/domain/accounts/permissions';
import { messageIdFor } from '@/domain/keys';
import { requireStaff } from '@/app/_http/session';
import { AlertBanner } from '@/components/alerts/AlertBanner';
import { formatInZone, formatTimeInZone, sameDayInZone } from '@/components/ui/format';
import { activeAlertBanners } from '@/server/alerts/overview';
import { appClock } from '@/server/platform/clock';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Needs attention' };

const filterSchema = z.object({ channel: z.enum(channels).optional().catch(undefined) });

/**
 * Deliveries automation will not decide, on every channel (email, SMS, webhook): dead letters (with who must
 * repair them) and unknown outcomes (the provider may or may not have sent them), each with its full evidence,
 * narrowed by `?channel=`. Staff and admins act on them here (replay one or a selection, discard with a
 * reason; mark as sent or send again); viewers only read. When the tenant's webhook endpoint was switched off
 * (a 410 from the receiver, or staff), a banner says when and why and links to the notification settings.
 */
export default async function AttentionPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const f = filterSchema.parse({ channel: Array.isArray(raw.channel) ? raw.channel[0] : raw.channel });
  const db = getDb();
  const { tenant, user } = await requireStaff();
  const canOperate = can(user.role, 'operate');
  const [dead, unknown, webhookOff] = await Promise.all([
    listDeliveryCases(db, tenant.id, ['dead'], 100, { channel: f.channel }),
    listDeliveryCases(db, tenant.id, ['unknown'], 100, { channel: f.channel }),
    webhookSwitchedOff(db, tenant.id),
  ]);
  const now = appClock().now();
  const since = (d: Date) => (sameDayInZone(d, now, tenant.timeZone) ? formatTimeInZone(d, tenant.timeZone) : formatInZone(d, tenant.timeZone));
  const alerts = await activeAlertBanners(db, tenant.id, now, since);
  return (
    <>
      <div className="page-head">
        <h1>Needs attention</h1>
        <p className="muted">
          Dead letters and unknown outcomes for {tenant.name} on {f.channel ? `the ${channelLabels[f.channel]} channel` : 'every channel'} · times in{' '}
          {tenant.timeZone}
          {canOperate ? '' : ' · read-only for your role'}
        </p>
      </div>
      <AlertBanner alerts={alerts} here="/attention" />
      {webhookOff ? (
        <p className="notice notice-warn webhook-banner" role="alert" data-testid="webhook-switched-off">
          <span>
            <strong>
              Webhook endpoint switched off{' '}
              {webhookOff.at ? (
                <>
                  on <ZonedTime instant={webhookOff.at.toISOString()} zone={tenant.timeZone} />
                </>
              ) : null}
              :
            </strong>{' '}
            <span className="webhook-reason">
              <TimesInText text={webhookOff.reason} zone={tenant.timeZone} />
            </span>
          </span>
          <span>
            No notification is posted to {webhookOff.url ? <code className="wrap-anywhere">{webhookOff.url}</code> : 'it'} until it is switched on again.{' '}
            <Link href="/notifications">Open notification settings →</Link>
          </span>
        </p>
      ) : null}
      <form className="filters" method="get" action="/attention">
        <ChannelFilter value={f.channel} />
        <button type="submit">Filter</button>
      </form>
      <h2 className="section-title">
        Dead letters <span className="count">{dead.length}</span>
      </h2>
      {dead.length === 0 ? (
        <EmptyState title="No dead letters">Every delivery either went out or ended in a state that needs nobody.</EmptyState>
      ) : (
        <>
          {canOperate ? <ReplaySelection total={dead.length} /> : null}
          {dead.map((c) => (
            <CaseCard key={c.delivery.id} c={c} zone={tenant.timeZone} canOperate={canOperate} />
          ))}
        </>
      )}
      <h2 className="section-title">
        Unknown outcomes <span className="count">{unknown.length}</span>
      </h2>
      {unknown.length === 0 ? (
        <EmptyState title="No unknown outcomes">No send is waiting for a person to decide whether it went out.</EmptyState>
      ) : (
        unknown.map((c) => <CaseCard key={c.delivery.id} c={c} zone={tenant.timeZone} canOperate={canOperate} />)
      )}
    </>
  );
}

function CaseCard({ c, zone, canOperate }: { c: DeliveryCase; zone: string; canOperate: boolean }) {
  const d = c.delivery;
  const selectable = canOperate && d.status === 'dead';
  return (
    <section className="card case-card" data-delivery-id={d.id} data-channel={d.channel} aria-label={`${d.status} ${channelLabels[d.channel]} delivery to ${d.address}`}>
      <div className="case-head">
        <div>
          {selectable ? (
            <label className="case-select">
              <input type="checkbox" name={SELECT_NAME} value={d.id} /> <strong className="wrap-anywhere">{d.address}</strong>
            </label>
          ) : (
            <strong className="wrap-anywhere">{d.address}</strong>
          )}
          <div className="muted small wrap-anywhere">
            <ChannelBadge channel={d.channel} /> {c.title ? `${c.title} · ` : ''}
            {d.subject ?? d.template}
            {c.event ? (
              <>
                {' · '}
                <Link href={`/events/${c.event.id}`}>{c.event.title}</Link>
              </>
            ) : null}
          </div>
        </div>
        <StatusWithReason status={d.status} kind="delivery" reason={d.statusReason} zone={c.event?.timeZone ?? zone} />
      </div>
      {d.repairOwner ? <p className="small">To repair: <strong>{d.repairOwner}</strong></p> : null}
      {d.status === 'dead' ? <RepairFirst step={repairStep(d.repairOwner, d.channel, c.event?.id ?? null)} /> : null}
      {d.status === 'unknown' ? (
        <p className="small reconcile-hint wrap-anywhere">
          <strong>To reconcile:</strong> {d.provider === 'smtp' ? 'an SMTP server cannot be asked whether it took a message; ' : ''}
          {reconcileHint(d.channel, { messageId: messageIdFor(d.messageKey), messageKey: d.messageKey, address: d.address })}
        </p>
      ) : null}
      <AttemptsTable attempts={c.attempts} zone={zone} />
      <p className="mono small muted wrap-anywhere">
        {d.messageKey} · <Link href={`/deliveries/${d.id}`}>full story</Link>
      </p>
      {canOperate && (d.status === 'dead' || d.status === 'unknown') ? <CaseActions deliveryId={d.id} status={d.status} address={d.address} channel={d.channel} /> : null}
    </section>
  );
}

/** A dead letter whose cause stays until someone fixes it: the fix first, then "Replay" (domain/sending/repair-step.ts). */
function RepairFirst({ step }: { step: RepairStep | null }) {
  if (!step) return null;
  return (
    <p className="small repair-first" data-testid="repair-first">
      <strong>First fix the cause.</strong> {step.cause} <Link href={step.href}>{step.label}</Link>, then replay.
    </p>
  );
}
