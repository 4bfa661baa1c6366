'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { AnnouncementView } from '@/server/messages/announcements';
import { apiCall } from '@/components/ui/api';
import { AnnouncementComposer } from './AnnouncementComposer';
import { AnnouncementList } from './AnnouncementList';

/**
 * The announcements page's live part: the composer (staff) and the event's announcements, re-read every few seconds
 * so the outcome of each one's messages follows the worker.
 */
export function AnnouncementsPanel({
  eventId,
  initial,
  canOperate,
  zone,
  languages,
  defaultLanguage,
}: {
  eventId: string;
  initial: AnnouncementView[];
  canOperate: boolean;
  zone: string;
  languages: { tag: string; name: string }[];
  defaultLanguage: string;
}) {
  const queryClient = useQueryClient();
  const key = ['announcements', eventId];
  const list = useQuery({
    queryKey: key,
    queryFn: () => apiCall<{ announcements: AnnouncementView[] }>(`/api/events/${encodeURIComponent(eventId)}/announcements`, 'GET').then((r) => r.announcements),
    initialData: initial,
    refetchInterval: 3000,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });
  return (
    <>
      {canOperate ? <AnnouncementComposer eventId={eventId} languages={languages} defaultLanguage={defaultLanguage} zone={zone} onSent={refresh} /> : <p className="muted">Your role is read-only: you can see the announcements, not write one.</p>}
      <section aria-labelledby="announce-list-title" className="announce-history">
        <h2 id="announce-list-title">Announcements of this event</h2>
        <AnnouncementList items={list.data ?? []} zone={zone} canOperate={canOperate} onChanged={refresh} />
      </section>
    </>
  );
}
