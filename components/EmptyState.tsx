import type { ReactNode } from 'react';

/** A calm placeholder for a page or section with nothing to show, with an optional hint below the title. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state" role="status">
      <p className="empty-state-title">{title}</p>
      {children ? <div className="empty-state-hint">{children}</div> : null}
    </div>
  );
}

/** The empty state shown by every tenant-scoped page when the selected tenant does not exist. */
export function NoTenantState() {
  return (
    <EmptyState title="No tenant yet — run npm start to seed the demo">
      The staff UI shows the tenant named by the <code>punctual_tenant</code> cookie, else{' '}
      <code>PUNCTUAL_TENANT</code>, else <code>demo</code>.
    </EmptyState>
  );
}
