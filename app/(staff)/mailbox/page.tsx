import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { caughtChannels, mailboxSenders, type CaughtChannel } from '@/dev/queries/mailbox';
import { guestMailCounts } from '@/db/queries/dashboards/dashboard';
import { EmptyState } from '@/components/ui/EmptyState';
import { MailboxTable, MailboxTabs, SmsTable, WebhookTable } from '@/components/mailbox/MailboxTable';
import { Pager } from '@/components/ui/Pager';
import { mailboxPage } from '@/dev/caught-mail';
import { mailboxEnabled } from '@/server/platform/mailbox-switch';
import { requireStaff } from '@/app/_http/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Mailbox' };

const PAGE_SIZE = 50;
const pageParamSchema = z.coerce.number().int().min(1).catch(1);
const channelParamSchema = z.enum(caughtChannels).catch('email');
const queryParamSchema = z.string().trim().max(200).catch('');

const empty: Record<CaughtChannel, { title: string; hint: string }> = {
  email: { title: 'No mail caught yet', hint: 'Reminders sent while the app runs with its built-in mail catcher show up here.' },
  sms: { title: 'No SMS caught yet', hint: 'Text messages sent while the app runs with its built-in SMS API show up here.' },
  webhook: { title: 'No webhook deliveries caught yet', hint: 'Notifications posted to the built-in webhook receiver show up here.' },
};

/**
 * What the built-in catchers caught for this tenant (development and demo), newest first, in three tabs:
 * Email (SMTP catcher), SMS (SMS API) and Webhooks (webhook receiver), each with its count (`?channel=`). A notice
 * says that these are development catchers, so nobody takes the page for a record of real sends. Only what this
 * tenant sent, account mail only to its recipient, and credentials masked unless the viewer is the recipient
 * (dev/caught-mail.ts). `?q=` searches the tab by recipient address, subject or Message-ID (an unknown outcome's
 * Message-ID, copied from its delivery page, finds whether the catcher got it). 404 unless the mailbox is on
 * (`PUNCTUAL_MAILBOX`).
 */
export default async function MailboxPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  if (!mailboxEnabled()) notFound();
  const params = await searchParams;
  const page = pageParamSchema.parse(params.page);
  const channel = channelParamSchema.parse(params.channel);
  const q = queryParamSchema.parse(typeof params.q === 'string' ? params.q : '');
  const db = getDb();
  // The catchers hold every tenant's messages: show only what this tenant sent (dev/caught-mail.ts).
  const { tenant, user } = await requireStaff();
  const senders = await mailboxSenders(db, tenant.id, process.env.SMS_FROM);
  if (!senders) notFound();
  const zone = tenant.timeZone;
  const [{ counts, items, total }, guests] = await Promise.all([
    mailboxPage(db, { tenantId: tenant.id, viewerEmail: user.email }, channel, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }, q),
    channel === 'email' ? guestMailCounts(db, tenant.id) : Promise.resolve(null),
  ]);
  const what =
    channel === 'email'
      ? `Email ${tenant.name} sent, caught by the built-in mail catcher`
      : channel === 'sms'
        ? `Text messages ${tenant.name} sent${senders.smsSender ? ` (from ${senders.smsSender})` : ''}, caught by the built-in SMS API`
        : `Webhook deliveries ${tenant.name} sent, caught by the built-in receiver`;
  return (
    <>
      <div className="page-head">
        <h1>Mailbox</h1>
        <p className="muted">
          {what} · newest first · times in {zone}
        </p>
      </div>
      <p className="notice dev-catcher-notice" data-testid="dev-catcher-notice">
        <strong>Development catcher.</strong> Nothing here has left this computer: the built-in catchers keep what the app
        sends so you can read it, and take messages only from this app. A deployment sends through real providers
        (<code>SMTP_URL</code>, <code>SMS_API_URL</code>) instead. Links that act for a person (password, sign-in,
        preferences, unsubscribe) show as <span aria-hidden="true">•••</span> dots except to that person, signed in.
      </p>
      {guests && (guests.sentToGuests > 0 || guests.sentInOurName > 0) ? (
        // Issue #12: why these numbers and the dashboard's "sent" differ.
        <p className="muted small mailbox-guest-note" data-testid="mailbox-guest-note">
          {guests.sentToGuests > 0
            ? `Not listed here: ${guests.sentToGuests} ${guests.sentToGuests === 1 ? 'email' : 'emails'} ${tenant.name} sent to external guests — they go out in the guest's own organisation's name, so that organisation's mailbox lists them, while your dashboard counts them as sent. `
            : ''}
          {guests.sentInOurName > 0
            ? `Listed here but not on your dashboard: ${guests.sentInOurName} ${guests.sentInOurName === 1 ? 'email' : 'emails'} other organisations sent in your name to your people booked as their guests.`
            : ''}
        </p>
      ) : null}
      <MailboxTabs active={channel} counts={counts} />
      <form className="filters mailbox-search" method="get" action="/mailbox" role="search" aria-label="Search the mailbox">
        {channel === 'email' ? null : <input type="hidden" name="channel" value={channel} />}
        <label className="field">
          <span>Recipient, subject or Message-ID</span>
          <input type="search" name="q" defaultValue={q} maxLength={200} placeholder="ana@example.com or <…@punctual>" />
        </label>
        <button type="submit">Search</button>
      </form>
      {q ? (
        <p className="muted small" role="status" data-testid="mailbox-search-result">
          {total === 1 ? '1 message matches' : `${total} messages match`} “{q}”.
        </p>
      ) : null}
      {items.length === 0 ? (
        q ? (
          <EmptyState title="Nothing matches">No caught message in this tab has that recipient, subject or Message-ID.</EmptyState>
        ) : (
          <EmptyState title={total === 0 ? empty[channel].title : 'No messages on this page'}>{total === 0 ? empty[channel].hint : null}</EmptyState>
        )
      ) : (
        <>
          {channel === 'email' ? <MailboxTable messages={items} zone={zone} /> : channel === 'sms' ? <SmsTable messages={items} zone={zone} /> : <WebhookTable messages={items} zone={zone} />}
          <Pager basePath="/mailbox" page={page} pageSize={PAGE_SIZE} total={total} params={{ ...(channel === 'email' ? {} : { channel }), ...(q ? { q } : {}) }} />
        </>
      )}
    </>
  );
}
