import { contentDisposition } from '@/domain/platform/content-disposition';
import { PARTICIPANT_CSV_TEMPLATE } from '@/domain/people/participant-csv';
import { staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/events/:id/import-csv/template — the template of a participants CSV file (issue #13): the header row
 * (name, email, phone, role, time zone, locale) and one example line, UTF-8 with CRLF line ends, as a download.
 * The same for every event (the id only places the link beside the import).
 */
export async function GET(request: Request) {
  return staffRoute(request, 'read', async () =>
    new Response(PARTICIPANT_CSV_TEMPLATE, {
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': contentDisposition('attachment', 'participants-template.csv'), 'cache-control': 'no-store' },
    }),
  );
}
