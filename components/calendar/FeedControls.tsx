'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ApiError, apiCall } from '@/components/ui/api';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';

/**
 * The contact page's feed actions: "Rotate feed address" (a confirmation saying the old address stops working,
 * then POST /api/contacts/:id/feed/rotate `{ version }`) and "Turn alarms on/off" (PUT /api/contacts/:id/feed
 * `{ alarms, version }`); both send the feed version the page showed (invariant 11) and refresh the page. A refusal
 * (409 changed meanwhile, 403 role) is shown beside the buttons, and a 409 refreshes the page so a retry uses the
 * new version.
 */
export function FeedControls({ contactId, name, version, alarms }: { contactId: string; name: string; version: number; alarms: boolean }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const base = `/api/contacts/${encodeURIComponent(contactId)}/feed`;
  return (
    <div className="feed-controls">
      <div className="feed-buttons">
        <button type="button" className="btn" onClick={() => setOpen(true)} data-testid="rotate-feed">
          Rotate feed address
        </button>
        <button
          type="button"
          className="btn"
          disabled={busy}
          data-testid="toggle-alarms"
          onClick={async () => {
            setBusy(true);
            setError(null);
            try {
              await apiCall(base, 'PUT', { alarms: !alarms, version });
            } catch (err) {
              setError(err instanceof Error ? err.message : String(err));
              if (err instanceof ApiError && err.status === 409) router.refresh();
            } finally {
              setBusy(false);
            }
            router.refresh();
          }}
        >
          {alarms ? 'Turn alarms off' : 'Turn alarms on'}
        </button>
      </div>
      {error ? (
        <p className="notice notice-bad" role="alert">
          {error}
        </p>
      ) : null}
      <ConfirmDialog
        open={open}
        title={`New feed address for ${name}?`}
        confirmLabel="Rotate address"
        tone="danger"
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          try {
            await apiCall(`${base}/rotate`, 'POST', { version });
          } catch (err) {
            if (err instanceof ApiError && err.status === 409) router.refresh();
            throw err;
          }
          router.refresh();
        }}
      >
        <p className="dialog-consequence">
          The current address stops working at once: calendars subscribed to it stop updating. Send {name} the new address. The change is in the audit log.
        </p>
      </ConfirmDialog>
    </div>
  );
}
