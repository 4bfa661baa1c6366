/**
 * One account mail through the tenant's email channel: the password-reset link, the staff invitation, the sender
 * verification link — plain text with its one link also as an HTML button (domain/alerts/messages.ts `alertEmailHtml`),
 * marked as the tenant's account mail (`X-Punctual-Category: account`: the development mailbox lists it only to its
 * recipient) and as automatic (`Auto-Submitted: auto-generated`, RFC 3834, so vacation responders stay quiet), with a
 * Message-ID and provider idempotency key made from `messageKey` (a retry of the job is the same message).
 *
 * The caller decides the From (server/organisations/sender-identity.ts `senderFor`, or the deployment's default sender for the
 * mail that proves an address) and maps the outcome to its own result: accepted = sent; rejected = not sent, for
 * good; anything else = try again (the job's backoff).
 */
import type { EmailChannel, Outcome } from '@/channels/types';
import type { Tenant } from '@/db/schema';
import { alertEmailHtml } from '@/domain/alerts/messages';
import { messageIdFor } from '@/domain/keys';

interface AccountMail {
  tenant: Pick<Tenant, 'id'>;
  from: { name: string; address: string };
  /** Reply-To, when the From is not the organisation's own (null or absent: none). */
  replyTo?: string | null;
  to: { name: string; address: string };
  subject: string;
  text: string;
  /** The link the text carries, made clickable in the HTML part (a text without it simply links nothing). */
  link: string;
  /** Stable per message (a retry is the same message): the Message-ID and the provider's idempotency key. */
  messageKey: string;
  /** The `X-Punctual-Message` header: which account mail this is (`password-reset`, `staff-invitation`, …). */
  kind: string;
}

/**
 * Sends `m` through `channel` (20 s limit). Never throws for a provider failure: an adapter that throws broke its
 * contract, and since nothing can say whether the message went out, that is an `ambiguous` outcome.
 */
export async function sendAccountMail(channel: EmailChannel, m: AccountMail): Promise<Outcome> {
  try {
    return await channel.send(
      {
        tenantId: m.tenant.id,
        accountMail: true,
        from: m.from,
        ...(m.replyTo ? { replyTo: m.replyTo } : {}),
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: alertEmailHtml(m.text, m.link),
        messageId: messageIdFor(m.messageKey),
        headers: { 'X-Punctual-Message': m.kind, 'Auto-Submitted': 'auto-generated' },
      },
      { idempotencyKey: m.messageKey, signal: AbortSignal.timeout(20_000) },
    );
  } catch (e) {
    return { class: 'ambiguous', code: 'ADAPTER_ERROR', message: e instanceof Error ? e.message : String(e) };
  }
}
