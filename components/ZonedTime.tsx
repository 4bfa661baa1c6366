import { formatClockInZone, formatInZone, formatTimeInZone, formatUtc } from './format';

/**
 * An instant shown as wall-clock time in `zone` with the zone's abbreviation; the exact UTC instant is the
 * tooltip and the machine-readable `dateTime`. `variant` picks the format: full date (default), time only,
 * or time with seconds.
 */
export function ZonedTime({
  instant,
  zone,
  variant = 'full',
  className,
}: {
  instant: string;
  zone: string;
  variant?: 'full' | 'time' | 'clock';
  className?: string;
}) {
  const text =
    variant === 'time'
      ? formatTimeInZone(instant, zone)
      : variant === 'clock'
        ? formatClockInZone(instant, zone)
        : formatInZone(instant, zone);
  return (
    <time dateTime={instant} title={formatUtc(instant)} className={className}>
      {text}
    </time>
  );
}
