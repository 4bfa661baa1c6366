'use client';

import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { EventPage } from '@/db/queries/scheduling/event-views';
import { participantFilterParams, type ParticipantFilter } from '@/domain/scheduling/participant-filter';
import { isSelectable } from './ParticipantRow';

const REFRESH_MS = 2_000;

/** The timeline endpoint answered 404: the event is gone or not in this tenant; polling stops. */
export class EventGoneError extends Error {}

async function fetchTimeline(eventId: string, filter: ParticipantFilter, signal: AbortSignal): Promise<EventPage> {
  // `page` always sent: the answer is then this one page, not every booking of the event.
  const params = new URLSearchParams({ ...participantFilterParams(filter), page: String(filter.page) });
  const res = await fetch(`/api/events/${encodeURIComponent(eventId)}/timeline?${params.toString()}`, { cache: 'no-store', signal });
  if (res.status === 404) throw new EventGoneError('event not found');
  if (!res.ok) throw new Error(`timeline request failed (${res.status})`);
  return (await res.json()) as EventPage;
}

/**
 * The event page's data, refreshed every 2 s from /api/events/[id]/timeline with the page's list parameters
 * (starting from the server-rendered data, marked stale so the first refresh follows hydration), and the bulk
 * selection by booking id over the visible page: a booking that stopped being selectable (cancelled meanwhile,
 * or no longer on the page) silently drops out of it.
 */
export function useLiveEventPage(eventId: string, initialData: EventPage, filter: ParticipantFilter) {
  const query = useQuery({
    queryKey: ['event-timeline', eventId, participantFilterParams(filter)],
    queryFn: ({ signal }) => fetchTimeline(eventId, filter, signal),
    initialData,
    initialDataUpdatedAt: 0,
    refetchInterval: (q) => (q.state.error instanceof EventGoneError ? false : REFRESH_MS),
    retry: (count, error) => !(error instanceof EventGoneError) && count < 1,
  });
  const selectable = query.data.bookings.filter(isSelectable);
  const [picked, setPicked] = useState<ReadonlySet<string>>(() => new Set());
  const selected = selectable.filter((b) => picked.has(b.id));
  const toggle = useCallback((id: string, on: boolean) => {
    setPicked((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const setAll = useCallback((on: boolean) => setPicked(on ? new Set(selectable.map((b) => b.id)) : new Set()), [selectable]);
  return { query, gone: query.error instanceof EventGoneError, selectable, selected, toggle, setAll };
}
