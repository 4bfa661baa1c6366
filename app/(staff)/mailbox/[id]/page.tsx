import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '../../../../db/client';
import { getCaughtMessage, mailboxScope } from '../../../../db/queries/mailbox';
import { MessageView } from '../../../../components/MessageView';
import { requireStaff } from '../../../../server/session';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

const loadMessage = cache(async (id: string) => {
  const db = getDb();
  const scope = await mailboxScope(db, (await requireStaff()).tenant.id, process.env.SMS_FROM);
  return scope ? getCaughtMessage(db, id, scope) : null;
});

/** The browser title: the email's subject, the webhook's type, or "SMS to …". */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const message = await loadMessage((await params).id);
  if (message?.channel === 'sms') return { title: `SMS to ${message.envelopeTo.join(', ')}` };
  return { title: message?.subject || 'Message' };
}

/** One caught message: an email (headers, sandboxed HTML part, text part), an SMS or a webhook delivery. */
export default async function MailboxMessagePage({ params }: Props) {
  const { id } = await params;
  const message = await loadMessage(id);
  if (!message) notFound();
  const zone = (await requireStaff()).tenant.timeZone;
  const back = message.channel === 'email' ? '/mailbox' : `/mailbox?channel=${message.channel}`;
  return (
    <>
      <p className="breadcrumb">
        <Link href={back}>← Mailbox</Link>
      </p>
      <MessageView message={message} zone={zone} />
    </>
  );
}
