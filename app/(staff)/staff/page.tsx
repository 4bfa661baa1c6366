import type { Metadata } from 'next';
import { getDb } from '@/db/client';
import { AddStaffForm, CancelInvitationButton, DisableAccountButton, RoleSelect } from '@/components/accounts/StaffAdmin';
import { appClock } from '@/server/platform/clock';
import { readInvitations } from '@/server/accounts/staff-invitations';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { can } from '@/domain/accounts/permissions';
import { listStaff } from '@/db/queries/accounts/staff';
import { requireStaff } from '@/app/_http/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Staff' };

/**
 * The tenant's staff accounts and roles, who has two-factor sign-in on, and which accounts are disabled; admins add
 * accounts, change roles and disable / re-enable accounts (never their own). The guest partnerships that were below
 * them (issue #12) are on the Settings page since issue #13; a line points there.
 */
export default async function StaffPage() {
  const { tenant, user } = await requireStaff();
  const admin = can(user.role, 'configure');
  const staff = await listStaff(getDb(), tenant.id);
  const clock = appClock();
  await clock.ready;
  // Pending invitations, each shown alike whatever the address (no oracle across tenants).
  const invited = await readInvitations(getDb(), tenant.id, clock.now());
  return (
    <>
      <div className="page-head">
        <h1>Staff</h1>
        <p className="muted">
          Who can sign in to {tenant.name}, and what they may do{admin ? '' : ' · only admins change this'}
        </p>
      </div>
      <table className="data-table reflow-table staff-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Since</th>
            <th scope="col">Two-factor</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {staff.map((s) => (
            <tr key={s.id} data-staff-email={s.email}>
              <td className="row-title reflow-title">
                {s.name}
                {s.id === user.id ? <span className="tag">you</span> : null}
              </td>
              <td data-label="Email">{s.email}</td>
              <td data-label="Role">{admin && s.id !== user.id ? <RoleSelect userId={s.id} name={s.name} role={s.role} version={s.version} /> : s.role}</td>
              <td className="nowrap" data-label="Since">
                <ZonedTime instant={s.createdAt.toISOString()} zone={tenant.timeZone} />
              </td>
              <td data-label="Two-factor" data-testid="two-factor">
                {s.twoFactorEnabled ? <span className="badge badge-ok">on</span> : <span className="muted">off</span>}
              </td>
              <td data-label="Status" data-testid="account-status">
                <span className="staff-status">
                  {s.disabledAt ? (
                    <span>
                      <span className="badge badge-bad">disabled</span>{' '}
                      <span className="small muted">
                        <ZonedTime instant={s.disabledAt.toISOString()} zone={tenant.timeZone} />
                        {s.disabledBy ? ` by ${s.disabledBy}` : ''}
                      </span>
                    </span>
                  ) : (
                    <span className="muted">active</span>
                  )}
                  {admin && s.id !== user.id ? <DisableAccountButton userId={s.id} name={s.name} disabled={!!s.disabledAt} version={s.version} /> : null}
                </span>
              </td>
            </tr>
          ))}
          {invited.map((i) => (
            <tr key={`invitation-${i.id}`} data-invited-email={i.email} className="staff-invited">
              <td className="row-title reflow-title">{i.name}</td>
              <td data-label="Email">{i.email}</td>
              <td data-label="Role">{i.role}</td>
              <td className="nowrap" data-label="Since">
                <ZonedTime instant={i.invitedAt} zone={tenant.timeZone} />
              </td>
              <td data-label="Two-factor">
                <span className="muted">—</span>
              </td>
              <td data-label="Status" data-testid="account-status">
                <span className="staff-status">
                  <span>
                    <span className="badge">invited</span> <span className="small muted">{i.state}</span>
                  </span>
                  {admin ? <CancelInvitationButton id={i.id} email={i.email} version={i.version} /> : null}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {admin ? <AddStaffForm /> : null}
      <p className="muted small staff-partnerships-moved">
        Guest partnerships — which organisations may book {tenant.name}’s people, and whose people it may book — are on the <a href="/settings">Settings</a> page.
      </p>
    </>
  );
}
