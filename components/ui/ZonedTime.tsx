'use client';

import { useEffect, useState } from 'react';
import { formatClockInZone, formatInZone, formatTimeInZone, formatUtc } from './format';

/**
 * An instant shown as wall-clock time in `zone` with the zone's abbreviation. The tooltip gives the same
 * instant in the viewer's own zone (read from the browser after hydration) and in UTC; `dateTime` is the
 * machine-readable UTC instant. `variant` picks the format: full date (default), time only, or with seconds.
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
  const [viewerZone, setViewerZone] = useState<string | null>(null);
  useEffect(() => setViewerZone(Intl.DateTimeFormat().resolvedOptions().timeZone ?? null), []);
  const text =
    variant === 'time'
      ? formatTimeInZone(instant, zone)
      : variant === 'clock'
        ? formatClockInZone(instant, zone)
        : formatInZone(instant, zone);
  const title =
    viewerZone && viewerZone !== zone
      ? `${formatInZone(instant, viewerZone)} your time (${viewerZone}) · ${formatUtc(instant)}`
      : formatUtc(instant);
  return (
    <time dateTime={instant} title={title} className={className}>
      {text}
    </time>
  );
}
