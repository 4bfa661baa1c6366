import { getDb } from '@/db/client';
import { previewAnnouncement } from '@/server/messages/announcement-preview';
import { staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/events/:id/announcements/preview `{ audience, texts?, bookingId? }` — nothing is stored: how many people
 * the audience reaches per channel, and what one real recipient would get (server/messages/announcement-preview.ts).
 * 400 naming the audience field; the words' first problem comes back as `textProblem` (the dialog shows it live).
 */
export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'read', async (s, body) => previewAnnouncement(getDb(), { tenantId: s.tenant.id }, id, body));
}
