import { getDb } from '@/db/client';
import { contentDisposition } from '@/domain/platform/content-disposition';
import { caughtAttachment } from '@/dev/caught-mail';
import { mailboxEnabled } from '@/server/platform/mailbox-switch';
import { jsonError, staffRoute } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

/**
 * GET /api/mailbox/:id/attachments/:index — attachment number `index` (0-based, in the order the mailbox page
 * lists them) of a caught email, as a download (`Content-Disposition: attachment`, its own MIME type). Any
 * signed-in staff role; scoped like the mailbox page (dev/caught-mail.ts): 401 signed out, 404 `{ error }`
 * when the message is not in the viewer's mailbox, not an email, or has no such attachment, or the mailbox is off
 * (`PUNCTUAL_MAILBOX`). A text or calendar attachment has its credentials masked unless the viewer is its recipient. The file is never rendered
 * in the app's origin: `nosniff` and a sandboxing CSP go with it.
 */
export async function GET(request: Request, context: { params: Promise<{ id: string; index: string }> }) {
  const { id, index } = await context.params;
  if (!mailboxEnabled()) return jsonError(404, 'not found');
  return staffRoute(request, 'read', async ({ tenant, user }) => {
    const file = /^\d{1,6}$/.test(index) ? await caughtAttachment(getDb(), { tenantId: tenant.id, viewerEmail: user.email }, id, Number(index)) : null;
    if (!file) return jsonError(404, 'attachment not found');
    return new Response(new Uint8Array(file.content), {
      headers: {
        'content-type': file.contentTypeHeader,
        'content-length': String(file.content.length),
        'content-disposition': contentDisposition('attachment', file.attachment.downloadName),
        'x-content-type-options': 'nosniff',
        'content-security-policy': "sandbox; default-src 'none'",
        'cache-control': 'private, no-store',
      },
    });
  });
}
