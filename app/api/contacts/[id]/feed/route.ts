import { getDb } from '@/db/client';
import { changeFeed, feedViewOf } from '@/server/calendar/calendar-feed';
import { feedLinkSettings } from '@/server/calendar/feed-settings';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/** GET /api/contacts/:id/feed — the contact's calendar feed: `{ url, webcal, alarms, generation, version, rotatedAt, rotatedBy }`. 404 naming contactId. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'read', (s) => feedViewOf(getDb(), s.tenant.id, id, feedLinkSettings()));
}

/**
 * PUT /api/contacts/:id/feed `{ alarms, version }` (or If-Match) — staff and admins: VALARMs in the feed on or off
 * (audited `calendar_feed_update`). 400 naming the field; stale version → 409 with `current`.
 */
export async function PUT(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'operate', (s, body) => changeFeed(getDb(), actionContext(s), id, body, { rotate: false, ...feedLinkSettings() }));
}
