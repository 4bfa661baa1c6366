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
