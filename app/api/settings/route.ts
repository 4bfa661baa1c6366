import { getDb } from '@/db/client';
import { readOrgSettings, saveOrgSettings } from '@/server/organisations/org-settings';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/settings — the organisation's settings (every role): `{ slug, name, timeZone, senderName, senderEmail,
 * replyTo, locale, emailProvider, effectiveSenderName, version, updatedBy, updatedAt }` (issue #13).
 */
export async function GET(request: Request) {
  return staffRoute(request, 'read', (s) => readOrgSettings(getDb(), s.tenant.id));
}

/**
 * PUT /api/settings `{ name, timeZone, senderName, senderEmail, replyTo, locale, emailProvider, version }` (or the
 * version as `If-Match`) — admins only. 400 naming the field; stale version → 409 with `current`. Answers the
 * settings as stored.
 */
export async function PUT(request: Request) {
  return staffRoute(request, 'configure', (s, body) => saveOrgSettings(getDb(), actionContext(s), body ?? {}));
}
