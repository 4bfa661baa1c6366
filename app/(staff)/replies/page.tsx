import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { EmptyState } from '@/components/ui/EmptyState';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { replyOutcomeLabels, replyOutcomeTones } from '@/components/calendar/reply-labels';
import { getDb } from '@/db/client';
import { listReplies } from '@/db/queries/calendar/replies';
import { isUuid } from '@/domain/ids';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/calendar.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Calendar replies' };

const LIMIT = 200;
const filterSchema = z.object({
  event: z.string().refine(isUuid).optional().catch(undefined),
  contact: z.string().refine(isUuid).optional().catch(undefined),
});

/**
 * Calendar replies: the answers participants gave in their own calendar app (Accept / Decline / Tentative), newest
 * first, the 200 latest — each with the event and person it names, the answer, and what Punctual did with it:
 * applied (a decline cancelled the booking), noted, or not counted (another address, an older invitation …) with
 * the reason. `?event=<id>` or `?contact=<id>` narrows the list. On phones each row is a labelled card.
 */
export default async function RepliesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const f = filterSchema.parse(Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])));
  const { tenant } = await requireStaff();
  const rows = await listReplies(getDb(), tenant.id, { eventId: f.event, contactId: f.contact, limit: LIMIT });
  return (
    <>
      <div className="page-head">
        <h1>Calendar replies</h1>
        <p className="muted">
          Answers people gave in their calendar app · only a reply from the booked address to the latest invitation changes anything · times in {tenant.timeZone}
        </p>
        {f.event || f.contact ? (
          <p>
            <Link href="/replies">Show all replies</Link>
          </p>
        ) : null}
      </div>
      {rows.length === 0 ? (
        <EmptyState title="No calendar replies yet">
          When someone accepts or declines an invitation in their calendar, their reply arrives here — through the inbound mail route or <code>npm run replies:ingest</code>.
        </EmptyState>
      ) : (
        <table className="data-table reflow-table replies-table">
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Event</th>
              <th scope="col">From</th>
              <th scope="col">Answer</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-reply-id={r.id} data-outcome={r.outcome}>
                <td data-label="Received">
                  <ZonedTime instant={r.receivedAt.toISOString()} zone={tenant.timeZone} />
                </td>
                <td className="row-title" data-label="Event">
                  {r.eventId && r.eventTitle ? <Link href={`/events/${r.eventId}`}>{r.eventTitle}</Link> : <span className="muted">—</span>}
                  {r.contactName ? <div className="muted small">booking of {r.contactName}</div> : null}
                </td>
                <td data-label="From" className="reply-from">
                  {r.attendee ?? r.fromAddress ?? '—'}
                </td>
                <td data-label="Answer">
                  <span className="tag">{r.partstat ?? '—'}</span>
                  {r.sequence !== null ? <div className="muted small">SEQUENCE {r.sequence}</div> : null}
                </td>
                <td data-label="Outcome">
                  <span className={`badge badge-${replyOutcomeTones[r.outcome] ?? 'muted'}`}>{replyOutcomeLabels[r.outcome] ?? r.outcome}</span>
                  <div className="small reply-reason">{r.reason}</div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
