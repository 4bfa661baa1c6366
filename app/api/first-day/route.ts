import { getDb } from '@/db/client';
import { dismissFirstDayChecklist, firstDayChecklistOf } from '@/server/dashboards/first-day';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/first-day — the organisation's first-day checklist (every role): `{ show, done, items: [{ id, done,
 * title, detail, href, action }] }`, or `{ show: false, dismissed: true }` once an admin dismissed it.
 */
export async function GET(request: Request) {
  return staffRoute(request, 'read', async (s) => (await firstDayChecklistOf(getDb(), s.tenant)) ?? { show: false, dismissed: true });
}

/**
 * DELETE /api/first-day — an admin dismisses the checklist for the whole organisation (audited); answers
 * `{ dismissed }` (false when it already was). Other roles: 403.
 */
export async function DELETE(request: Request) {
  return staffRoute(request, 'configure', (s) => dismissFirstDayChecklist(getDb(), actionContext(s)));
}
