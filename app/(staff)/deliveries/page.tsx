import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/db/client';
import { searchDeliveries } from '@/db/queries/dashboards/deliveries-log';
import { EmptyState } from '@/components/ui/EmptyState';
import { Pager } from '@/components/ui/Pager';
import { StatusBadge } from '@/components/ui/StatusBadge';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { Address } from '@/components/ui/Address';
import { ChannelBadge } from '@/components/ui/ChannelBadge';
import { ChannelFilter } from '@/components/ui/ChannelFilter';
import { deliveryStatuses } from '@/domain/vocabulary';
import { messageTextShort } from '@/domain/messages/message-text-label';
import { deliveriesParams, deliveryFilterOf, parseDeliveriesQuery, withQuery } from '@/domain/dashboards/log-filters';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/exports-bulk.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Deliveries' };

const PAGE_SIZE = 50;

/** Longest SMS text or subject shown in a list cell (the delivery's page shows it whole), in characters. */
const CELL_TEXT_MAX = 90;
const cellText = (t: string) => ([...t].length > CELL_TEXT_MAX ? `${[...t].slice(0, CELL_TEXT_MAX - 1).join('')}…` : t);
/** An E.164 phone number (ITU-T E.164: "+", then at most 15 digits, the first not 0), as SMS addresses are stored. */
const isE164 = (address: string) => /^\+[1-9]\d{1,14}$/.test(address);

/**
 * Every delivery of the tenant on every channel (email, SMS, webhook), searchable by address or subject (the
 * SMS text, the webhook target), filterable by channel, status and date (tenant zone). On phones the table
 * reflows into one labelled card per delivery. Messages a partner (a host that booked one of this tenant's people
 * as its guest) sent in this tenant's name are listed too, saying who sent them (issue #12); their story is the
 * host's, so they link nowhere.
 */
export default async function DeliveriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // The same parsing as the CSV export (domain/dashboards/log-filters.ts): the export link carries exactly these filters.
  const f = parseDeliveriesQuery(await searchParams);
  const db = getDb();
  const tenant = (await requireStaff()).tenant;
  const { items, total } = await searchDeliveries(db, tenant.id, deliveryFilterOf(f, tenant.timeZone), { limit: PAGE_SIZE, offset: (f.page - 1) * PAGE_SIZE });
  const params = deliveriesParams(f);
  return (
    <>
      <div className="page-head">
        <h1>Deliveries</h1>
        <p className="muted">
          Every message {tenant.name} sent or tried to send, and every message a partner sent in its name · newest first · times in {tenant.timeZone}
        </p>
        {total > 0 ? (
          <p className="export-line">
            {/* A plain link: the browser downloads the file (Content-Disposition: attachment). */}
            <a className="btn btn-small" href={withQuery('/api/exports/deliveries', params)} download data-testid="export-deliveries">
              Export CSV
            </a>{' '}
            <span className="muted small">
              {Object.keys(params).length ? `the ${total} deliveries matching these filters` : `all ${total} deliveries`} (UTF-8, up to 100,000 rows)
            </span>
          </p>
        ) : null}
      </div>
      <form className="filters" method="get" action="/deliveries">
        <label>
          Address or subject
          <input name="q" type="search" className="deliveries-search" defaultValue={f.q} placeholder="ada@…, +316… or Yoga" />
        </label>
        <ChannelFilter value={f.channel} />
        <label>
          Status
          <select name="status" defaultValue={f.status ?? ''}>
            <option value="">any</option>
            {deliveryStatuses.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input name="from" type="date" defaultValue={f.from} />
        </label>
        <label>
          To
          <input name="to" type="date" defaultValue={f.to} />
        </label>
        <button type="submit">Filter</button>
      </form>
      {items.length === 0 ? (
        <EmptyState title={total === 0 && Object.keys(params).length === 0 ? 'No deliveries yet' : 'No deliveries match'}>
          {total === 0 && Object.keys(params).length === 0 ? 'Deliveries appear when reminders go out.' : 'Try a wider filter.'}
        </EmptyState>
      ) : (
        <>
          <table className="data-table reflow-table deliveries-table">
            <thead>
              <tr>
                <th>Created</th>
                <th>Channel</th>
                <th>To</th>
                <th>Subject or text</th>
                <th>Event</th>
                <th>Status</th>
                <th className="num">Attempts</th>
              </tr>
            </thead>
            <tbody>
              {items.map(({ delivery: d, eventId, eventTitle, eventZone, title, sentBy, sentAs, participant }) => (
                <tr key={d.id} data-channel={d.channel} data-sent-by={sentBy ? sentBy.tenantName : undefined}>
                  <td className="nowrap" data-label="Created">
                    <ZonedTime instant={d.createdAt.toISOString()} zone={tenant.timeZone} />
                  </td>
                  <td data-label="Channel">
                    <ChannelBadge channel={d.channel} />
                  </td>
                  {/* An address wraps only after its "@" (a URL after "/" "?" "&"), never mid-word; a phone number
                      (E.164) never breaks: "+12125550 / 123" reads as two numbers. A webhook row names the person. */}
                  <td data-label="To" className="address-cell">
                    {sentBy ? (
                      <span className={`row-title${isE164(d.address) ? ' nowrap' : ''}`}>
                        <Address value={d.address} />
                      </span>
                    ) : (
                      <Link className={`row-title${isE164(d.address) ? ' nowrap' : ''}`} href={`/deliveries/${d.id}`}>
                        <Address value={d.address} />
                      </Link>
                    )}
                    {d.channel === 'webhook' && participant ? (
                      <div className="muted small" data-testid="webhook-participant">
                        about {participant}
                      </div>
                    ) : null}
                  </td>
                  <td data-label={d.channel === 'sms' ? 'Text' : d.channel === 'webhook' ? 'Target' : 'Subject'} className="wrap-anywhere">
                    <span title={d.subject ?? undefined}>{d.subject ? cellText(d.subject) : <span className="muted">{d.template}</span>}</span>
                    {title ? <div className="muted small">{title}</div> : null}
                    {messageTextShort(d) ? (
                      <div className="muted small" data-testid="message-text" data-text-version={d.messageTextVersion ?? 'built-in'}>
                        {messageTextShort(d)}
                      </div>
                    ) : null}
                    {sentBy ? (
                      <div className="small sent-by" data-testid="sent-by">
                        Sent in your name by <strong>{sentBy.tenantName}</strong> ({sentBy.actor})
                      </div>
                    ) : sentAs ? (
                      <div className="muted small">In {sentAs}’s name (their guest)</div>
                    ) : null}
                  </td>
                  <td data-label="Event">{eventId && !sentBy ? <Link href={`/events/${eventId}`}>{eventTitle}</Link> : eventTitle}</td>
                  <td data-label="Status">
                    <span>
                      <StatusBadge status={d.status} kind="delivery" reason={d.statusReason} zone={eventZone ?? tenant.timeZone} />
                    </span>
                  </td>
                  <td className="num" data-label="Attempts">
                    {d.attemptCount}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager basePath="/deliveries" page={f.page} pageSize={PAGE_SIZE} total={total} params={params} />
        </>
      )}
    </>
  );
}
