import { getDb } from '@/db/client';
import { handleCreate } from '@/server/platform/idempotency';
import { refreshPlannerStatistics } from '@/db/queries/scheduling/bulk-planning';
import { commitParticipantImport, previewParticipantImport } from '@/server/people/participant-import';
import { AppError } from '@/server/platform/errors';
import { CSV_IMPORT_MAX_BODY_BYTES, maxBodyBytesFromEnv } from '@/server/platform/request-body';
import { actionContext, staffRoute } from '@/app/_http/session';

/** Imports of at least this many bookings refresh the planner's statistics after they commit. */
const ANALYZE_AFTER_BOOKINGS = 200;

export const dynamic = 'force-dynamic';

/**
 * POST /api/events/:id/import-csv?mode=preview|commit — participants from a CSV file (issue #13,
 * server/people/participant-import.ts). The body is the file's text (UTF-8, up to 5 MiB: the one route with a larger cap,
 * server/platform/request-body.ts CSV_IMPORT_MAX_BODY_BYTES).
 *
 * - `mode=preview`: writes nothing; answers the preview `{ digest, total, ready, withProblems, known, keptDiffering,
 *   columns, ignored, problemRows: [{ row, line, values, problems: [{ kind, field, message }] }], sample }`.
 *   A file that cannot be imported as a whole (no email column, over 5,000 rows, …) is a 400 naming `file`.
 * - `mode=commit&digest=<the preview's digest>&file=<file name>[&skip=problems]`: books everyone or no one (or, with
 *   `skip=problems`, every row without a problem, skipping the others), in one transaction with one audit entry;
 *   answers `{ bookings, reminders, known, keptDiffering, skipped: [{ row, problems }] }`. A different text (digest)
 *   or rows that have problems now (all or nothing) are a 409 that writes nothing (`preview`: the fresh preview).
 *   Honours `Idempotency-Key`: a double click imports once (the repeat gets the first answer).
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  const url = new URL(request.url);
  const mode = url.searchParams.get('mode');
  const maxBytes = Math.max(CSV_IMPORT_MAX_BODY_BYTES, maxBodyBytesFromEnv());
  return staffRoute(
    request,
    'operate',
    async (s, body) => {
      const text = typeof body === 'string' ? body : '';
      const ctx = actionContext(s);
      if (mode === 'preview') return previewParticipantImport(getDb(), ctx, id, text);
      if (mode !== 'commit') throw new AppError('validation', 'mode: must be preview or commit', 'mode');
      const digest = url.searchParams.get('digest');
      const fileName = url.searchParams.get('file');
      const skip = url.searchParams.get('skip');
      if (skip !== null && skip !== 'problems') throw new AppError('validation', 'skip: must be "problems" (import the rows without problems) or absent (all or nothing)', 'skip');
      const skipProblems = skip === 'problems';
      const r = await handleCreate(
        getDb(),
        // The text is fingerprinted by its digest (the key's stored fingerprint is a hash of this body anyway).
        { tenantId: s.tenant.id, actorId: s.user.id, route: `POST ${url.pathname}?mode=commit`, body: { digest, fileName, skipProblems }, keyHeader: request.headers.get('idempotency-key') },
        (db) => commitParticipantImport(db, ctx, id, { text, digest, fileName, skipProblems }),
      );
      // A large import leaves the planner's statistics behind until autovacuum's next analyze: refresh them now, after
      // the commit (the event page's filters were planned on empty statistics — seconds instead of milliseconds).
      const booked = (r.body as { bookings?: number }).bookings ?? 0;
      if (!r.replayed && booked >= ANALYZE_AFTER_BOOKINGS) await refreshPlannerStatistics(getDb()).catch(() => {});
      return Response.json(r.body, { status: r.status, headers: { 'cache-control': 'no-store', ...(r.replayed ? { 'idempotent-replayed': 'true' } : {}) } });
    },
    { textBody: { maxBytes } },
  );
}
