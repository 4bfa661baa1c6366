import { getDb } from '../../../../../db/client';
import { contentDisposition } from '../../../../../domain/content-disposition';
import { caughtMessageRaw } from '../../../../../server/caught-mail';
import { jsonError, staffRoute } from '../../../../../server/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/mailbox/:id/raw — the raw source of a caught message exactly as the catcher received it (an email's
 * RFC 5322 text with every MIME part), as `text/plain; charset=utf-8` shown in the browser, saved as
 * `message-<id>.eml` (email) or `.txt`. Any signed-in staff role; scoped like the mailbox page
 * (db/queries/mailbox.ts): 401 signed out, 404 `{ error }` when the message is not this tenant's.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  const { id } = await context.params;
  return staffRoute(request, 'read', async ({ tenant }) => {
    const msg = await caughtMessageRaw(getDb(), tenant.id, id, process.env.SMS_FROM);
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
