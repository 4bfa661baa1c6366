import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '../../../../db/client';
import { getCaughtMessage } from '../../../../db/queries/mailbox';
import { MessageView } from '../../../../components/MessageView';
import { requireStaff } from '../../../../server/session';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

const loadMessage = cache(async (id: string) => getCaughtMessage(getDb(), id, { from: (await requireStaff()).tenant.senderEmail }));

/** The browser title is the message subject. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const message = await loadMessage((await params).id);
  return { title: message?.subject || 'Message' };
}

/** One caught message: headers, rendered HTML part (sandboxed) and text part. */
export default async function MailboxMessagePage({ params }: Props) {
  const { id } = await params;
  const message = await loadMessage(id);
  if (!message) notFound();
  const zone = (await requireStaff()).tenant.timeZone;
  return (
    <>
      <p className="breadcrumb">
        <Link href="/mailbox">← Mailbox</Link>
      </p>
      <MessageView message={message} zone={zone} />
    </>
  );
}
