import { getDb } from '@/db/client';
import { createAnnouncement, listAnnouncements } from '@/server/messages/announcements';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/** GET /api/events/:id/announcements — the event's announcements, newest first, with what became of their messages. */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'read', async (s) => ({ announcements: await listAnnouncements(getDb(), { tenantId: s.tenant.id }, id) }));
}

/**
 * POST /api/events/:id/announcements `{ audience: { roles, statuses, channels }, texts: { <language>: { subject, body,
 * sms? } }, sendAt?: ISO instant | local "YYYY-MM-DDTHH:mm" in the organisation's zone | null (now), idempotencyKey }`
 * — write to the people of this event (server/messages/announcements.ts). 200 `{ announcement, replayed }` (a repeated
 * idempotency key — a double click — answers the first announcement, `replayed: true`); 400 naming the field; 403 for
 * viewers; 404 for another tenant's event.
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'operate', async (s, body) => createAnnouncement(getDb(), actionContext(s), id, body));
}
