'use client';

import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { ApiError, apiCall } from '@/components/ui/api';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';

/**
 * Event-level controls for staff and admins: edit/reschedule (a page), the event's calendar replies (a page) and
 * cancel (a confirmation with reason).
 * The cancel carries the event's row `version` as it was when the dialog opened (invariant 11): if someone
 * changed the event meanwhile, the server's 409 ("changed by NAME at TIME since you opened it") is shown in
 * the dialog, the page refreshes, and confirming again is a decision made knowing that.
 */
export function EventActions({ eventId, title, pending, sent, version }: { eventId: string; title: string; pending: number; sent: number; version: number }) {
  const [open, setOpen] = useState(false);
  const [seenVersion, setSeenVersion] = useState(version);
  const queryClient = useQueryClient();
  return (
    <div className="actions event-actions">
      <Link className="btn" href={`/events/${eventId}/edit`}>
        Edit or reschedule
      </Link>
      <Link className="btn" href={`/replies?event=${eventId}`}>
        Calendar replies
      </Link>
      <button
        type="button"
        className="btn"
        onClick={() => {
          setSeenVersion(version);
          setOpen(true);
        }}
      >
        Cancel event
      </button>
      <ConfirmDialog
        open={open}
        title={`Cancel “${title}”?`}
        confirmLabel="Cancel event"
        tone="danger"
        reasonLabel="Reason (shown to participants in the cancellation message, and kept in the audit log)"
        onClose={() => setOpen(false)}
        onConfirm={async (reason) => {
          try {
            await apiCall(`/api/events/${eventId}/cancel`, 'POST', { reason, version: seenVersion });
          } catch (err) {
            const current = err instanceof ApiError && err.status === 409 ? (err.details?.current as { version?: number } | undefined) : undefined;
            if (current?.version) setSeenVersion(current.version);
            await queryClient.invalidateQueries({ queryKey: ['event-timeline', eventId] });
            throw err;
          }
          await queryClient.invalidateQueries({ queryKey: ['event-timeline', eventId] });
        }}
      >
        <p className="dialog-consequence">
          {pending === 0 ? 'No planned reminders are waiting.' : `${pending} planned reminder${pending === 1 ? '' : 's'} will be cancelled.`}{' '}
          {sent > 0 ? `${sent} already sent cannot be unsent.` : ''} Everyone booked is told on the channels they chose, as the
          notification policy says (an event cancellation reaches even people who opted out of booking updates), with a
          calendar cancellation.
        </p>
      </ConfirmDialog>
    </div>
  );
}
