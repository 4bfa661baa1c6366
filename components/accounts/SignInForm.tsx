'use client';

import { useState, type FormEvent } from 'react';
import { safeReturnPath } from '@/domain/accounts/safe-redirect';
import { FormFeedback } from '@/components/ui/FormFeedback';
import { useHydrated } from '@/components/ui/useHydrated';

/** POSTs JSON to better-auth's `/api/auth<path>`; the answer's status, `Retry-After` and JSON body (`{}` when none). */
async function post(path: string, body: unknown): Promise<{ res: Response; body: { message?: string; code?: string; twoFactorRedirect?: boolean } }> {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { res, body: ((await res.json().catch(() => null)) ?? {}) as { message?: string; code?: string; twoFactorRedirect?: boolean } };
}

/** A 429's sentence: the server's ("Too many wrong passwords from your network. Try again in 3 minutes."), else a plain one. */
function tooMany(res: Response, body: { message?: string }): string {
  return body.message ?? `Too many attempts — wait ${res.headers.get('retry-after') ? `${res.headers.get('retry-after')} seconds` : 'a minute'} and try again.`;
}

/**
 * Email + password form posting to better-auth's `/api/auth/sign-in/email`; shows its refusal plainly (a disabled
 * account: the server's "This account has been disabled…"). When the account has two-factor on (issue #13), the
 * answer is `{ twoFactorRedirect: true }` and no session yet: a second step asks for the 6-digit code from the
 * authenticator app (`/api/auth/two-factor/verify-totp`) or a backup code (`/api/auth/two-factor/verify-backup-code`);
 * a wrong code counts against the sign-in limits. After a sign-in it goes to `next` only when that is a path on
 * this app (domain/accounts/safe-redirect.ts), else to the dashboard.
 */
export function SignInForm({ next }: { next: string }) {
  const hydrated = useHydrated();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState<'password' | 'code'>('password');
  const [useBackup, setUseBackup] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const { res, body } = await post('/api/auth/sign-in/email', { email: form.get('email'), password: form.get('password') });
      if (res.ok && body.twoFactorRedirect) {
        setStep('code');
        setBusy(false);
        return;
      }
      if (res.ok) {
        window.location.assign(safeReturnPath(next));
        return;
      }
      setError(res.status === 429 ? tooMany(res, body) : res.status === 401 ? 'Email or password is wrong.' : (body.message ?? `Sign-in failed (HTTP ${res.status}).`));
    } catch {
      setError('Could not reach the server — check your connection and try again.');
    }
    setBusy(false);
  }

  async function onCode(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const code = String(new FormData(e.currentTarget).get('code') ?? '').trim();
    if (!code) return setError(useBackup ? 'Enter one of your backup codes.' : 'Enter the 6-digit code from your authenticator app.');
    setBusy(true);
    setError(null);
    try {
      const { res, body } = await post(useBackup ? '/api/auth/two-factor/verify-backup-code' : '/api/auth/two-factor/verify-totp', {
        code: useBackup ? code : code.replace(/\s/g, ''),
      });
      if (res.ok) {
        window.location.assign(safeReturnPath(next));
        return;
      }
      if (res.status === 429) setError(tooMany(res, body));
      else if (body.code === 'INVALID_CODE') setError('That code is not right. Enter the code your app shows now (it changes every 30 seconds).');
      else if (body.code === 'INVALID_BACKUP_CODE') setError('That backup code is not right, or it was used before.');
      else if (body.code === 'INVALID_TWO_FACTOR_COOKIE' || body.code === 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE') {
        setStep('password');
        setError('This sign-in has expired or had too many wrong codes. Enter your email and password again.');
      } else setError(body.message ?? `Sign-in failed (HTTP ${res.status}).`);
    } catch {
      setError('Could not reach the server — check your connection and try again.');
    }
    setBusy(false);
  }

  const errorLine = <FormFeedback error={error ? { message: error } : null} />;

  if (step === 'code') {
    return (
      <form className="form" method="post" onSubmit={onCode} key={useBackup ? 'backup' : 'totp'} aria-label="Two-factor sign-in">
        <p className="small">Two-factor sign-in is on for this account.</p>
        <label className="field">
          <span>{useBackup ? 'Backup code' : '6-digit code from your authenticator app'}</span>
          {useBackup ? (
            <input name="code" autoComplete="off" autoCapitalize="none" spellCheck={false} required autoFocus />
          ) : (
            <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]*" maxLength={7} required autoFocus />
          )}
        </label>
        {errorLine}
        <button type="submit" className="btn btn-primary" disabled={busy || !hydrated}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          onClick={() => {
            setUseBackup(!useBackup);
            setError(null);
          }}
        >
          {useBackup ? 'Use the code from my app instead' : 'Use a backup code instead'}
        </button>
      </form>
    );
  }

  return (
    <form className="form" method="post" onSubmit={onSubmit} noValidate={false}>
      <label className="field">
        <span>Email</span>
        <input name="email" type="email" autoComplete="username" required autoFocus />
      </label>
      <label className="field">
        <span>Password</span>
        <input name="password" type="password" autoComplete="current-password" required minLength={8} />
      </label>
      {errorLine}
      <button type="submit" className="btn btn-primary" disabled={busy || !hydrated}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
