'use client';

import { useState } from 'react';

/** Ends the session (better-auth `POST /api/auth/sign-out`) and returns to the sign-in page. */
export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="btn btn-ghost btn-small sidebar-signout"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        await fetch('/api/auth/sign-out', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).catch(() => null);
        window.location.assign('/sign-in');
      }}
    >
      Sign out
    </button>
  );
}
