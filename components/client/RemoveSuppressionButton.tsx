'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from './api';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * "Remove" for one suppression-list row: a confirmation that says mail may reach the address again and asks
 * for a required reason, then DELETE /api/suppressions/:id `{ reason }` (audited) and `router.refresh()`.
 * The server's refusal (e.g. 403 for a read-only role, 404 when someone else removed it) stays in the dialog.
 */
export function RemoveSuppressionButton({ id, address }: { id: string; address: string }) {
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
          await apiCall(`/api/suppressions/${encodeURIComponent(id)}`, 'DELETE', { reason });
          router.refresh();
        }}
      >
        <p className="dialog-consequence">
          Reminders and messages may reach <strong>{address}</strong> again, starting with the next send. The reason is kept in the audit log.
        </p>
      </ConfirmDialog>
    </>
  );
}
