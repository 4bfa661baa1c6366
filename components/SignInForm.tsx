'use client';

import { useState, type FormEvent } from 'react';
import { safeReturnPath } from '../domain/safe-redirect';

/**
 * Email + password form posting to better-auth's `/api/auth/sign-in/email`; shows its refusal plainly. After a
 * sign-in it goes to `next` only when that is a path on this app (domain/safe-redirect.ts), else to the dashboard.
 */
export function SignInForm({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const res = await fetch('/api/auth/sign-in/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: form.get('email'), password: form.get('password') }),
      });
      if (res.ok) {
        window.location.assign(safeReturnPath(next));
        return;
      }
      const body = (await res.json().catch(() => null)) as { message?: string } | null;
      setError(
        res.status === 429
          ? // The server's sentence says how long to wait ("Too many wrong passwords from your network. Try again in 3 minutes.").
            (body?.message ?? `Too many attempts — wait ${res.headers.get('retry-after') ? `${res.headers.get('retry-after')} seconds` : 'a minute'} and try again.`)
          : res.status === 401
            ? 'Email or password is wrong.'
            : (body?.message ?? `Sign-in failed (HTTP ${res.status}).`),
      );
    } catch {
      setError('Could not reach the server — check your connection and try again.');
    }
    setBusy(false);
  }
  return (
    <form className="form" onSubmit={onSubmit} noValidate={false}>
      <label className="field">
        <span>Email</span>
        <input name="email" type="email" autoComplete="username" required autoFocus />
      </label>
      <label className="field">
        <span>Password</span>
        <input name="password" type="password" autoComplete="current-password" required minLength={8} />
      </label>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
