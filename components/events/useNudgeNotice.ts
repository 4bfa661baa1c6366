'use client';

import { useCallback, useEffect, useState } from 'react';
import type { BookingView } from '@/db/queries/scheduling/event-views';
import { nudgeNotice, type NudgeRecord } from '@/domain/sending/action-notices';
import { announce } from '@/components/ui/Announcer';

/**
 * What the notice needs of a participant: their contact and their messages as last read (the event page's
 * booking with its whole timeline, or the today view's participant with today's nudges).
 */
type NudgeTracked = Pick<BookingView, 'contact'> & { reminders: readonly (NudgeRecord & { id: string })[] };

/**
 * The notice after a nudge, kept up to date from the participant's live timeline (`booking`, refreshed by the
 * event page): "Sending a reminder to …" → "Sent to <address>." — or why it was not sent
 * (domain/sending/action-notices.ts). Returns the callback the nudge dialog calls with the API's answer
 * (`reminderId` of the nudge, POST /api/bookings/:id/nudge).
 */
export function useNudgeNotice(booking: NudgeTracked): (sent: { reminderId: string }) => void {
  const [reminderId, setReminderId] = useState<string | null>(null);
  const record = reminderId ? (booking.reminders.find((r) => r.id === reminderId) ?? null) : null;
  const notice = reminderId ? nudgeNotice(record, booking.contact?.email || booking.contact?.name || 'this participant') : null;
  const text = notice?.text;
  const tone = notice?.tone;
  const link = notice?.link;
  useEffect(() => {
    if (reminderId && text) announce({ key: `nudge:${reminderId}`, text, tone, link });
    // `link` follows `text` (same outcome, same link)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reminderId, text, tone]);
  return useCallback((sent: { reminderId: string }) => setReminderId(sent.reminderId), []);
}
