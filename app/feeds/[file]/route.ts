import { getDb } from '@/db/client';
import { appClock } from '@/server/platform/clock';
import { serveFeed } from '@/server/calendar/calendar-feed';
import { feedSecrets } from '@/server/calendar/feed-link';

export const dynamic = 'force-dynamic';

const notFound = () => new Response('Not found\n', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });

/**
 * GET /feeds/<token>.ics — a contact's personal calendar feed (server/calendar/calendar-feed.ts), no session: the
 * signed token is the credential. 200 `text/calendar; charset=utf-8` with a strong ETag (304 for a matching
 * `If-None-Match`); 404 for anything else — a bad, tampered or rotated token, or no `.ics` — without saying which.
 * `Cache-Control: private, no-cache`: a shared cache must not keep a person's calendar, and clients revalidate.
 */
export async function GET(request: Request, context: { params: Promise<{ file: string }> }) {
  const { file } = await context.params;
  if (!file.endsWith('.ics')) return notFound();
  const clock = appClock();
  await clock.ready;
  let secrets: string[];
  try {
    secrets = feedSecrets();
  } catch {
    return notFound();
  }
  const feed = await serveFeed(getDb(), file.slice(0, -4), { secrets, now: clock.now() });
  if (!feed) return notFound();
  const headers = { etag: feed.etag, 'cache-control': 'private, no-cache' };
  const inm = request.headers.get('if-none-match');
  if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === feed.etag)) return new Response(null, { status: 304, headers });
  return new Response(feed.body, { status: 200, headers: { ...headers, 'content-type': 'text/calendar; charset=utf-8', 'content-disposition': 'inline; filename="calendar.ics"' } });
}

/** HEAD /feeds/<token>.ics — the same answer without the body (some calendar clients check a feed this way). */
export const HEAD = GET;
