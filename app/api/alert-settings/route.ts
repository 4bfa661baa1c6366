import { getDb } from '@/db/client';
import { can } from '@/domain/accounts/permissions';
import { readAlertSettings, saveAlertSettings, type SaveAlertSettingsInput } from '@/server/alerts/settings';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/alert-settings — the tenant's alert settings (every signed-in role): `emailRecipients` (staff user ids),
 * `slackWebhookUrl` (admins only; others get `slackWebhookMasked`), `lagP95Ms`, `oldestDueSeconds`, `version`
 * (0 = never saved).
 */
export async function GET(request: Request) {
  return staffRoute(request, 'read', (s) => readAlertSettings(getDb(), s.tenant.id, { withUrl: can(s.user.role, 'configure') }));
}

/**
 * PUT /api/alert-settings `{ emailRecipients, slackWebhookUrl, lagP95Ms, oldestDueSeconds, version }` (or the
 * version as `If-Match`; the first save sends 0) — admins only. 400 naming the field; stale version → 409 with
 * `current`. Answers the settings as stored.
 */
export async function PUT(request: Request) {
  return staffRoute(request, 'configure', (s, body) => saveAlertSettings(getDb(), actionContext(s), (body ?? {}) as SaveAlertSettingsInput));
}
