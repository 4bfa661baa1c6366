'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { BookingView } from '@/db/queries/scheduling/event-views';
import { ApiError, apiCall, newIdempotencyKey } from '@/components/ui/api';
import { announce } from '@/components/ui/Announcer';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';

type Picked = { id: string; version: number; name: string };
type NudgeResult =
  | { bookingId: string; name: string; outcome: 'sent'; reminderId: string; replayed: boolean }
  | { bookingId: string; name: string; outcome: 'refused'; reason: string };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const nameOf = (b: BookingView) => b.contact?.name || b.contact?.email || 'Unknown contact';

/**
 * The bar under an event's participant list while some are ticked (issue #13): "N selected: Cancel selected ·
 * Nudge selected". Both ask first in a dialog that says how many and who.
 *
 * - Cancel selected sends every ticked booking with the row version it had when the dialog opened (invariant 11)
 *   and a reason, in one request (server/people/bulk-participants.ts: one transaction). A 409 lists who changed since;
 *   nothing was cancelled, the dialog stays open with the message and the list refreshes.
 * - Nudge selected sends one request with an idempotency key made when the dialog opens (a double click or a
 *   retry sends nothing twice); the answer — sent or refused with the reason, per participant — stays on the
 *   page under the bar until dismissed.
 *
 * Sticky at the bottom of the window while the list scrolls (app/styles/exports-bulk.css), so the count and
 * the actions stay in reach on a phone.
 */
export function BulkParticipantBar({ eventId, selected, onClear }: { eventId: string; selected: BookingView[]; onClear: () => void }) {
  const [dialog, setDialog] = useState<'cancel' | 'nudge' | null>(null);
  const [picked, setPicked] = useState<Picked[]>([]);
  const [key, setKey] = useState('');
  const [results, setResults] = useState<NudgeResult[] | null>(null);
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['event-timeline', eventId] });
  const open = (which: 'cancel' | 'nudge') => {
    setPicked(selected.map((b) => ({ id: b.id, version: b.version, name: nameOf(b) })));
    setKey(newIdempotencyKey());
    setDialog(which);
  };
  const n = picked.length;
  const names = picked.map((p) => p.name).join(', ');
  const sent = results?.filter((r) => r.outcome === 'sent').length ?? 0;

  return (
    <>
      {selected.length > 0 ? (
        <div className="bulk-bar" role="region" aria-label="Selected participants" data-testid="bulk-bar">
          <span className="bulk-count" aria-live="polite">
            {selected.length} selected:
          </span>
          <button type="button" className="btn btn-small" onClick={() => open('cancel')}>
            Cancel selected
          </button>
          <span className="bulk-sep" aria-hidden="true">
            ·
          </span>
          <button type="button" className="btn btn-small" onClick={() => open('nudge')}>
            Nudge selected
          </button>
          <button type="button" className="btn btn-small btn-ghost bulk-clear" onClick={onClear}>
            Clear selection
          </button>
        </div>
      ) : null}
      {results ? (
        <section className="bulk-results" aria-labelledby="bulk-results-title" data-testid="bulk-results">
          <h3 id="bulk-results-title" role="status">
            Reminders: {sent} sent{results.length > sent ? `, ${results.length - sent} not sent` : ''}
          </h3>
          <ul>
            {results.map((r) => (
              <li key={r.bookingId} data-outcome={r.outcome} data-booking-id={r.bookingId}>
                <strong>{r.name}</strong> —{' '}
                {r.outcome === 'sent' ? (r.replayed ? 'sent (by this same request a moment ago)' : 'sent') : <span className="bulk-refused">not sent: {r.reason}</span>}
              </li>
            ))}
          </ul>
          <button type="button" className="btn btn-small" onClick={() => setResults(null)}>
            Dismiss
          </button>
        </section>
      ) : null}
      <ConfirmDialog
        open={dialog === 'cancel'}
        title={`Cancel ${plural(n, 'booking')}?`}
        confirmLabel={`Cancel ${plural(n, 'booking')}`}
        tone="danger"
        reasonLabel="Reason (kept in the audit log of each booking, and shown to each participant the notification policy tells)"
        onClose={() => setDialog(null)}
        onConfirm={async (reason) => {
          let r: { cancelled: { id: string; name: string }[]; alreadyCancelled: { id: string; name: string }[] };
          try {
            r = await apiCall(`/api/events/${encodeURIComponent(eventId)}/bookings/cancel-selected`, 'POST', { reason, bookings: picked.map(({ id, version }) => ({ id, version })) }, { idempotencyKey: key });
          } catch (err) {
            // Stale: the list refreshes so the dialog's next try (after a new selection) carries the new versions.
            if (err instanceof ApiError && err.status === 409) await refresh();
            throw err;
          }
          onClear();
          await refresh();
          announce({ key: `bulk-cancel:${key}`, text: `Cancelled ${plural(r.cancelled.length, 'booking')}: ${r.cancelled.map((c) => c.name).join(', ')}.`, tone: 'ok' });
        }}
      >
        <p className="dialog-consequence">
          {n === 1 ? 'This participant' : `These ${n} participants`} lose their place: <strong>{names}</strong>. Their planned reminders are
          cancelled; messages already sent stay as they are. If the notification policy says so, each is told, with a calendar cancellation. All
          or none: if anyone of them changed since this page showed them, nothing is cancelled and you are told who.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'nudge'}
        title={`Remind ${plural(n, 'participant')} now?`}
        confirmLabel={`Send ${plural(n, 'reminder')}`}
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          const r = await apiCall<{ results: NudgeResult[] }>(`/api/events/${encodeURIComponent(eventId)}/bookings/nudge-selected`, 'POST', { bookingIds: picked.map((p) => p.id), idempotencyKey: key });
          setResults(r.results);
          onClear();
          await refresh();
        }}
      >
        <p className="dialog-consequence">
          One email each goes right away to <strong>{names}</strong>, with the reminder for their role (hosts get the host reminder). It does not
          replace any planned reminder. At most one manual reminder per participant per minute: anyone reminded less than a minute ago is
          skipped, and the answer says when to try again.
        </p>
      </ConfirmDialog>
    </>
  );
}
