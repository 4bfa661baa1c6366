'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { ApiError, apiCall } from '@/components/ui/api';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';

/** True for a refusal that means the entry is no longer on the list: 409 with a `current.removed` record, or 404. */
function entryGone(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.status === 404) return true;
  const current = err.details?.current as { removed?: unknown } | undefined;
  return err.status === 409 && !!current?.removed;
}

/**
 * "Remove" for one suppression-list row: a confirmation that says mail may reach the address again and asks
 * for a required reason, then DELETE /api/suppressions/:id `{ reason, version }` (audited) and `router.refresh()`.
 * Sends the entry's row `version` the list showed (invariant 11). The server's refusal stays in the dialog, like
 * other conflicts:
 * - 409 "was changed by NAME since you opened it": the list is refreshed at once (the row stays, with its new
 *   version), so "Remove from list" can be pressed again;
 * - 409 "was already removed by NAME at TIME: “reason”" (someone removed it from another tab) or 404: the list is
 *   refreshed only when the dialog is closed — refreshing at once would take the row, and with it the dialog and
 *   its message, off the page before it could be read;
 * - 403 for a read-only role.
 */
export function RemoveSuppressionButton({ id, address, version }: { id: string; address: string; version: number }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [gone, setGone] = useState(false);
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
        onClose={() => {
          setOpen(false);
          if (gone) {
            setGone(false);
            router.refresh();
          }
        }}
        onConfirm={async (reason) => {
          try {
            await apiCall(`/api/suppressions/${encodeURIComponent(id)}`, 'DELETE', { reason, version });
          } catch (err) {
            if (entryGone(err)) setGone(true);
            else if (err instanceof ApiError && err.status === 409) router.refresh();
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
