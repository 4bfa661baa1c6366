'use client';

import { useLoggedErrorDigest } from './useLoggedErrorDigest';

/**
 * "This page could not be loaded": the card an error boundary shows when a page's data cannot be loaded (typically
 * the database restarting, busy or over its statement time limit), with the error's digest and a "Try again"
 * button calling `retry`. `className` is the card's class ("card" inside the staff shell, "signin-card" outside).
 */
export function PageLoadError({ error, retry, className }: { error: unknown; retry: () => void; className: string }) {
  const digest = useLoggedErrorDigest(error);
  return (
    <div className={className} role="alert">
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
