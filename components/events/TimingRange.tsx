import { formatAllDayInZone, sameDayInZone } from '@/components/ui/format';
import { ZonedTime } from '@/components/ui/ZonedTime';

/** An event's timing as instants: `startsAt`/`endsAt` ISO-8601 UTC, the IANA zone it is planned in, all-day flag. */
export interface EventTiming {
  startsAt: string;
  endsAt: string;
  timeZone: string;
  allDay: boolean;
}

/**
 * "Tue 15 Jun 2027, 10:00 CEST – 11:00 CEST" in the timing's own zone (the end without its date on the same
 * day), "Tue 15 Jun 2027 (all day)" for an all-day event; `showZone` adds the zone name in brackets (when two
 * timings in different zones are shown side by side). Hover: the viewer's own zone (ZonedTime).
 */
export function TimingRange({ timing, showZone = false }: { timing: EventTiming; showZone?: boolean }) {
  const { startsAt, endsAt, timeZone: zone } = timing;
  return (
    <>
      {timing.allDay ? (
        <time dateTime={startsAt}>{formatAllDayInZone(startsAt, endsAt, zone)}</time>
      ) : (
        <>
          <ZonedTime instant={startsAt} zone={zone} /> – <ZonedTime instant={endsAt} zone={zone} variant={sameDayInZone(startsAt, endsAt, zone) ? 'time' : 'full'} />
        </>
      )}
      {showZone ? <span className="muted"> ({zone})</span> : null}
    </>
  );
}
