'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from '@/components/ui/api';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';

/** "Hide this checklist" (admins): a confirmation, then DELETE /api/first-day (audited) and the dashboard without it. */
export function DismissFirstDay() {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  return (
    <>
      <p className="first-day-dismiss">
        <button type="button" className="btn btn-small" onClick={() => setOpen(true)}>
          Hide this checklist
        </button>
      </p>
      <ConfirmDialog
        open={open}
        title="Hide the first-day checklist?"
        confirmLabel="Hide it"
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          await apiCall('/api/first-day', 'DELETE');
          router.refresh();
        }}
      >
        <p className="dialog-consequence">It disappears for everyone in your organisation. The steps stay where they are: settings, reminder rules, events and staff.</p>
      </ConfirmDialog>
    </>
  );
}
