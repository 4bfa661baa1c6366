'use client';

import { useState } from 'react';
import type { StaffDraft } from '@/domain/messages/staff-text';
import type { TestMessageView } from '@/server/organisations/org-settings';
import { apiCall } from '@/components/ui/api';
import { testStatusWords, useTestMessage } from '@/components/settings/useTestMessage';

/**
 * "Send a test to me" (admins): POST /api/message-texts/:kind/:locale/test with the draft in the fields and the
 * participant chosen for the preview — the email goes to the signed-in admin's own address through the organisation's
 * provider (a worker sends it, as the settings page's test message; nobody else gets it). Follows it until the
 * provider answers (components/settings/useTestMessage.ts).
 */
export function SendTestToMe({ url, draft, bookingId }: { url: string; draft: StaffDraft; bookingId: string }) {
  const { message, waitedLong, start } = useTestMessage();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function send() {
    setBusy(true);
    setError(null);
    try {
      start(await apiCall<TestMessageView>(`${url}/test`, 'POST', { ...draft, bookingId: bookingId || null }));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="text-test">
      <button type="button" className="btn" onClick={send} disabled={busy || message?.status === 'pending'}>
        {busy ? 'Asking…' : 'Send a test to me'}
      </button>
      <span className="small muted"> The email of this preview, to your own address only.</span>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <div role="status" data-testid="text-test-result" data-status={message?.status}>
        {message ? (
          message.status === 'pending' ? (
            <p className="small">{waitedLong ? `No answer yet — is a worker running? (still waiting for ${message.to})` : `Sending to ${message.to}…`}</p>
          ) : (
            <p className="small">
              <strong>{testStatusWords[message.status]}</strong> · {message.to} · <code>{message.providerAnswer}</code>
            </p>
          )
        ) : null}
      </div>
    </div>
  );
}
