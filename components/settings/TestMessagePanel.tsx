'use client';

import { useId, useState, type FormEvent } from 'react';
import type { EmailProvider } from '@/domain/vocabulary';
import type { TestMessageView } from '@/server/organisations/org-settings';
import { ApiError, apiCall } from '@/components/ui/api';
import { FormFeedback } from '@/components/ui/FormFeedback';
import { testStatusWords as statusWords, useTestMessage } from './useTestMessage';

const providerWords: Record<EmailProvider, string> = { smtp: 'the SMTP server', http_api: 'the HTTP email API' };

/**
 * "Send a test message" (admins, issue #13): an address (default: the admin's own; only the organisation's staff
 * addresses, offered in a list, are accepted) and a button. The web app never
 * sends mail: POST /api/settings/test-message queues it for a worker, which sends it through the organisation's
 * provider; this panel polls GET /api/settings/test-message/:id every second (./useTestMessage.ts) and shows the provider's answer
 * verbatim, or — after 20 s without one — "no answer yet — is a worker running?" (it keeps polling).
 */
export function TestMessagePanel({ defaultTo, provider, staff = [] }: { defaultTo: string; provider: EmailProvider; staff?: string[] }) {
  const id = useId();
  const [to, setTo] = useState(defaultTo);
  const { message, waitedLong, start } = useTestMessage();
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const m = await apiCall<TestMessageView>('/api/settings/test-message', 'POST', { to });
      start(m);
    } catch (err) {
      setError({ message: err instanceof Error ? err.message.replace(/^to: /, '') : String(err), field: err instanceof ApiError ? err.field : undefined });
    } finally {
      setBusy(false);
    }
  }

  const errorId = `${id}-error`;
  return (
    <form className="test-message" onSubmit={onSubmit} noValidate aria-label="Send a test message">
      <div className="test-message-row">
        <label className="field">
          <span>Send a test message to</span>
          <input
            name="to"
            type="email"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            list={`${id}-staff`}
            autoComplete="off"
            aria-invalid={error?.field === 'to' || undefined}
            aria-describedby={error ? `${errorId} ${id}-to-hint` : `${id}-to-hint`}
          />
          <datalist id={`${id}-staff`}>
            {staff.map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
          <span className="field-hint" id={`${id}-to-hint`}>
            A staff member of your organisation.
          </span>
        </label>
        <button type="submit" className="btn" disabled={busy || message?.status === 'pending'}>
          {busy ? 'Asking…' : 'Send a test message'}
        </button>
      </div>
      <p className="small muted">A worker sends it through {providerWords[provider]} with the saved settings; its answer shows here.</p>
      <FormFeedback error={error} errorId={errorId} />
      {message ? (
        <div className={`test-message-result test-message-${message.status}`} role="status" data-testid="test-message-result" data-status={message.status}>
          {message.status === 'pending' ? (
            <p>{waitedLong ? `No answer yet — is a worker running? (still waiting for ${message.to})` : `Sending to ${message.to}…`}</p>
          ) : (
            <>
              <p>
                <strong>{statusWords[message.status]}</strong> · {message.to}
              </p>
              <p className="small">The provider’s answer:</p>
              <pre className="provider-answer" data-testid="provider-answer">
                {message.providerAnswer}
              </pre>
            </>
          )}
        </div>
      ) : null}
    </form>
  );
}
