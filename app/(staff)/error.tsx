'use client';

import { useEffect } from 'react';

/**
 * Error state of every staff page without its own: shown when the page's data cannot be loaded (e.g. the
 * database does not answer: every web query has a time limit, db/client.ts, so a frozen or locked database ends
 * here within PUNCTUAL_DB_STATEMENT_TIMEOUT_MS + 2 s instead of a page that never loads). Server errors arrive
 * without their message in production; `digest` matches the server log line. Nothing the user did is lost:
 * pages only read, and every change is one transaction.
 */
export default function StaffError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const digest = error && typeof error === 'object' && 'digest' in error ? String((error as { digest?: unknown }).digest ?? '') : '';
  return (
    <div className="card" role="alert">
      <h1>This page could not be loaded</h1>
      <p>
        The server did not answer as expected — usually the database is restarting, busy or did not answer in time. Nothing was changed or lost. Try again in a
        moment.
        {digest ? <span className="small muted"> (error {digest})</span> : null}
      </p>
      <button type="button" className="btn btn-primary" onClick={() => retry()}>
        Try again
      </button>
    </div>
  );
}
