import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '../../../db/client';
import { listDeliveryCases, type DeliveryCase } from '../../../db/queries/operator';
import { EmptyState } from '../../../components/EmptyState';
import { StatusWithReason } from '../../../components/StatusBadge';
import { AttemptsTable } from '../../../components/AttemptsTable';
import { CaseActions } from '../../../components/attention/CaseActions';
import { ReplaySelection, SELECT_NAME } from '../../../components/attention/ReplaySelection';
import { can } from '../../../domain/permissions';
import { messageIdFor } from '../../../domain/keys';
import { requireStaff } from '../../../server/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Needs attention' };

/**
 * Deliveries automation will not decide: dead letters (with who must repair them) and unknown outcomes (the
 * provider may or may not have sent them), each with its full evidence. Staff and admins act on them here
 * (replay one or a selection, discard with a reason; mark as sent or send again); viewers only read.
 */
export default async function AttentionPage() {
  const db = getDb();
  const { tenant, user } = await requireStaff();
  const canOperate = can(user.role, 'operate');
  const [dead, unknown] = await Promise.all([
    listDeliveryCases(db, tenant.id, ['dead']),
    listDeliveryCases(db, tenant.id, ['unknown']),
  ]);
  return (
    <>
      <div className="page-head">
        <h1>Needs attention</h1>
        <p className="muted">
          Dead letters and unknown outcomes for {tenant.name} · times in {tenant.timeZone}
          {canOperate ? '' : ' · read-only for your role'}
        </p>
      </div>
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
    <section className="card case-card" data-delivery-id={d.id} aria-label={`${d.status} delivery to ${d.address}`}>
      <div className="case-head">
        <div>
          {selectable ? (
            <label className="case-select">
              <input type="checkbox" name={SELECT_NAME} value={d.id} /> <strong>{d.address}</strong>
            </label>
          ) : (
            <strong>{d.address}</strong>
          )}
          <div className="muted small">
            {d.subject ?? d.template}
            {c.event ? (
              <>
                {' · '}
                <Link href={`/events/${c.event.id}`}>{c.event.title}</Link>
              </>
            ) : null}
          </div>
        </div>
        <StatusWithReason status={d.status} kind="delivery" reason={d.statusReason} />
      </div>
      {d.repairOwner ? <p className="small">To repair: <strong>{d.repairOwner}</strong></p> : null}
      {d.status === 'unknown' ? (
        <p className="small reconcile-hint">
          <strong>To reconcile:</strong> {d.provider === 'smtp' ? 'an SMTP server cannot be asked whether it took a message. ' : ''}look for
          Message-ID <code>{messageIdFor(d.messageKey)}</code> in the mail server&apos;s or provider&apos;s log, then mark it as sent, or send it
          again if it is not there.
        </p>
      ) : null}
      <AttemptsTable attempts={c.attempts} zone={zone} />
      <p className="mono small muted">
        {d.messageKey} · <Link href={`/deliveries/${d.id}`}>full story</Link>
      </p>
      {canOperate && (d.status === 'dead' || d.status === 'unknown') ? <CaseActions deliveryId={d.id} status={d.status} address={d.address} /> : null}
    </section>
  );
}
