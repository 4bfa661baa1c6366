'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { BookingView } from '@/db/queries/scheduling/event-views';
import { ApiError, apiCall } from '@/components/ui/api';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { EditParticipantDialog } from './EditParticipantDialog';
import { useNudgeNotice } from './useNudgeNotice';
import { NudgeDialog } from './NudgeDialog';

/**
 * Per-participant controls for staff and admins: "Remind now" (nudge), "Edit" (the person's details,
 * EditParticipantDialog) and "Cancel booking" (with reason).
 * The cancel carries the booking's row `version` as it was when the dialog opened (invariant 11); a 409 is
 * shown in the dialog and the page refreshes.
 */
export function ParticipantActions({ booking, eventId, eventActive, eventHasRoom }: { booking: BookingView; eventId: string; eventActive: boolean; eventHasRoom: boolean }) {
  const [dialog, setDialog] = useState<'nudge' | 'edit' | 'cancel' | null>(null);
  const [seenVersion, setSeenVersion] = useState(booking.version);
  const queryClient = useQueryClient();
  const onNudgeSent = useNudgeNotice(booking);
  if (booking.status === 'cancelled' || !eventActive) return null;
  const name = booking.contact?.name || booking.contact?.email || 'this participant';
  const pending = booking.reminders.filter((r) => r.kind === 'rule' && (r.status === 'scheduled' || r.status === 'dispatched')).length;
  return (
    <div className="actions participant-actions">
      <button type="button" className="btn btn-small" onClick={() => setDialog('nudge')} aria-label={`Remind now — ${name}`}>
        Remind now
      </button>
      {booking.contact ? (
        <button type="button" className="btn btn-small" onClick={() => setDialog('edit')} aria-label={`Edit participant — ${name}`}>
          Edit
        </button>
      ) : null}
      <button type="button" className="btn btn-small" onClick={() => {
          setSeenVersion(booking.version);
          setDialog('cancel');
        }} aria-label={`Cancel booking — ${name}`}>
        Cancel booking
      </button>
      {dialog === 'edit' ? <EditParticipantDialog bookingId={booking.id} name={name} eventId={eventId} onClose={() => setDialog(null)} /> : null}
      {dialog === 'nudge' ? <NudgeDialog booking={booking} eventId={eventId} hasRoom={eventHasRoom} onClose={() => setDialog(null)} onSent={onNudgeSent} /> : null}
      <ConfirmDialog
        open={dialog === 'cancel'}
        title={`Cancel ${name}'s booking?`}
        confirmLabel="Cancel booking"
        tone="danger"
        reasonLabel="Reason (shown to the participant if the notification policy tells them, and kept in the audit log)"
        onClose={() => setDialog(null)}
        onConfirm={async (reason) => {
          try {
            await apiCall(`/api/bookings/${booking.id}/cancel`, 'POST', { reason, version: seenVersion });
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
          {pending === 0
            ? 'No planned reminders are waiting for this participant.'
            : `${pending} planned reminder${pending === 1 ? '' : 's'} for ${name} will be cancelled.`}{' '}
          Messages already sent stay as they are. If the notification policy says so, {name} is told, with a calendar
          cancellation.
        </p>
      </ConfirmDialog>
    </div>
  );
}
