'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useId, useState } from 'react';
import { participantZone } from '@/domain/scheduling/participant-zone';
import { deskRoleLabels, moreParticipants, noEventsTitle, remindersDueText, reminderWindowHours, startsIn, type DeskStatus, type ReminderWindowHours } from '@/domain/dashboards/today';
import type { TodayAttentionJson, TodayData, TodayEventJson, TodayParticipantsData, TodayReminderJson } from '@/server/dashboards/today';
import type { TodayParticipant } from '@/db/queries/dashboards/today';
import { ChannelBadge } from '@/components/ui/ChannelBadge';
import { EmptyState } from '@/components/ui/EmptyState';
import { ParticipantZoneLine } from '@/components/events/ParticipantGroups';
import { StatusBadge } from '@/components/ui/StatusBadge';
import { TimesInText } from '@/components/ui/TimesInText';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { formatClockInZone, formatInZone } from '@/components/ui/format';
import { NudgeDialog } from '@/components/events/NudgeDialog';
import { useNudgeNotice } from '@/components/events/useNudgeNotice';

/** How often the view reads itself again (issue #13: "refreshes itself every 30 s"). */
const TODAY_REFRESH_MS = 30_000;

async function getJson<T>(url: string, signal: AbortSignal): Promise<T> {
  const res = await fetch(url, { cache: 'no-store', signal });
  if (!res.ok) throw new Error(`${url}: the server answered ${res.status}`);
  return (await res.json()) as T;
}

/**
 * The front desk's today view (issue #13): heading with the tenant's day and zone, then — two columns on a
 * desktop, one on a phone — what is happening now and next, today's events (each expandable to its
 * participants), messages due in the next hours and problems with today's messages. Starts from the
 * server-rendered `initialData` and reads /api/today again every 30 s; says when it last did.
 */
export function TodayView({ initialData, canOperate }: { initialData: TodayData; canOperate: boolean }) {
  const [hours, setHours] = useState<ReminderWindowHours>(initialData.reminders.hours);
  const query = useQuery({
    queryKey: ['today', hours],
    queryFn: ({ signal }) => getJson<TodayData>(`/api/today?hours=${hours}`, signal),
    initialData: hours === initialData.reminders.hours ? initialData : undefined,
    initialDataUpdatedAt: Date.now(),
    placeholderData: keepPreviousData,
    refetchInterval: TODAY_REFRESH_MS,
  });
  const data = query.data ?? initialData;
  const zone = data.zone;
  const viewerZone = useViewerZone();
  const chooseHours = (h: ReminderWindowHours) => {
    setHours(h);
    const url = new URL(window.location.href);
    url.searchParams.set('hours', String(h));
    window.history.replaceState(null, '', url);
  };
  return (
    <>
      <div className="page-head today-head">
        <h1
          data-testid="today-heading"
          title={viewerZone && viewerZone !== zone ? `Your time (${viewerZone}): ${formatInZone(data.now, viewerZone)}` : undefined}
        >
          {data.day.heading}
        </h1>
        <p className={`live-status today-live${query.isError ? ' is-error' : ''}`} role="status" aria-live="polite" data-testid="today-refreshed">
          <span className={`live-dot${query.isError ? '' : ' is-live'}`} aria-hidden="true" />
          {query.isError ? 'Could not refresh: the server did not answer. Retrying… ' : 'Refreshes every 30 s · '}
          last refreshed {formatClockInZone(data.now, zone)}
          {data.day.hours !== 24 ? <span className="muted"> · today has {data.day.hours} hours (clock change)</span> : null}
        </p>
      </div>
      <div className="today-grid">
        <div className="today-col">
          <NowNext data={data} />
          <EventsSection data={data} canOperate={canOperate} />
        </div>
        <div className="today-col">
          <RemindersSection data={data} hours={hours} onHours={chooseHours} loading={query.isPlaceholderData} />
          <AttentionSection data={data} />
        </div>
      </div>
    </>
  );
}

/** The browser's own zone (after hydration; null before). */
function useViewerZone(): string | null {
  const [z, setZ] = useState<string | null>(null);
  useEffect(() => setZ(Intl.DateTimeFormat().resolvedOptions().timeZone ?? null), []);
  return z;
}

/** "09:00–10:30 CET" in the tenant zone; "All day" for an all-day event. */
function TimeRange({ e, zone }: { e: TodayEventJson; zone: string }) {
  if (e.allDay) return <span className="today-time">All day</span>;
  return (
    <span className="today-time">
      <ZonedTime instant={e.startsAt} zone={zone} variant="time" />–<ZonedTime instant={e.endsAt} zone={zone} variant="time" />
    </span>
  );
}

function NowNext({ data }: { data: TodayData }) {
  const byId = new Map(data.events.items.map((e) => [e.id, e]));
  const running = data.happening.now.map((id) => byId.get(id)).filter((e): e is TodayEventJson => !!e);
  const next = data.happening.next ? byId.get(data.happening.next) : undefined;
  return (
    <section className="card today-card today-now" aria-labelledby="today-now-title" data-testid="today-now">
      <h2 id="today-now-title">Happening now</h2>
      {running.length === 0 ? (
        <p className="muted">Nothing is running right now.</p>
      ) : (
        <ul className="today-list">
          {running.map((e) => (
            <li key={e.id} className="today-now-item" data-event-id={e.id}>
              <Link href={`/events/${e.id}`} className="today-tap today-title">
                {e.title}
              </Link>
              <span className="muted small">
                until <ZonedTime instant={e.endsAt} zone={data.zone} variant="time" />
                {e.location ? ` · ${e.location}` : ''} · {e.participants} booked
              </span>
            </li>
          ))}
        </ul>
      )}
      <h3 className="today-subtitle">Next up</h3>
      {next ? (
        <div className="today-now-item today-next" data-event-id={next.id}>
          <span>
            <strong>
              <ZonedTime instant={next.startsAt} zone={data.zone} variant="time" />
            </strong>{' '}
            <span className="muted">({startsIn(new Date(data.now), new Date(next.startsAt))})</span>
          </span>
          <Link href={`/events/${next.id}`} className="today-tap today-title">
            {next.title}
          </Link>
          <span className="muted small">
            {next.location ? `${next.location} · ` : ''}
            {next.participants} booked
          </span>
        </div>
      ) : (
        <p className="muted" data-testid="today-nothing-next">
          Nothing more starts today.{' '}
          {data.nextAfterToday ? (
            <>
              Next: <ZonedTime instant={data.nextAfterToday.startsAt} zone={data.zone} /> —{' '}
              <Link href={`/events/${data.nextAfterToday.id}`}>{data.nextAfterToday.title}</Link>
            </>
          ) : (
            'No later event is planned.'
          )}
        </p>
      )}
    </section>
  );
}

function EventsSection({ data, canOperate }: { data: TodayData; canOperate: boolean }) {
  const { items, total } = data.events;
  return (
    <section className="card today-card today-events" aria-labelledby="today-events-title" data-testid="today-events">
      <h2 id="today-events-title">
        Today&apos;s events <span className="count">{total}</span>
      </h2>
      {items.length === 0 ? (
        <EmptyState title={noEventsTitle(data.zone)}>
          {data.nextAfterToday ? (
            <>
              Next: <ZonedTime instant={data.nextAfterToday.startsAt} zone={data.zone} /> —{' '}
              <Link href={`/events/${data.nextAfterToday.id}`}>{data.nextAfterToday.title}</Link>
            </>
          ) : (
            <>
              No later event is planned either. <Link href="/events/new">Create an event</Link> or import a calendar.
            </>
          )}
        </EmptyState>
      ) : (
        <>
          <ol className="today-list today-event-list">
            {items.map((e) => (
              <EventItem key={e.id} e={e} zone={data.zone} canOperate={canOperate} />
            ))}
          </ol>
          {total > items.length ? (
            <p className="small today-more">
              and {total - items.length} more today — <Link href="/events">open the events list</Link>
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

function EventItem({ e, zone, canOperate }: { e: TodayEventJson; zone: string; canOperate: boolean }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const cancelled = e.status === 'cancelled';
  return (
    <li className={`today-event${cancelled ? ' is-cancelled' : ''}`} data-event-id={e.id} data-status={e.status}>
      <div className="today-event-head">
        <TimeRange e={e} zone={zone} />
        {cancelled ? <StatusBadge status="cancelled" kind="event" reason={e.statusReason} zone={e.timeZone} /> : null}
      </div>
      <Link href={`/events/${e.id}`} className="today-tap today-title">
        {e.title}
      </Link>
      <div className="small today-event-where">
        {e.roomUrl ? (
          <a href={e.roomUrl} target="_blank" rel="noopener noreferrer" className="today-tap">
            Online room ↗
          </a>
        ) : null}
        {e.location ? <span>{e.location}</span> : null}
        {!e.roomUrl && !e.location ? <span className="muted">No location</span> : null}
        {e.timeZone !== zone && !e.allDay ? (
          <span className="muted">
            Planned in {e.timeZone}: <ZonedTime instant={e.startsAt} zone={e.timeZone} variant="time" />
          </span>
        ) : null}
      </div>
      <button
        type="button"
        className="btn today-tap today-expand"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
        data-testid="today-expand"
      >
        <span aria-hidden="true">{open ? '▾' : '▸'}</span> {e.participants} {e.participants === 1 ? 'participant' : 'participants'}
        {e.cancelledBookings > 0 ? <span className="muted"> · {e.cancelledBookings} cancelled</span> : null}
      </button>
      <div id={panelId} hidden={!open}>
        {open ? <ParticipantsPanel e={e} canOperate={canOperate && !cancelled} /> : null}
      </div>
    </li>
  );
}

function ParticipantsPanel({ e, canOperate }: { e: TodayEventJson; canOperate: boolean }) {
  // Under the event page's key: a nudge sent from here (NudgeDialog) refreshes this list at once.
  const query = useQuery({
    queryKey: ['event-timeline', e.id, 'today-participants'],
    queryFn: ({ signal }) => getJson<TodayParticipantsData>(`/api/today/events/${encodeURIComponent(e.id)}/participants`, signal),
    refetchInterval: TODAY_REFRESH_MS,
  });
  if (query.isPending) return <p className="muted small today-participants-status">Loading participants…</p>;
  if (query.isError && !query.data) return <p className="form-error small">Participants could not be loaded. Retrying…</p>;
  const d = query.data!;
  if (d.total === 0)
    return (
      <p className="muted small today-participants-status">
        Nobody is booked yet. <Link href={`/events/${e.id}`}>Open the event</Link> to add participants.
      </p>
    );
  const more = moreParticipants(d.items.length, d.total);
  return (
    <div className="today-participants" data-testid="today-participants">
      <ul className="today-list">
        {d.items.map((p) => (
          <ParticipantItem key={p.bookingId} p={p} e={e} canOperate={canOperate} />
        ))}
      </ul>
      {more ? (
        <p className="small today-more" data-testid="today-participants-more">
          <Link href={`/events/${e.id}`} className="today-tap">
            {more}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

function ParticipantItem({ p, e, canOperate }: { p: TodayParticipant; e: TodayEventJson; canOperate: boolean }) {
  const name = p.contact?.name || p.contact?.email || 'Unknown contact';
  const z = participantZone(p.ownZone, e.timeZone, e.startsAt);
  return (
    <li className={`today-participant${p.status === 'cancelled' ? ' is-cancelled' : ''}`} data-booking-id={p.bookingId} data-role={p.role}>
      <div className="today-participant-head">
        <strong className="today-participant-name">{name}</strong>
        <span className="tag">{deskRoleLabels[p.role]}</span>
        <StatusBadge status={p.status} kind="booking" reason={p.statusReason} zone={e.timeZone} />
      </div>
      {p.contact ? (
        <div className="today-contact">
          {p.contact.phone ? (
            <a href={`tel:${p.contact.phone}`} className="today-tap">
              <span aria-hidden="true">☎</span> {p.contact.phone}
            </a>
          ) : null}
          <a href={`mailto:${p.contact.email}`} className="today-tap today-email">
            <span aria-hidden="true">✉</span> {p.contact.email}
          </a>
        </div>
      ) : null}
      {z.kind === 'differs' || z.kind === 'unknown' ? <ParticipantZoneLine ownZone={p.ownZone} zone={e.timeZone} startsAt={e.startsAt} allDay={e.allDay} /> : null}
      {canOperate && p.status !== 'cancelled' && p.contact ? <RemindNow p={p} e={e} name={name} /> : null}
    </li>
  );
}

/** The event page's "Remind now" (NudgeDialog), with its notice (useNudgeNotice) following today's nudges. */
function RemindNow({ p, e, name }: { p: TodayParticipant; e: TodayEventJson; name: string }) {
  const [open, setOpen] = useState(false);
  const onSent = useNudgeNotice({ contact: p.contact, reminders: p.nudges });
  return (
    <div className="actions today-actions">
      <button type="button" className="btn today-tap" onClick={() => setOpen(true)} aria-label={`Remind now — ${name}`}>
        Remind now
      </button>
      {open ? (
        <NudgeDialog booking={{ id: p.bookingId, role: p.role, contact: p.contact }} eventId={e.id} hasRoom={!!e.roomUrl} onClose={() => setOpen(false)} onSent={onSent} />
      ) : null}
    </div>
  );
}

const deskTone: Record<DeskStatus, string> = { waiting: 'waiting', claimed: 'progress', sent: 'ok', 'not sent': 'muted', unknown: 'unknown' };

function RemindersSection({ data, hours, onHours, loading }: { data: TodayData; hours: ReminderWindowHours; onHours: (h: ReminderWindowHours) => void; loading: boolean }) {
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

function AttentionSection({ data }: { data: TodayData }) {
  const a = data.attention;
  const parts = [
    a.counts.dead ? `${a.counts.dead} dead ${a.counts.dead === 1 ? 'letter' : 'letters'}` : null,
    a.counts.unknown ? `${a.counts.unknown} unknown ${a.counts.unknown === 1 ? 'outcome' : 'outcomes'}` : null,
    a.counts.failed ? `${a.counts.failed} failed` : null,
  ].filter(Boolean);
  return (
    <section className="card today-card today-attention" aria-labelledby="today-attention-title" data-testid="today-attention" data-count={a.total}>
      <h2 id="today-attention-title">
        Needs attention today <span className="count">{a.total}</span>
      </h2>
      {a.items.length === 0 ? (
        <EmptyState title="Nothing needs attention for today's events">
          Dead letters, unknown outcomes and failed sends of messages about today&apos;s events appear here. Older ones:{' '}
          <Link href="/attention">Needs attention</Link>.
        </EmptyState>
      ) : (
        <>
          <p className="notice notice-warn small">
            {parts.join(' · ')} for today&apos;s events. <Link href="/attention">Open Needs attention →</Link>
          </p>
          <ul className="today-list">
            {a.items.map((x) => (
              <AttentionItem key={`${x.kind}:${x.id}`} x={x} />
            ))}
          </ul>
          {a.total > a.items.length ? <p className="small today-more">Showing the newest {a.items.length} of {a.total}.</p> : null}
        </>
      )}
    </section>
  );
}

function AttentionItem({ x }: { x: TodayAttentionJson }) {
  return (
    <li className="today-row" data-attention-kind={x.kind} data-status={x.status}>
      <div className="today-row-head">
        <StatusBadge status={x.status} kind={x.kind === 'delivery' ? 'delivery' : 'reminder'} zone={x.eventZone} />
        <ChannelBadge channel={x.channel} />
        <span className="small muted">
          <ZonedTime instant={x.updatedAt} zone={x.eventZone} />
        </span>
      </div>
      <div className="today-row-body">
        {x.title} to <span className="today-address">{x.address}</span> · <Link href={`/events/${x.eventId}`}>{x.eventTitle}</Link>
      </div>
      {x.statusReason ? (
        <div className="small muted today-reason">
          <TimesInText text={x.statusReason} zone={x.eventZone} />
        </div>
      ) : null}
      <div className="small today-links">
        {x.kind === 'delivery' ? (
          <Link href={`/deliveries/${x.id}`} className="today-tap">
            Open the delivery →
          </Link>
        ) : (
          <Link href="/reminders?status=failed&window=24h" className="today-tap">
            Failed reminders →
          </Link>
        )}
        {x.status !== 'failed' ? (
          <Link href="/attention" className="today-tap">
            Needs attention →
          </Link>
        ) : null}
      </div>
    </li>
  );
}
