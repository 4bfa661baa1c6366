'use client';

import { useState } from 'react';
import type { SenderStatusView } from '@/server/organisations/sender-identity';
import { apiCall } from '@/components/ui/api';
import { FormFeedback } from '@/components/ui/FormFeedback';

/** "Verify <address>": POST /api/settings/sender-verification/confirm with the link's token, then the outcome. */
export function ConfirmSenderButton({ token, address }: { token: string; address: string }) {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<SenderStatusView | null>(null);
  const [error, setError] = useState<{ message: string } | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      setDone(await apiCall<SenderStatusView>('/api/settings/sender-verification/confirm', 'POST', { token }));
    } catch (err) {
      setError({ message: err instanceof Error ? err.message.replace(/^token: /, '') : String(err) });
    } finally {
      setBusy(false);
    }
  }

  if (done)
    return (
      <p className="notice" role="status" data-testid="verify-sender-done">
        Verified. {done.sentence} <a href="/settings">Back to the settings</a>
      </p>
    );
  return (
    <>
      <p>
        <button type="button" className="btn btn-primary" onClick={confirm} disabled={busy}>
          {busy ? 'Verifying…' : `Verify ${address}`}
        </button>
      </p>
      <FormFeedback error={error} errorId="verify-sender-error" />
    </>
  );
}
