import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '@/db/client';
import { MessageView } from '@/components/mailbox/MessageView';
import { caughtMessageFor, caughtMessageRawFor, readCaughtMailParts, type CaughtMailParts } from '@/dev/caught-mail';
import { mailboxEnabled } from '@/server/platform/mailbox-switch';
import { requireStaff } from '@/app/_http/session';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

/** Who is looking (their tenant and sign-in address: dev/caught-mail.ts masks credentials not theirs). */
const viewer = cache(async () => {
  const { tenant, user } = await requireStaff();
  return { tenantId: tenant.id, viewerEmail: user.email };
});

const loadMessage = cache(async (id: string) => (mailboxEnabled() ? caughtMessageFor(getDb(), await viewer(), id) : null));

/** The browser title: the email's subject, the webhook's type, or "SMS to …". */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const message = await loadMessage((await params).id);
  if (message?.channel === 'sms') return { title: `SMS to ${message.envelopeTo.join(', ')}` };
  return { title: message?.subject || 'Message' };
}

/**
 * One caught message: an email (headers, attachments and calendar invitation read from its raw source,
 * sandboxed HTML part, text part, a link to the raw source), an SMS or a webhook delivery.
 */
export default async function MailboxMessagePage({ params }: Props) {
  const { id } = await params;
  const message = await loadMessage(id);
  if (!message) notFound();
  const { tenant } = await requireStaff();
  const zone = tenant.timeZone;
  let parts: CaughtMailParts | 'unreadable' | null = null;
  if (message.channel === 'email') {
    const raw = await caughtMessageRawFor(getDb(), await viewer(), id);
    // A source mailparser cannot read still shows the stored parts; the attachments box says why it is empty.
    parts = raw ? await readCaughtMailParts(raw.raw).catch(() => 'unreadable' as const) : null;
  }
  const back = message.channel === 'email' ? '/mailbox' : `/mailbox?channel=${message.channel}`;
  return (
    <>
      <p className="breadcrumb">
        <Link href={back}>← Mailbox</Link>
      </p>
      <MessageView message={message} zone={zone} parts={parts} />
    </>
  );
}
