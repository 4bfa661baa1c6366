import type { Metadata } from 'next';
import { getDb } from '../../../db/client';
import { AddStaffForm, DisableAccountButton, RoleSelect } from '../../../components/client/StaffAdmin';
import { PartnershipLimitForm } from '../../../components/client/GuestPartnerships';
import { readGuestOrganisations, readPartnerships } from '../../../server/partnerships';
import '../../styles/partnerships.css';
import { ZonedTime } from '../../../components/ZonedTime';
import { can } from '../../../domain/permissions';
import { listStaff } from '../../../db/queries/staff';
import { requireStaff } from '../../../server/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Staff' };

/**
 * The tenant's staff accounts and roles, who has two-factor sign-in on, and which accounts are disabled; admins add
 * accounts, change roles and disable / re-enable accounts (never their own). Below them, the
 * tenant's guest partnerships (issue #12): the organisations that may book its people as their guests — and, per
 * organisation, whom they may write to in this tenant's name (admins edit it) — and the organisations whose
 * people this tenant may book. The section is left out when there are none.
 */
export default async function StaffPage() {
  const { tenant, user } = await requireStaff();
  const admin = can(user.role, 'configure');
  const staff = await listStaff(getDb(), tenant.id);
  const asGuest = await readPartnerships(getDb(), tenant.id);
  const asHost = await readGuestOrganisations(getDb(), tenant.id);
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
        </tbody>
      </table>
      {admin ? <AddStaffForm /> : null}
      {asGuest.length > 0 || asHost.length > 0 ? (
        <section className="partnerships" aria-labelledby="partnerships-title">
          <h2 id="partnerships-title">Guest partnerships</h2>
          {asGuest.length > 0 ? (
            <>
              <p className="muted">
                These organisations may book {tenant.name}’s people as guests of their events. Their messages to a guest go out in {tenant.name}’s name only
                for the people allowed here, and every one of them is listed in <a href="/deliveries">Deliveries</a> and the <a href="/audit">Audit log</a>;
                anyone else gets them in the host’s own name.
              </p>
              <ul className="partnership-list">
                {asGuest.map((p) => (
                  <li key={p.hostTenantId} className="card partnership" data-partner={p.hostName}>
                    <h3>{p.hostName}</h3>
                    <p className="small muted">
                      {p.version > 1 ? 'Limit changed ' : 'Partner since '}
                      <ZonedTime instant={p.version > 1 ? p.updatedAt : p.createdAt} zone={tenant.timeZone} />
                      {p.version > 1 && p.updatedBy ? ` by ${p.updatedBy}` : ''}
                    </p>
                    <PartnershipLimitForm partnership={p} canEdit={admin} />
                  </li>
                ))}
              </ul>
              {admin ? null : <p className="small muted">Only admins change these.</p>}
            </>
          ) : null}
          {asHost.length > 0 ? (
            <>
              <p className={asGuest.length > 0 ? 'partnerships-subtitle' : 'muted'}>Organisations whose people {tenant.name} may book as guests of its events:</p>
              <ul className="partnership-host-list">
                {asHost.map((g) => (
                  <li key={g.slug}>
                    <strong>{g.name}</strong>: messages go out in their name to {g.description}; to anyone else in your own name.
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
