'use client';

import { useState, type FormEvent } from 'react';
import { checkNewPassword, LINK_UNUSABLE_MESSAGE, MIN_PASSWORD_LENGTH } from '@/domain/organisations/tenant-setup';
import { FormFeedback } from '@/components/ui/FormFeedback';
import { useHydrated } from '@/components/ui/useHydrated';

/**
 * The two password fields of /set-password (issue #13). Checked here first (domain/organisations/tenant-setup.ts checkNewPassword),
 * then POSTed to better-auth's `/api/auth/reset-password` with the link's token, which spends it. Then it signs in
 * with the new password and goes to the dashboard; if that sign-in is refused (e.g. the sign-in limits), it goes
 * to /sign-in with a notice instead. better-auth's INVALID_TOKEN (used or expired meanwhile) reads as one sentence.
 */
export function SetPasswordForm({ token, email, invitation = false }: { token: string; email: string; /** Accepting a staff invitation (POST /api/invitations/accept) instead of a password link. */ invitation?: boolean }) {
  const hydrated = useHydrated();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = String(form.get('password') ?? '');
    const problem = checkNewPassword(password, String(form.get('repeat') ?? ''));
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(invitation ? '/api/invitations/accept' : '/api/auth/reset-password', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(invitation ? { token, password } : { token, newPassword: password }),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { code?: string; message?: string; error?: string } | null;
        setError(body?.code === 'INVALID_TOKEN' ? LINK_UNUSABLE_MESSAGE : (body?.message ?? body?.error?.replace(/^\w+: /, '') ?? `The password could not be set (HTTP ${res.status}).`));
        setBusy(false);
        return;
      }
      const signIn = await fetch('/api/auth/sign-in/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      }).catch(() => null);
      window.location.assign(signIn?.ok ? '/' : '/sign-in?password=set');
    } catch {
      setError('Could not reach the server — check your connection and try again.');
      setBusy(false);
    }
  }
  return (
    <form className="form" method="post" onSubmit={onSubmit}>
      {/* For password managers: the account this password belongs to. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <label className="field">
        <span>New password</span>
        <input name="password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} maxLength={128} autoFocus />
      </label>
      <label className="field">
        <span>The same password again</span>
        <input name="repeat" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} maxLength={128} />
      </label>
      <FormFeedback error={error ? { message: error } : null} />
      <button type="submit" className="btn btn-primary" disabled={busy || !hydrated}>
        {busy ? 'Setting your password…' : 'Set password and sign in'}
      </button>
    </form>
  );
}
