'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import type { SenderStatusView } from '@/server/organisations/sender-identity';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { apiCall } from '@/components/ui/api';
import { FormFeedback } from '@/components/ui/FormFeedback';

/**
 * Which address the organisation's mail goes out from now, and why (server/organisations/sender-identity.ts senderStatus): its own
 * sender address (verified, or at one of the deployment's sender domains), or — not verified yet — the deployment's
 * own address with Reply-To the sender address, the link we sent and (admins) "Send the link again"
 * (POST /api/settings/sender-verification).
 */
export function SenderStatusPanel({ status, senderEmail, zone, canResend }: { status: SenderStatusView; senderEmail: string; zone: string; canResend: boolean }) {
  const router = useRouter();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const unverified = status.proof === 'unverified';

  async function resend() {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await apiCall<SenderStatusView>('/api/settings/sender-verification', 'POST', {});
      setNotice(`We sent a new link to ${senderEmail}.`);
      router.refresh();
    } catch (err) {
      setError({ message: err instanceof Error ? err.message.replace(/^senderEmail: /, '') : String(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={`sender-status ${unverified ? 'notice notice-warn' : 'notice'}`} data-testid="sender-status" data-proof={status.proof}>
      <p>
        <strong>{unverified ? 'Not verified yet' : 'Sender address'}</strong> · {status.sentence}
      </p>
      {unverified ? (
        <p className="small">
          Recipients see your organisation’s name From {status.from}; their replies go to {status.replyTo}. To send from {senderEmail} itself, an admin opens the
          link we mailed to it{status.link ? (
            <>
              {' '}
              (sent <ZonedTime instant={status.link.sentAt} zone={zone} />, it works until <ZonedTime instant={status.link.expiresAt} zone={zone} />)
            </>
          ) : null}
          .
        </p>
      ) : null}
      {unverified && canResend ? (
        <p>
          <button type="button" className="btn" onClick={resend} disabled={busy} aria-describedby={`${id}-feedback`}>
            {busy ? 'Sending…' : 'Send the link again'}
          </button>
        </p>
      ) : null}
      <div id={`${id}-feedback`}>
        <FormFeedback error={error} notice={notice} errorId={`${id}-error`} />
      </div>
    </div>
  );
}
