'use client';

import { PageLoadError } from '@/components/ui/PageLoadError';

/**
 * Error state of every staff page without its own: shown when the page's data cannot be loaded (e.g. the
 * database does not answer: every web query has a time limit, db/client.ts, so a frozen or locked database ends
 * here within PUNCTUAL_DB_STATEMENT_TIMEOUT_MS + 2 s instead of a page that never loads). Server errors arrive
 * without their message in production; `digest` matches the server log line. Nothing the user did is lost:
 * pages only read, and every change is one transaction.
 */
export default function StaffError({ error, retry }: { error: unknown; retry: () => void }) {
  return <PageLoadError error={error} retry={retry} className="card" />;
}
