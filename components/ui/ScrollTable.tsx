import type { ReactNode } from 'react';

/**
 * A wide table's own horizontal scroll box (the page itself never scrolls sideways): a focusable, labelled
 * region (keyboard users can scroll it; axe `scrollable-region-focusable`), with a visible hint on narrow
 * windows and a fading edge while more columns hide to the right (pure CSS: app/styles/channels.css).
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="scroll-table">
      <p className="scroll-hint" aria-hidden="true">
        Scroll sideways for more columns →
      </p>
      <div className="table-scroll scroll-table-box" role="region" aria-label={label} tabIndex={0}>
        {children}
      </div>
    </div>
  );
}
