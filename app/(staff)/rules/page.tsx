import type { Metadata } from 'next';
import { getDb } from '../../../db/client';
import { listRules } from '../../../db/queries/rules';
import { EmptyState } from '../../../components/EmptyState';
import { describeRule } from '../../../domain/describe-rule';
import { requireStaff } from '../../../server/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Reminder rules' };

/** The tenant's reminder rules, each read back as a sentence (editing arrives with staff sign-in). */
export default async function RulesPage() {
  const db = getDb();
  const tenant = (await requireStaff()).tenant;
  if (!tenant) return <EmptyState title="No tenant yet">Run npm start to seed the demo.</EmptyState>;
  const rules = await listRules(db, tenant.id);
  return (
    <>
      <div className="page-head">
        <h1>Reminder rules</h1>
        <p className="muted">{tenant.name} · applied to every booking; changes apply to bookings made afterwards</p>
      </div>
      {rules.length === 0 ? (
        <EmptyState title="No reminder rules">Without rules, bookings get no reminders.</EmptyState>
      ) : (
        <table className="data-table">
          <thead>
            <tr>
              <th>Rule</th>
              <th>When and to whom</th>
              <th>Template</th>
              <th>Offset</th>
            </tr>
          </thead>
          <tbody>
            {rules.map((r) => (
              <tr key={r.id} className={r.active ? undefined : 'muted'}>
                <td className="row-title">
                  {r.name}
                  {r.active ? null : <span className="tag">inactive</span>}
                </td>
                <td>{describeRule(r)}</td>
                <td className="nowrap">{r.template}</td>
                <td className="mono nowrap">
                  {r.anchor} {r.offset}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
