'use client';

import { ZonedTime } from '@/components/ui/ZonedTime';
import { attendanceLabel, describeAttendance } from '@/domain/scheduling/attendance';
import Link from 'next/link';
import { useState } from 'react';
import { participantZone } from '@/domain/scheduling/participant-zone';
import { deskRoleLabels, moreParticipants } from '@/domain/dashboards/today';
import type { TodayEventJson } from '@/server/dashboards/today';
import type { TodayParticipant } from '@/db/queries/dashboards/today';
import { ParticipantZoneLine } from '@/components/events/ParticipantGroups';
import { StatusBadge } from '@/components/ui/StatusBadge';
import { NudgeDialog } from '@/components/events/NudgeDialog';
import { useNudgeNotice } from '@/components/events/useNudgeNotice';
import { useTodayParticipants } from './useTodayData';

/** One event's participants, opened under it in the today view: contact links, zone, status and "Remind now" (operators). */
export function ParticipantsPanel({ e, canOperate }: { e: TodayEventJson; canOperate: boolean }) {
  // Under the event page's key: a nudge sent from here (NudgeDialog) refreshes this list at once.
  const query = useTodayParticipants(e);
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
        {p.role !== 'host' ? (
          <span className={`tag attendance attendance-${p.attendance.state}`} data-testid="attendance" data-attendance={p.attendance.state}>
            {attendanceLabel[p.attendance.state]}
          </span>
        ) : null}
      </div>
      {p.role !== 'host' && p.attendance.at ? (
        <div className="small muted" data-testid="attendance-detail">
          {describeAttendance(p.attendance)} — <ZonedTime instant={p.attendance.at} zone={e.timeZone} />
        </div>
      ) : null}
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
