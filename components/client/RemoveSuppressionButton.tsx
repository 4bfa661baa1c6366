'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ApiError, apiCall } from './api';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * "Remove" for one suppression-list row: a confirmation that says mail may reach the address again and asks
 * for a required reason, then DELETE /api/suppressions/:id `{ reason }` (audited) and `router.refresh()`.
 * The server's refusal (e.g. 403 for a read-only role, 404 when someone else removed it, 409 when someone
 * changed the entry since the list was shown — then the list is refreshed) stays in the dialog. Sends the
 * entry's row `version` the list showed (invariant 11).
 */
export function RemoveSuppressionButton({ id, address, version }: { id: string; address: string; version: number }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-small" onClick={() => setOpen(true)} aria-label={`Remove ${address} from the suppression list`}>
        Remove
      </button>
      <ConfirmDialog
        open={open}
        title={`Remove ${address}?`}
        confirmLabel="Remove from list"
        tone="danger"
        reasonLabel="Reason for removing"
        onClose={() => setOpen(false)}
        onConfirm={async (reason) => {
          try {
            await apiCall(`/api/suppressions/${encodeURIComponent(id)}`, 'DELETE', { reason, version });
          } catch (err) {
            if (err instanceof ApiError && (err.status === 409 || err.status === 404)) router.refresh();
            throw err;
          }
          router.refresh();
        }}
      >
        <p className="dialog-consequence">
          Reminders and messages may reach <strong>{address}</strong> again, starting with the next send. The entry stays under “Show removed”, with your reason, and in the audit log.
        </p>
      </ConfirmDialog>
    </>
  );
}
