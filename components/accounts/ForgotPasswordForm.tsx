'use client';

import { useState, type FormEvent } from 'react';
import { FormFeedback } from '@/components/ui/FormFeedback';
import { useHydrated } from '@/components/ui/useHydrated';

/** The answer for every address, with an account or not (nothing tells them apart). */
const RESET_REQUESTED_MESSAGE = 'If that address has an account, a link to choose a new password is on its way. It works once, for an hour. Nothing arrived? Check the spam folder, or ask an admin.';

/**
 * The form of /forgot-password (issue #13): POSTs the address to better-auth's `/api/auth/request-password-reset`.
 * Shows the same sentence for every address; a 429 (sign-in limits, server/accounts/auth.ts) shows the server's sentence.
 */
export function ForgotPasswordForm() {
  const hydrated = useHydrated();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const res = await fetch('/api/auth/request-password-reset', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: String(form.get('email') ?? '').trim() }),
      });
      if (res.ok) {
        setDone(true);
      } else {
        const body = (await res.json().catch(() => null)) as { message?: string } | null;
        setError(res.status === 400 ? 'Enter an email address such as you@example.org.' : (body?.message ?? `The request failed (HTTP ${res.status}).`));
      }
    } catch {
      setError('Could not reach the server — check your connection and try again.');
    }
    setBusy(false);
  }
  if (done) {
    return <FormFeedback error={null} notice={RESET_REQUESTED_MESSAGE} />;
  }
  return (
    <form className="form" method="post" onSubmit={onSubmit}>
      <label className="field">
        <span>Email</span>
        <input name="email" type="email" autoComplete="username" required autoFocus />
      </label>
      <FormFeedback error={error ? { message: error } : null} />
      <button type="submit" className="btn btn-primary" disabled={busy || !hydrated}>
        {busy ? 'Sending…' : 'Email me a link'}
      </button>
    </form>
  );
}
