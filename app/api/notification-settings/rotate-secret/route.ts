import { getDb } from '@/db/client';
import { rotateWebhookSecret } from '@/server/notifications/notification-settings';
import { actionContext, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * POST /api/notification-settings/rotate-secret `{ version }` (or `If-Match`) — admins only: a new `whsec_`
 * signing secret for the webhook endpoint, answered once in `webhookSecret`. No endpoint → 400 naming
 * `webhookUrl`; stale version → 409.
 */
export async function POST(request: Request) {
  return staffRoute(request, 'configure', (s, body) => rotateWebhookSecret(getDb(), actionContext(s), (body ?? {}) as { version?: unknown }));
}
