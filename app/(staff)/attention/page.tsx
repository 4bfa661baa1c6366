import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '../../../db/client';
import { listDeliveryCases, type DeliveryCase } from '../../../db/queries/operator';
import { EmptyState } from '../../../components/EmptyState';
import { StatusWithReason } from '../../../components/StatusBadge';
import { AttemptsTable } from '../../../components/AttemptsTable';
import { requireStaff } from '../../../server/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Needs attention' };

/**
 * Deliveries automation will not decide: dead letters (with who must repair them) and unknown outcomes (the
 * provider may or may not have sent them), each with its full evidence. Read-only until staff sign-in lands.
 */
export default async function AttentionPage() {
  const db = getDb();
  const tenant = (await requireStaff()).tenant;
  if (!tenant) return <EmptyState title="No tenant yet">Run npm start to seed the demo.</EmptyState>;
  const [dead, unknown] = await Promise.all([
    listDeliveryCases(db, tenant.id, ['dead']),
    listDeliveryCases(db, tenant.id, ['unknown']),
  ]);
  return (
    <>
      <div className="page-head">
        <h1>Needs attention</h1>
        <p className="muted">
          Dead letters and unknown outcomes for {tenant.name} · times in {tenant.timeZone} · replay, discard, “mark as sent” and “send again”
          arrive with staff sign-in
        </p>
      </div>
      <h2 className="section-title">
        Dead letters <span className="count">{dead.length}</span>
      </h2>
      {dead.length === 0 ? <EmptyState title="No dead letters">Every delivery either went out or ended in a state that needs nobody.</EmptyState> : dead.map((c) => <CaseCard key={c.delivery.id} c={c} zone={tenant.timeZone} />)}
      <h2 className="section-title">
        Unknown outcomes <span className="count">{unknown.length}</span>
      </h2>
      {unknown.length === 0 ? (
        <EmptyState title="No unknown outcomes">No send is waiting for a person to decide whether it went out.</EmptyState>
      ) : (
        unknown.map((c) => <CaseCard key={c.delivery.id} c={c} zone={tenant.timeZone} />)
      )}
    </>
  );
}

function CaseCard({ c, zone }: { c: DeliveryCase; zone: string }) {
  const d = c.delivery;
  return (
    <section className="card case-card" data-delivery-id={d.id}>
      <div className="case-head">
        <div>
          <strong>{d.address}</strong>
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
      <AttemptsTable attempts={c.attempts} zone={zone} />
      <p className="mono small muted">{d.messageKey}</p>
    </section>
  );
}
