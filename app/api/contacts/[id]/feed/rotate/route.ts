import { getDb } from '@/db/client';
import { changeFeed } from '@/server/calendar/calendar-feed';
import { feedLinkSettings } from '@/server/calendar/feed-settings';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/contacts/:id/feed/rotate `{ version }` (or If-Match) — staff and admins: a new feed address; every
 * earlier one answers 404 from now on (audited `calendar_feed_rotate`). Answers the new feed view. 400 naming the
 * field; stale version → 409 with `current`; 404 naming contactId.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'operate', (s, body) => changeFeed(getDb(), actionContext(s), id, body, { rotate: true, ...feedLinkSettings() }));
}
