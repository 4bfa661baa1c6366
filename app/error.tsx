'use client';

import { PageLoadError } from '@/components/ui/PageLoadError';

/**
 * Error state for what the staff pages' own boundary (app/(staff)/error.tsx) cannot catch: an error in the staff
 * layout itself — the session lookup every staff page starts with — or in a page outside the staff area (sign-in,
 * a person's preferences page). The typical case is the database: every web query has a time limit
 * (PUNCTUAL_DB_STATEMENT_TIMEOUT_MS, db/client.ts), so a frozen or locked database ends here, readable, instead of
 * a page that never loads or Next's bare "Application error". `digest` matches the server log line.
 */
export default function AppError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <main className="signin">
      <PageLoadError error={error} retry={retry} className="signin-card" />
    </main>
  );
}
