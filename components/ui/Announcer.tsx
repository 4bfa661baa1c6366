'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useSyncExternalStore } from 'react';

/**
 * What an action did, said once it is done — "Sent to ana@example.com." after a nudge, "Replayed: …" after a
 * replay — in a polite live region (`aria-live="polite"`, read after what the screen reader is saying) that
 * is shown as a small notice at the bottom of the window. The region lives in the staff layout, outside any
 * row, so the notice survives the row it acted on disappearing.
 *
 * `announce()` may be called again with the same `key` to update one notice in place ("Sending to …" →
 * "Sent to …"). A notice belongs to the page it was made on: it is not shown after a navigation, and the
 * "Dismiss" button clears it.
 */
type Notice = {
  /** Identifies the notice for updates in place; a new key replaces any other notice. */
  key: string;
  text: string;
  tone?: 'ok' | 'warn';
  /** A link after the text ("Follow it →"). */
  link?: { href: string; label: string };
};

type Shown = Notice & { path: string };

let current: Shown | null = null;
const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const read = () => current;

/** Shows `notice` (or clears with null); a repeated call with the same key and text changes nothing. */
export function announce(notice: Notice | null): void {
  if (notice && current && current.key === notice.key && current.text === notice.text && current.tone === notice.tone) return;
  current = notice ? { ...notice, path: window.location.pathname } : null;
  listeners.forEach((l) => l());
}

/** The notice region; rendered once, by app/(staff)/layout.tsx. */
export function Announcer() {
  const notice = useSyncExternalStore(subscribe, read, () => null);
  const pathname = usePathname();
  const shown = notice && notice.path === pathname ? notice : null;
  // The live region stays in the page while empty: a region that appears together with its text is often not read.
  return (
    <div className={`live-notice${shown ? ` is-shown${shown.tone === 'warn' ? ' is-warn' : ''}` : ''}`} data-testid="live-notice">
      <p className="live-notice-text" aria-live="polite" aria-atomic="true">
        {shown ? (
          <>
            {shown.text}
            {shown.link ? (
              <>
                {' '}
                <Link href={shown.link.href}>{shown.link.label}</Link>
              </>
            ) : null}
          </>
        ) : null}
      </p>
      {shown ? (
        <button type="button" className="btn btn-ghost btn-small live-notice-close" onClick={() => announce(null)} aria-label="Dismiss notice">
          ✕
        </button>
      ) : null}
    </div>
  );
}
