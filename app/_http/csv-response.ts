import { contentDisposition } from '@/domain/platform/content-disposition';
import type { CsvDownload } from '@/server/people/csv-exports';

/**
 * The HTTP answer for a CSV export (issue #13): `text/csv; charset=utf-8` (RFC 4180 §3 with RFC 7111's charset),
 * an attachment named by domain/platform/content-disposition.ts, streamed (no Content-Length), never cached, never sniffed.
 */
export function csvResponse(d: CsvDownload): Response {
  return new Response(d.body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': contentDisposition('attachment', d.filename),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    },
  });
}
