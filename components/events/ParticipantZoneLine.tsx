import { participantZone } from '@/domain/scheduling/participant-zone';
import { ZonedTime } from '@/components/ui/ZonedTime';

/**
 * The person's own time zone, always shown (domain/scheduling/participant-zone.ts says why): "not on file", "same clock as
 * the event", or — when it differs — their zone with the event's start in their time (hover: the viewer's zone).
 */
export function ParticipantZoneLine({ ownZone, zone, startsAt, allDay }: { ownZone: string | null; zone: string; startsAt: string; allDay: boolean }) {
  const z = participantZone(ownZone, zone, startsAt);
  return (
    <div className="small participant-zone" data-zone-kind={z.kind} data-zone={z.kind === 'none' ? undefined : z.zone}>
      <span className="muted">Their time zone: </span>
      {z.kind === 'none' ? (
        <span className="muted">not on file — their messages show the event’s zone only</span>
      ) : z.kind === 'same' ? (
        <>
          {z.zone} <span className="muted">(same clock as the event)</span>
        </>
      ) : z.kind === 'unknown' ? (
        <>
          {z.zone} <span className="muted">(not a time zone this server knows — edit the participant to fix it)</span>
        </>
      ) : (
        <>
          <strong>{z.zone}</strong>
          {allDay ? null : (
            <>
              {' '}
              <span className="muted">· starts</span> <ZonedTime instant={startsAt} zone={z.zone} /> <span className="muted">their time</span>
            </>
          )}
        </>
      )}
    </div>
  );
}
