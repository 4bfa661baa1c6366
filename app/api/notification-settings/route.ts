import { getDb } from '@/db/client';
import { can } from '@/domain/accounts/permissions';
import { readNotificationSettings, saveNotificationSettings, type SaveSettingsInput } from '@/server/notifications/notification-settings';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/notification-settings — the tenant's notification settings (every signed-in role): policy, SMS sender,
 * webhook endpoint and switch, why it was switched off, `version` (0 = never saved). `webhookSecret` is in the
 * answer for admins only.
 */
export async function GET(request: Request) {
  return staffRoute(request, 'read', (s) => readNotificationSettings(getDb(), s.tenant.id, { withSecret: can(s.user.role, 'configure') }));
}

/**
 * PUT /api/notification-settings `{ policy, smsSender, webhookUrl, webhookEnabled, version }` (or the version as
 * `If-Match: "<version>"`; the first save sends `version: 0` in the body) — admins only. 400 naming the field;
 * stale version → 409 with `current`. Answers `{ settings, secretCreated }` (the secret included).
 */
export async function PUT(request: Request) {
  return staffRoute(request, 'configure', (s, body) => saveNotificationSettings(getDb(), actionContext(s), (body ?? {}) as SaveSettingsInput));
}
