import { getDb } from '@/db/client';
import { contentDisposition } from '@/domain/platform/content-disposition';
import { caughtMessageRawFor } from '@/dev/caught-mail';
import { mailboxEnabled } from '@/server/platform/mailbox-switch';
import { jsonError, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/mailbox/:id/raw — the raw source of a caught message exactly as the catcher received it (an email's
 * RFC 5322 text with every MIME part), as `text/plain; charset=utf-8` shown in the browser, saved as
 * `message-<id>.eml` (email) or `.txt`. Any signed-in staff role; scoped like the mailbox page
 * (dev/caught-mail.ts): 401 signed out, 404 `{ error }` when the message is not in the viewer's mailbox or the
 * mailbox is off (`PUNCTUAL_MAILBOX`). Credentials in it are masked unless the viewer is its recipient.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  if (!mailboxEnabled()) return jsonError(404, 'not found');
  return staffRoute(request, 'read', async ({ tenant, user }) => {
    const msg = await caughtMessageRawFor(getDb(), { tenantId: tenant.id, viewerEmail: user.email }, id);
    if (!msg) return jsonError(404, 'message not found');
    return new Response(msg.raw, {
      headers: {
        'content-type': 'text/plain; charset=utf-8',
        'content-disposition': contentDisposition('inline', `message-${msg.id}.${msg.channel === 'email' ? 'eml' : 'txt'}`),
        'x-content-type-options': 'nosniff',
        'content-security-policy': "sandbox; default-src 'none'",
        'cache-control': 'private, no-store',
      },
    });
  });
}
