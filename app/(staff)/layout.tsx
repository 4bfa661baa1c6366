import Link from 'next/link';
import type { ReactNode } from 'react';
import { Announcer } from '@/components/ui/Announcer';
import { NavLink } from '@/components/ui/NavLink';
import { NavMenu } from '@/components/ui/NavMenu';
import { SignOutButton } from '@/components/accounts/SignOutButton';
import { mailboxEnabled } from '@/server/platform/mailbox-switch';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/channels.css';
import '@/app/styles/alerts.css';
import '@/app/styles/shell.css';
import '@/app/styles/account.css';

export const dynamic = 'force-dynamic';

/** A labelled group of the navigation ("Messages", "Set-up"): its title is a heading for the links under it. */
function NavGroup({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <div className="nav-group" role="group" aria-labelledby={`nav-group-${id}`}>
      <span className="nav-group-title" id={`nav-group-${id}`}>
        {title}
      </span>
      {children}
    </div>
  );
}

/**
 * Signed-in app shell: a skip link to the page's content (the first thing a keyboard reaches), navigation, who
 * is signed in (name, role, tenant), the navigation grouped (Dashboard, Today, Events; Messages; Set-up; Audit log), a link to their own account (/account: password, two-factor) and sign-out,
 * beside the page; on a phone the navigation and the signed-in
 * block fold behind a "Menu" button (components/ui/NavMenu.tsx). The polite notice region
 * (components/ui/Announcer.tsx) says what a nudge or a replay did, even when the row it acted on has gone.
 */
export default async function StaffLayout({ children }: { children: ReactNode }) {
  const { user, tenant } = await requireStaff();
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to main content
      </a>
      <aside className="sidebar">
        <Link href="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◷
          </span>
          Punctual
        </Link>
        <NavMenu controls="main-nav signed-in" />
        <nav id="main-nav" className="nav" aria-label="Main">
          <NavLink href="/" exact>
            Dashboard
          </NavLink>
          <NavLink href="/today">Today</NavLink>
          <NavLink href="/events">Events</NavLink>
          <NavGroup id="messages" title="Messages">
            <NavLink href="/reminders">Reminders</NavLink>
            <NavLink href="/deliveries">Deliveries</NavLink>
            <NavLink href="/attention">Needs attention</NavLink>
            <NavLink href="/suppressions">Suppressions</NavLink>
            <NavLink href="/replies">Calendar replies</NavLink>
            {/* Only where the built-in catchers run (server/platform/mailbox-switch.ts). */}
            {mailboxEnabled() ? <NavLink href="/mailbox">Mailbox</NavLink> : null}
          </NavGroup>
          <NavGroup id="setup" title="Set-up">
            <NavLink href="/rules">Reminder rules</NavLink>
            <NavLink href="/notifications">Notifications</NavLink>
            <NavLink href="/templates">Templates</NavLink>
            <NavLink href="/alerts">Alerts</NavLink>
            <NavLink href="/settings">Settings</NavLink>
            <NavLink href="/staff">Staff</NavLink>
          </NavGroup>
          <NavLink href="/audit">Audit log</NavLink>
        </nav>
        <div id="signed-in" className="sidebar-user" aria-label="Signed in">
          <div className="sidebar-user-name">{user.name}</div>
          <div className="sidebar-user-meta">
            <span data-testid="current-role">{user.role}</span> · {tenant.name}
          </div>
          <Link href="/account" className="sidebar-account-link">
            Your account
          </Link>
          <SignOutButton />
        </div>
      </aside>
      <main id="main" className="content" tabIndex={-1}>
        {children}
      </main>
      <Announcer />
    </div>
  );
}
