'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ReminderWindowHours } from '@/domain/dashboards/today';
import type { TodayData, TodayEventJson, TodayParticipantsData } from '@/server/dashboards/today';

/** How often the view reads itself again (issue #13: "refreshes itself every 30 s"). */
const TODAY_REFRESH_MS = 30_000;

/** GETs `url` (no cache) and parses its JSON. @throws Error naming the URL and the status when the answer is not 2xx. */
async function getJson<T>(url: string, signal: AbortSignal): Promise<T> {
  const res = await fetch(url, { cache: 'no-store', signal });
  if (!res.ok) throw new Error(`${url}: the server answered ${res.status}`);
  return (await res.json()) as T;
}

/**
 * The today view's data (components/dashboards/TodayView.tsx): starts from the server-rendered `initialData`,
 * reads /api/today?hours=<window> again every 30 s (keeping the previous answer while a new window loads), and
 * the reminders window in hours, which `chooseHours` changes and writes into the address (?hours=, no new
 * history entry). `data` is the latest answer; `query` tells whether the last read failed or is a placeholder;
 * `viewerZone` is the browser's own zone (null before hydration).
 */
export function useTodayData(initialData: TodayData) {
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
  return { data, zone, query, hours, chooseHours, viewerZone };
}

/** The browser's own zone (after hydration; null before). */
function useViewerZone(): string | null {
  const [z, setZ] = useState<string | null>(null);
  useEffect(() => setZ(Intl.DateTimeFormat().resolvedOptions().timeZone ?? null), []);
  return z;
}

/**
 * One event's participants for the today view, read from /api/today/events/:id/participants every 30 s.
 * Under the event page's key: a nudge sent from here (NudgeDialog) refreshes this list at once.
 */
export function useTodayParticipants(e: TodayEventJson) {
  return useQuery({
    queryKey: ['event-timeline', e.id, 'today-participants'],
    queryFn: ({ signal }) => getJson<TodayParticipantsData>(`/api/today/events/${encodeURIComponent(e.id)}/participants`, signal),
    refetchInterval: TODAY_REFRESH_MS,
  });
}
