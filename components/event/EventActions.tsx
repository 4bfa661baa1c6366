'use client';

import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { apiCall } from '../client/api';
import { ConfirmDialog } from '../client/ConfirmDialog';

/** Event-level controls for staff and admins: edit/reschedule (a page) and cancel (a confirmation with reason). */
export function EventActions({ eventId, title, pending, sent }: { eventId: string; title: string; pending: number; sent: number }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  return (
    <div className="actions event-actions">
      <Link className="btn" href={`/events/${eventId}/edit`}>
        Edit or reschedule
      </Link>
      <button type="button" className="btn" onClick={() => setOpen(true)}>
        Cancel event
      </button>
      <ConfirmDialog
        open={open}
        title={`Cancel “${title}”?`}
        confirmLabel="Cancel event"
        tone="danger"
        reasonLabel="Reason (kept in the audit log)"
        onClose={() => setOpen(false)}
        onConfirm={async (reason) => {
          await apiCall(`/api/events/${eventId}/cancel`, 'POST', { reason });
          await queryClient.invalidateQueries({ queryKey: ['event-timeline', eventId] });
        }}
      >
        <p className="dialog-consequence">
          {pending === 0 ? 'No planned reminders are waiting.' : `${pending} planned reminder${pending === 1 ? '' : 's'} will be cancelled.`}{' '}
          {sent > 0 ? `${sent} already sent cannot be unsent.` : ''} Participants are not notified of the cancellation by Punctual.
        </p>
      </ConfirmDialog>
    </div>
  );
}
