import type { Metadata } from 'next';
import Link from 'next/link';
import { SetPasswordForm } from '@/components/accounts/SetPasswordForm';
import { getDb } from '@/db/client';
import { LINK_UNUSABLE_MESSAGE, MIN_PASSWORD_LENGTH } from '@/domain/organisations/tenant-setup';
import { appClock } from '@/server/platform/clock';
import { passwordLinkView } from '@/server/accounts/password-links';

export const dynamic = 'force-dynamic';
// The token in the address is the credential: never sent on as a Referer (proxy.ts sets the header too), never indexed.
export const metadata: Metadata = { title: 'Choose a password', referrer: 'no-referrer', robots: { index: false, follow: false } };

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * Where a person chooses a password with a one-time link (issue #13): the link `npm run tenant` prints for a new
 * admin (24 h) or the one "Forgot your password?" mails (1 h). Public, outside the staff shell. The token is only
 * looked up here; better-auth's /api/auth/reset-password spends it when the form is sent (components/accounts/SetPasswordForm).
 * A used, replaced, expired or unknown link gets one plain sentence, never a stack trace.
 */
export default async function SetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const token = first((await searchParams).token) ?? '';
  const clock = appClock();
  await clock.ready;
  const view = await passwordLinkView(getDb(), token, clock.now());
  return (
    <main className="signin">
      <div className="signin-card">
        <h1>
          <span className="brand-mark" aria-hidden="true">
            ◷
          </span>{' '}
          Punctual
        </h1>
        {view.usable ? (
          <>
            <h2 className="signin-subtitle">{view.hasPassword ? 'Choose a new password' : 'Choose your password'}</h2>
            <p className="muted">
              For <strong>{view.email}</strong> at {view.orgName}. At least {MIN_PASSWORD_LENGTH} characters. {view.hasPassword ? 'Setting it signs you out everywhere else.' : ''}
            </p>
            <SetPasswordForm token={token} email={view.email} />
          </>
        ) : (
          <>
            <h2 className="signin-subtitle">This link cannot be used</h2>
            <p className="form-error" role="alert">
              {LINK_UNUSABLE_MESSAGE}
            </p>
            <p className="small">
              <Link href="/sign-in">Sign in</Link> · <Link href="/forgot-password">Forgot your password?</Link>
            </p>
          </>
        )}
      </div>
    </main>
  );
}
