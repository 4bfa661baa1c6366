'use client';

import { useRouter } from 'next/navigation';
import QRCode from 'qrcode';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { FormFeedback } from '@/components/ui/FormFeedback';

/** better-auth's answer to one of its endpoints (`/api/auth/…`): the status and its JSON (`{ code, message }` when refused). */
interface AuthAnswer {
  ok: boolean;
  status: number;
  body: Record<string, unknown>;
}

/** POSTs JSON to better-auth's `/api/auth<path>` (same origin, the session cookie goes along). Network failure: status 0. */
async function authPost(path: string, body: unknown): Promise<AuthAnswer> {
  try {
    const res = await fetch(`/api/auth${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), cache: 'no-store' });
    const json = ((await res.json().catch(() => null)) ?? {}) as Record<string, unknown>;
    return { ok: res.ok, status: res.status, body: json };
  } catch {
    return { ok: false, status: 0, body: { message: 'Could not reach the server — check your connection and try again.' } };
  }
}

/** The sentence for a refusal of a password or code check (better-auth codes, our 429 and 403 sentences). */
function refusalText(a: AuthAnswer, what: 'password' | 'code'): { message: string; field?: string } {
  const code = a.body.code;
  const message = typeof a.body.message === 'string' ? a.body.message : null;
  if (a.status === 429 && message) return { message };
  if (code === 'INVALID_PASSWORD') return { message: 'That is not your current password.', field: 'password' };
  if (code === 'INVALID_CODE') return { message: 'That code is not right. Enter the code your app shows now (it changes every 30 seconds).', field: 'code' };
  if (code === 'PASSWORD_TOO_SHORT') return { message: 'The new password is too short: at least 8 characters.', field: 'newPassword' };
  if (code === 'PASSWORD_TOO_LONG') return { message: 'The new password is too long: at most 128 characters.', field: 'newPassword' };
  if (a.status === 401) return { message: 'Your session ended — sign in again.' };
  return { message: message ?? `The ${what} could not be checked (HTTP ${a.status}).` };
}

/**
 * "Change password" on /account: the current password and the new one twice, then better-auth's
 * `/change-password` with `revokeOtherSessions: true` — this browser stays signed in (better-auth issues it a new
 * session), every other session of the account ends (the server forces this, server/accounts/auth-plugin.ts). A wrong
 * current password counts against the sign-in limits like a wrong sign-in.
 */
export function ChangePasswordForm() {
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const currentPassword = String(f.get('currentPassword') ?? '');
    const newPassword = String(f.get('newPassword') ?? '');
    setNotice(null);
    if (!currentPassword) return setError({ message: 'Enter your current password.', field: 'password' });
    if (newPassword.length < 8) return setError({ message: 'The new password needs at least 8 characters.', field: 'newPassword' });
    if (newPassword !== f.get('newPasswordAgain')) return setError({ message: 'The two new passwords are not the same.', field: 'newPasswordAgain' });
    if (newPassword === currentPassword) return setError({ message: 'The new password is the same as the current one.', field: 'newPassword' });
    setBusy(true);
    setError(null);
    const a = await authPost('/change-password', { currentPassword, newPassword, revokeOtherSessions: true });
    setBusy(false);
    if (!a.ok) return setError(refusalText(a, 'password'));
    form.reset();
    setNotice('Password changed. You stay signed in here; every other browser signed in to your account has been signed out.');
  }
  const invalid = (field: string) => (error?.field === field ? true : undefined);
  const describedBy = (field: string) => (error?.field === field ? errorId : undefined);
  return (
    <form className="card form account-card" onSubmit={onSubmit} aria-labelledby="change-password-title" noValidate>
      <h2 id="change-password-title">Change password</h2>
      <p className="muted small">Changing it signs you out everywhere else.</p>
      <div className="form-grid">
        <label className="field">
          <span>Current password</span>
          <input name="currentPassword" type="password" autoComplete="current-password" required aria-invalid={invalid('password')} aria-describedby={describedBy('password')} />
        </label>
        <label className="field">
          <span>New password (8+ characters)</span>
          <input name="newPassword" type="password" autoComplete="new-password" required minLength={8} maxLength={128} aria-invalid={invalid('newPassword')} aria-describedby={describedBy('newPassword')} />
        </label>
        <label className="field">
          <span>New password again</span>
          <input name="newPasswordAgain" type="password" autoComplete="new-password" required minLength={8} maxLength={128} aria-invalid={invalid('newPasswordAgain')} aria-describedby={describedBy('newPasswordAgain')} />
        </label>
      </div>
      <FormFeedback error={error} notice={notice} errorId={errorId} />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}

/** The base32 secret of an `otpauth://` URI, in groups of four for typing into an app by hand. */
function secretOf(totpURI: string): string {
  const secret = new URL(totpURI).searchParams.get('secret') ?? '';
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

type Step = { kind: 'idle' } | { kind: 'password' } | { kind: 'scan'; totpURI: string; qr: string | null; backupCodes: string[] } | { kind: 'codes'; backupCodes: string[] };

/**
 * "Two-factor sign-in" on /account (better-auth's `twoFactor` plugin, TOTP):
 * - off: "Turn on two-factor" → password (`/two-factor/enable`) → a QR code of the `otpauth://` URI (drawn here, as
 *   a data: image — the page CSP allows `img-src data:`) and the secret as text → a code from the app
 *   (`/two-factor/verify-totp`) switches it on → the backup codes, shown this once.
 * - on: "Turn off two-factor" → password (`/two-factor/disable`).
 * Each switch is audited (server/accounts/auth-plugin.ts); a wrong password or code counts against the sign-in limits.
 */
export function TwoFactorPanel({ enabled }: { enabled: boolean }) {
  const router = useRouter();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const scanning = step.kind === 'scan' ? step : null;
  /** Back to the start of the two-factor section, forgetting any error. */
  const cancel = () => {
    setStep({ kind: 'idle' });
    setError(null);
  };
  useEffect(() => {
    if (!scanning || scanning.qr) return;
    let live = true;
    QRCode.toDataURL(scanning.totpURI, { margin: 1, width: 200, errorCorrectionLevel: 'M' })
      .then((qr) => live && setStep((s) => (s.kind === 'scan' && s.totpURI === scanning.totpURI ? { ...s, qr } : s)))
      .catch(() => null);
    return () => {
      live = false;
    };
  }, [scanning]);

  async function onPassword(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get('password') ?? '');
    if (!password) return setError({ message: 'Enter your password.', field: 'password' });
    setBusy(true);
    setError(null);
    const a = await authPost(enabled ? '/two-factor/disable' : '/two-factor/enable', { password });
    setBusy(false);
    if (!a.ok) return setError(refusalText(a, 'password'));
    if (enabled) {
      setStep({ kind: 'idle' });
      router.refresh();
      return;
    }
    setStep({ kind: 'scan', totpURI: String(a.body.totpURI), qr: null, backupCodes: (a.body.backupCodes as string[]) ?? [] });
  }

  async function onCode(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (step.kind !== 'scan') return;
    const code = String(new FormData(e.currentTarget).get('code') ?? '').replace(/\s/g, '');
    if (!/^\d{6}$/.test(code)) return setError({ message: 'Enter the 6-digit code your app shows.', field: 'code' });
    setBusy(true);
    setError(null);
    const a = await authPost('/two-factor/verify-totp', { code });
    setBusy(false);
    if (!a.ok) return setError(refusalText(a, 'code'));
    setStep({ kind: 'codes', backupCodes: step.backupCodes });
  }

  const invalid = (field: string) => (error?.field === field ? true : undefined);
  const describedBy = (field: string) => (error?.field === field ? errorId : undefined);
  return (
    <section className="card account-card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      {step.kind === 'codes' ? (
        <>
          <p className="notice" role="status">
            Two-factor sign-in is on. From now on, signing in asks for a code from your app after your password.
          </p>
          <p>
            <strong>Backup codes</strong> — each signs you in once when you do not have your phone. Save them somewhere safe now: they are not shown again.
          </p>
          <ul className="backup-codes" aria-label="Backup codes">
            {step.backupCodes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
          <div className="actions">
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => {
                setStep({ kind: 'idle' });
                router.refresh();
              }}
            >
              I have saved these codes
            </button>
          </div>
        </>
      ) : step.kind === 'scan' ? (
        <form className="form" onSubmit={onCode} noValidate>
          <p>Scan this code with an authenticator app (such as 1Password, Google Authenticator or FreeOTP), then enter the 6-digit code it shows.</p>
          <div className="totp-setup">
            {step.qr ? (
              // eslint-disable-next-line @next/next/no-img-element -- a data: URL drawn in the browser; nothing to optimise
              <img className="totp-qr" src={step.qr} width={200} height={200} alt="QR code for your authenticator app (the same secret is written out beside it)" />
            ) : (
              <div className="totp-qr" aria-hidden="true" />
            )}
            <div className="totp-secret">
              <span className="muted small">Or type this secret into the app:</span>
              <code data-testid="totp-secret">{secretOf(step.totpURI)}</code>
            </div>
          </div>
          <label className="field totp-code">
            <span>Code from the app</span>
            <input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]*" maxLength={7} required aria-invalid={invalid('code')} aria-describedby={describedBy('code')} />
          </label>
          <FormFeedback error={error} errorId={errorId} />
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? 'Checking…' : 'Confirm and turn on'}
            </button>
            <button
              type="button"
              className="btn"
              onClick={cancel}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <p>
            {enabled ? (
              <>
                <span className="badge badge-ok">On</span> Signing in asks for a code from your authenticator app (or a backup code) after your password.
              </>
            ) : (
              <>
                <span className="badge badge-waiting">Off</span> Add a second step to signing in: a code from an authenticator app on your phone.
              </>
            )}
          </p>
          {step.kind === 'password' ? (
            <form className="form" onSubmit={onPassword} noValidate>
              <label className="field">
                <span>Your password</span>
                <input name="password" type="password" autoComplete="current-password" required autoFocus aria-invalid={invalid('password')} aria-describedby={describedBy('password')} />
              </label>
              <FormFeedback error={error} errorId={errorId} />
              <div className="actions">
                <button type="submit" className={enabled ? 'btn btn-danger' : 'btn btn-primary'} disabled={busy}>
                  {busy ? 'Checking…' : enabled ? 'Turn off two-factor' : 'Continue'}
                </button>
                <button
                  type="button"
                  className="btn"
                  onClick={cancel}
                >
                  Cancel
                </button>
              </div>
            </form>
          ) : (
            <div className="actions">
              <button type="button" className={enabled ? 'btn' : 'btn btn-primary'} onClick={() => setStep({ kind: 'password' })}>
                {enabled ? 'Turn off two-factor' : 'Turn on two-factor'}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
