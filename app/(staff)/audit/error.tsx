'use client';

import { useLoggedErrorDigest } from '@/components/ui/useLoggedErrorDigest';
import '@/app/styles/audit.css';

/**
 * The audit log's error state: shown when its entries cannot be loaded (e.g. the database does not answer).
 * Server errors arrive without their message in production; `digest` matches the server log line.
 */
export default function AuditError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = useLoggedErrorDigest(error);
  return (
    <>
      <div className="page-head">
        <h1>Audit log</h1>
      </div>
      <div className="audit-error" role="alert">
        <p>
          <strong>The audit log could not be loaded.</strong> Nothing was lost — entries are only ever added. Try again in a moment.
          {digest ? <span className="small"> (error {digest})</span> : null}
        </p>
        <button type="button" className="btn" onClick={() => retry()}>
          Try again
        </button>
      </div>
    </>
  );
}
