import type { Metadata } from 'next';
import { z } from 'zod';
import { getDb } from '../../../db/client';
import { listCaughtMessages } from '../../../db/queries/mailbox';
import { EmptyState } from '../../../components/EmptyState';
import { MailboxTable } from '../../../components/MailboxTable';
import { Pager } from '../../../components/Pager';
import { requireStaff } from '../../../server/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Mailbox' };

const PAGE_SIZE = 50;
const pageParamSchema = z.coerce.number().int().min(1).catch(1);

/** Mail caught by the built-in SMTP catcher (development and demo), newest first. */
export default async function MailboxPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const page = pageParamSchema.parse((await searchParams).page);
  const db = getDb();
  // The catcher holds every tenant's mail: show only what this tenant sent (its sender address).
  const { tenant } = await requireStaff();
  const zone = tenant.timeZone;
  const { items, total } = await listCaughtMessages(db, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }, { from: tenant.senderEmail });
  return (
    <>
      <div className="page-head">
        <h1>Mailbox</h1>
        <p className="muted">Messages from {tenant.senderEmail} caught by the built-in mail catcher · newest first · times in {zone}</p>
      </div>
      {items.length === 0 ? (
        <EmptyState title={total === 0 ? 'No mail caught yet' : 'No messages on this page'}>
          {total === 0 ? 'Reminders sent while the app runs with its built-in mail catcher show up here.' : null}
        </EmptyState>
      ) : (
        <>
          <MailboxTable messages={items} zone={zone} />
          <Pager basePath="/mailbox" page={page} pageSize={PAGE_SIZE} total={total} />
        </>
      )}
    </>
  );
}
