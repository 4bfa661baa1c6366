'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from '@/components/ui/api';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';

/**
 * "Delete rule" on a rule's page (admins): a confirmation, then DELETE /api/rules/:id `{ version }` (audited) and
 * back to /rules. The server deletes only a rule that never produced a reminder; its refusal ("used by N reminders —
 * deactivate it instead", or a stale version) stays in the dialog.
 */
export function DeleteRuleButton({ id, name, version }: { id: string; name: string; version: number }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-danger" onClick={() => setOpen(true)}>
        Delete rule
      </button>
      <ConfirmDialog
        open={open}
        title={`Delete “${name}”?`}
        confirmLabel="Delete rule"
        tone="danger"
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          await apiCall(`/api/rules/${encodeURIComponent(id)}`, 'DELETE', { version });
          router.push('/rules?deleted=1');
          router.refresh();
        }}
      >
        <p className="dialog-consequence">
          Only a rule that never planned a reminder can be deleted; one in use can be deactivated instead (uncheck Active and save). The deletion is recorded in the audit log.
        </p>
      </ConfirmDialog>
    </>
  );
}
