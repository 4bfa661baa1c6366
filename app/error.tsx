'use client';

import { useEffect } from 'react';

/**
 * Error state for what the staff pages' own boundary (app/(staff)/error.tsx) cannot catch: an error in the staff
 * layout itself — the session lookup every staff page starts with — or in a page outside the staff area (sign-in,
 * a person's preferences page). The typical case is the database: every web query has a time limit
 * (PUNCTUAL_DB_STATEMENT_TIMEOUT_MS, db/client.ts), so a frozen or locked database ends here, readable, instead of
 * a page that never loads or Next's bare "Application error". `digest` matches the server log line.
 */
export default function AppError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest = error && typeof error === 'object' && 'digest' in error ? String((error as { digest?: unknown }).digest ?? '') : '';
  return (
    <main className="signin">
      <div className="signin-card" role="alert">
        <h1>This page could not be loaded</h1>
        <p>
          The server did not answer as expected — usually the database is restarting, busy or did not answer in time. Nothing was changed or lost. Try
          again in a moment.
          {digest ? <span className="small muted"> (error {digest})</span> : null}
        </p>
        <button type="button" className="btn btn-primary" onClick={() => retry()}>
          Try again
        </button>
      </div>
    </main>
  );
}
