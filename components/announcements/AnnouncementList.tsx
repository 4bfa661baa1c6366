'use client';

import { useState } from 'react';
import type { AnnouncementView } from '@/server/messages/announcements';
import { apiCall } from '@/components/ui/api';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { outcomeLines, whenSentence } from './announcement-words';

const statusWords: Record<string, string> = { scheduled: 'Scheduled', sending: 'Being sent', sent: 'Sent', cancelled: 'Cancelled' };
const badge: Record<string, string> = { scheduled: 'badge-waiting', sending: 'badge-progress', sent: 'badge-ok', cancelled: 'badge-muted' };

/**
 * The event's announcements, newest first: subject, status, when it goes (or went) out, who wrote it, what became of
 * its messages — and, for a scheduled one (staff), Cancel, with the version it was read at (a 409 says why not).
 */
export function AnnouncementList({ items, zone, canOperate, onChanged }: { items: AnnouncementView[]; zone: string; canOperate: boolean; onChanged: () => void }) {
  const [cancelling, setCancelling] = useState<AnnouncementView | null>(null);
  if (items.length === 0) return <p className="muted">No announcements yet.</p>;
  return (
    <>
      <ul className="announce-list" aria-label="Announcements of this event">
        {items.map((a) => {
          const subject = Object.values(a.texts)[0]?.subject ?? '';
          return (
            <li key={a.id} className="card announce-item" data-testid="announcement">
              <p className="announce-item-head">
                <strong className="wrap-anywhere">{subject}</strong> <span className={`badge ${badge[a.status] ?? 'badge-muted'}`}>{statusWords[a.status] ?? a.status}</span>
              </p>
              <p className="muted small">
                {a.status === 'scheduled' ? 'Goes out' : 'Send time'}: {whenSentence(a.sendAt, zone)} · Written by {a.createdBy}
              </p>
              {outcomeLines(a.outcomes).length > 0 ? (
                <ul className="announce-outcomes small" aria-label="What became of its messages">
                  {outcomeLines(a.outcomes).map((l) => (
                    <li key={l}>{l}</li>
                  ))}
                </ul>
              ) : null}
              {a.status === 'scheduled' && canOperate ? (
                <button type="button" className="btn btn-small" onClick={() => setCancelling(a)}>
                  Cancel
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={!!cancelling}
        title="Cancel this announcement?"
        confirmLabel="Cancel announcement"
        tone="danger"
        onClose={() => setCancelling(null)}
        onConfirm={async () => {
          if (!cancelling) return;
          await apiCall(`/api/announcements/${encodeURIComponent(cancelling.id)}/cancel`, 'POST', { version: cancelling.version });
          onChanged();
        }}
      >
        <p>Nobody will get it. This cannot be undone.</p>
      </ConfirmDialog>
    </>
  );
}
