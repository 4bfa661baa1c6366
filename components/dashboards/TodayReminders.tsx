'use client';

import Link from 'next/link';
import { remindersDueText, reminderWindowHours, type DeskStatus, type ReminderWindowHours } from '@/domain/dashboards/today';
import type { TodayData, TodayReminderJson } from '@/server/dashboards/today';
import { ChannelBadge } from '@/components/ui/ChannelBadge';
import { EmptyState } from '@/components/ui/EmptyState';
import { ZonedTime } from '@/components/ui/ZonedTime';

const deskTone: Record<DeskStatus, string> = { waiting: 'waiting', claimed: 'progress', sent: 'ok', 'not sent': 'muted', unknown: 'unknown' };

/** The today view's "Reminders due soon" card: the window buttons (`onHours`), the count and the messages due in it. */
export function RemindersSection({ data, hours, onHours, loading }: { data: TodayData; hours: ReminderWindowHours; onHours: (h: ReminderWindowHours) => void; loading: boolean }) {
  const r = data.reminders;
  return (
    <section className="card today-card today-reminders" aria-labelledby="today-reminders-title" data-testid="today-reminders" aria-busy={loading}>
      <h2 id="today-reminders-title">Reminders due soon</h2>
      <div className="today-hours" role="group" aria-label="Due within">
        {reminderWindowHours.map((h) => (
          <button key={h} type="button" className={`btn today-tap${h === hours ? ' btn-primary' : ''}`} aria-pressed={h === hours} onClick={() => onHours(h)}>
            {h} h
          </button>
        ))}
      </div>
      <p className="small muted" data-testid="today-reminders-count" data-count={r.total}>
        {remindersDueText(r.total, r.hours)} (<ZonedTime instant={r.from} zone={data.zone} variant="time" /> –{' '}
        <ZonedTime instant={r.to} zone={data.zone} variant="time" />)
      </p>
      {r.items.length === 0 ? (
        <EmptyState title={`Nothing due in the next ${r.hours === 1 ? 'hour' : `${r.hours} hours`}`}>
          Reminders and notifications for today&apos;s and later events show up here as they come due.
        </EmptyState>
      ) : (
        <ul className="today-list">
          {r.items.map((m) => (
            <ReminderItem key={m.id} m={m} zone={data.zone} />
          ))}
        </ul>
      )}
      <p className="small today-more">
        {r.total > r.items.length ? `Showing the first ${r.items.length} of ${r.total}. ` : null}
        <Link href="/reminders?status=upcoming&window=24h">All planned messages →</Link>
      </p>
    </section>
  );
}

function ReminderItem({ m, zone }: { m: TodayReminderJson; zone: string }) {
  return (
    <li className="today-row" data-reminder-id={m.id} data-desk-status={m.deskStatus}>
      <div className="today-row-head">
        <strong>
          <ZonedTime instant={m.dueAt} zone={zone} variant="time" />
        </strong>
        <span className={`badge badge-${deskTone[m.deskStatus]}`} data-kind="desk" data-status={m.deskStatus}>
          {m.deskStatus}
        </span>
        <ChannelBadge channel={m.channel} />
      </div>
      <div className="today-row-body">
        {m.title} to <strong>{m.contactName || m.recipient}</strong> <span className="muted today-address">{m.contactName ? m.recipient : ''}</span>
      </div>
      <div className="small">
        <Link href={`/events/${m.eventId}`}>{m.eventTitle}</Link>
        {m.deliveryId ? (
          <>
            {' · '}
            <Link href={`/deliveries/${m.deliveryId}`}>delivery</Link>
          </>
        ) : null}
      </div>
    </li>
  );
}
