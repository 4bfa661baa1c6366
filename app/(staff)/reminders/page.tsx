import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { dashboardCounts } from '@/db/queries/dashboards/dashboard';
import { listReminders, type ReminderListRow } from '@/db/queries/scheduling/reminders-list';
import { ChannelBadge } from '@/components/ui/ChannelBadge';
import { ChannelFilter } from '@/components/ui/ChannelFilter';
import { EmptyState } from '@/components/ui/EmptyState';
import { Pager } from '@/components/ui/Pager';
import { StatusBadge } from '@/components/ui/StatusBadge';
import { TimesInText } from '@/components/ui/TimesInText';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { sameDayInZone } from '@/components/ui/format';
import { dashboardWindows, isLatePlanned } from '@/domain/dashboards/dashboard';
import { messageTitle } from '@/domain/sending/message-labels';
import {
  describeReminderList,
  reminderListQuery,
  reminderViewLabels,
  reminderViews,
  reminderWindowLabels,
  reminderWindows,
} from '@/domain/scheduling/reminder-list';
import { channels } from '@/domain/vocabulary';
import { appClock } from '@/server/platform/clock';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/reminders.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Reminders' };

const PAGE_SIZE = 50;
const filterSchema = z.object({
  page: z.coerce.number().int().min(1).catch(1),
  status: z.enum(reminderViews).catch('upcoming'),
  window: z.enum(reminderWindows).catch('24h'),
  channel: z.enum(channels).optional().catch(undefined),
});

const roleWords = { attendee: 'attendee', external: 'external guest', host: 'host' } as const;

/**
 * Planned messages (issue #12): upcoming, due and expired reminders — rule reminders, manual reminders and
 * notifications on every channel — and the other ends a planned message can reach, filtered by status, time window
 * and channel. The dashboard's "Due in the next hour", "Due in the next 24 hours" and "Expired" tiles open it (the
 * same counts: domain/scheduling/reminder-list.ts). Each due instant shows in the event's zone with the viewer's own on
 * hover; one tenant's rows only; every staff role, viewers included, may read it. On phones each row is a card.
 */
export default async function RemindersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const f = filterSchema.parse(Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])));
  const { tenant } = await requireStaff();
  const db = getDb();
  // Due-ness by the clock that decides it: the database's (invariant 10).
  const clock = appClock();
  await clock.ready;
  const now = clock.now();
  const q = reminderListQuery(f.status, f.window, now);
  const [{ items, total }, counts] = await Promise.all([
    listReminders(db, tenant.id, q, { channel: f.channel, limit: PAGE_SIZE, offset: (f.page - 1) * PAGE_SIZE }),
    // The deliveries half of the "Expired" tile, to point at it from the expired view.
    f.status === 'expired' ? dashboardCounts(db, tenant.id, dashboardWindows(now, tenant.timeZone)) : Promise.resolve(null),
  ]);
  const params: Record<string, string> = { status: f.status, window: f.window };
  if (f.channel) params.channel = f.channel;
  return (
    <>
      <div className="page-head">
        <h1>Reminders</h1>
        <p className="muted" data-testid="reminders-what">
          {describeReminderList(f.status, f.window)} · every channel, reminders, manual reminders and notifications · times in each event&apos;s
          zone (yours on hover)
        </p>
      </div>
      <form className="filters reminders-filters" method="get" action="/reminders">
        <label>
          Status
          <select name="status" defaultValue={f.status}>
            {reminderViews.map((v) => (
              <option key={v} value={v}>
                {reminderViewLabels[v]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Within
          <select name="window" defaultValue={f.window}>
            {reminderWindows.map((w) => (
              <option key={w} value={w}>
                {reminderWindowLabels[w]}
              </option>
            ))}
          </select>
        </label>
        <ChannelFilter value={f.channel} />
        <button type="submit">Filter</button>
      </form>
      {counts && counts.expiredDeliveries24h > 0 ? (
        <p className="notice reminders-expired-deliveries">
          Also expired in the last 24 hours: {counts.expiredDeliveries24h} {counts.expiredDeliveries24h === 1 ? 'delivery' : 'deliveries'} whose retries
          ran out of time before the expiry instant. <Link href="/deliveries?status=expired">Open them in the deliveries log →</Link>
        </p>
      ) : null}
      {items.length === 0 ? (
        <EmptyState title="No reminders match">
          {f.status === 'expired' ? 'Nothing expired in this window: every message went out in time or is still waiting.' : 'Try a wider time window or another status.'}
        </EmptyState>
      ) : (
        <>
          {/* Named by aria-label, not a <caption>: a caption becomes a narrow column when the table reflows into cards. */}
          <table className="data-table reflow-table reminders-table" aria-label={describeReminderList(f.status, f.window)}>
            <thead>
              <tr>
                <th scope="col">Due</th>
                <th scope="col">Event</th>
                <th scope="col">Participant</th>
                <th scope="col">Message</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <ReminderRow key={r.id} r={r} />
              ))}
            </tbody>
          </table>
          <Pager basePath="/reminders" page={f.page} pageSize={PAGE_SIZE} total={total} params={params} />
        </>
      )}
    </>
  );
}

function ReminderRow({ r }: { r: ReminderListRow }) {
  const zone = r.eventZone;
  const late = isLatePlanned(r);
  return (
    <tr data-reminder-id={r.id} data-status={r.status} data-channel={r.channel}>
      <td data-label="Due" className="reminders-due">
        <div>
          <ZonedTime instant={r.dueAt.toISOString()} zone={zone} />
          <div className="muted small">
            useful until <ZonedTime instant={r.expiresAt.toISOString()} zone={zone} variant={sameDayInZone(r.dueAt, r.expiresAt, zone) ? 'time' : 'full'} />
          </div>
          {late ? (
            <div className="muted small" data-late-planned="true">
              planned late: <ZonedTime instant={r.createdAt.toISOString()} zone={zone} variant="time" />
            </div>
          ) : null}
        </div>
      </td>
      <td data-label="Event" className="wrap-anywhere">
        <Link href={`/events/${r.eventId}`}>{r.eventTitle}</Link>
      </td>
      <td data-label="Participant" className="wrap-anywhere">
        <div>
          <div>{r.contactName || r.contactEmail}</div>
          <div className="muted small">
            {r.channel === 'sms' && r.contactPhone ? r.contactPhone : r.contactEmail} · {roleWords[r.role]}
          </div>
        </div>
      </td>
      <td data-label="Message">
        <div>
          <ChannelBadge channel={r.channel} /> <span className="reminders-title">{messageTitle(r)}</span>
        </div>
      </td>
      <td data-label="Status">
        <div>
          <StatusBadge status={r.status} kind="reminder" reason={r.statusReason} zone={zone} />
          {r.statusReason ? (
            <div className="status-reason small">
              <TimesInText text={r.statusReason} zone={zone} />
            </div>
          ) : null}
        </div>
      </td>
    </tr>
  );
}
