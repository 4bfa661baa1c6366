import Link from 'next/link';
import type { ReactNode } from 'react';
import { NavLink } from '../../components/NavLink';
import { SignOutButton } from '../../components/SignOutButton';
import { requireStaff } from '../../server/session';
import '../styles/channels.css';
import '../styles/alerts.css';

export const dynamic = 'force-dynamic';

/** Signed-in app shell: navigation, who is signed in (name, role, tenant) and sign-out, beside the page. */
export default async function StaffLayout({ children }: { children: ReactNode }) {
  const { user, tenant } = await requireStaff();
  return (
    <div className="shell">
      <aside className="sidebar">
        <Link href="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◷
          </span>
          Punctual
        </Link>
        <nav className="nav" aria-label="Main">
          <NavLink href="/" exact>
            Dashboard
          </NavLink>
          <NavLink href="/events">Events</NavLink>
          <NavLink href="/deliveries">Deliveries</NavLink>
          <NavLink href="/attention">Needs attention</NavLink>
          <NavLink href="/suppressions">Suppressions</NavLink>
          <NavLink href="/audit">Audit log</NavLink>
          <NavLink href="/rules">Reminder rules</NavLink>
          <NavLink href="/notifications">Notifications</NavLink>
          <NavLink href="/alerts">Alerts</NavLink>
          <NavLink href="/staff">Staff</NavLink>
          <NavLink href="/templates">Templates</NavLink>
          <NavLink href="/mailbox">Mailbox</NavLink>
        </nav>
        <div className="sidebar-user" aria-label="Signed in">
          <div className="sidebar-user-name">{user.name}</div>
          <div className="sidebar-user-meta">
            <span data-testid="current-role">{user.role}</span> · {tenant.name}
          </div>
          <SignOutButton />
        </div>
      </aside>
      <main className="content">{children}</main>
    </div>
  );
}
