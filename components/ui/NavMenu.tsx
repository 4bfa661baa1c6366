'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';

/**
 * The "Menu" button that folds the staff navigation on a phone (900 px wide or less, app/globals.css). It
 * sits in the sidebar (`.sidebar`) and marks it `data-menu="open"` or `"closed"`; the stylesheet hides the
 * navigation and the signed-in block of a closed sidebar on narrow screens only, so a desktop is unchanged
 * (there the button is not shown). `controls`: the ids of what it shows and hides (`aria-controls`).
 *
 * It closes on the button again, on Escape anywhere in the sidebar (focus goes back to the button), on
 * following any link in the sidebar (also one to the page already shown: focus then goes to the page's
 * `<main id="main">`, as the link it was on is hidden), and whenever the path changes — the open state is
 * remembered for the path it was opened on, so a navigation by any other means closes it too. Before the
 * script runs the sidebar carries no mark, and a phone shows it closed.
 */
export function NavMenu({ controls }: { controls: string }) {
  const pathname = usePathname() ?? '';
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const button = useRef<HTMLButtonElement>(null);
  const focusMain = useRef(false);
  useEffect(() => {
    if (!focusMain.current) return;
    focusMain.current = false;
    document.getElementById('main')?.focus();
  }, [pathname]);
  useEffect(() => {
    const sidebar = button.current?.closest<HTMLElement>('.sidebar');
    if (!sidebar) return;
    sidebar.dataset.menu = open ? 'open' : 'closed';
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      setOpenOn(null);
      button.current?.focus();
    };
    const onClick = (e: MouseEvent) => {
      const link = e.target instanceof Element ? e.target.closest<HTMLAnchorElement>('a[href]') : null;
      if (!link) return;
      setOpenOn(null);
      if (new URL(link.href).pathname === window.location.pathname) requestAnimationFrame(() => document.getElementById('main')?.focus());
      else focusMain.current = true;
    };
    sidebar.addEventListener('keydown', onKey);
    sidebar.addEventListener('click', onClick);
    return () => {
      sidebar.removeEventListener('keydown', onKey);
      sidebar.removeEventListener('click', onClick);
    };
  }, [open]);
  return (
    <button ref={button} type="button" className="menu-toggle" aria-expanded={open} aria-controls={controls} onClick={() => setOpenOn(open ? null : pathname)}>
      <span className="menu-toggle-icon" aria-hidden="true">
        {open ? '✕' : '☰'}
      </span>
      Menu
    </button>
  );
}
