import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/accounts/SignInForm';
import { safeReturnPath } from '@/domain/accounts/safe-redirect';
import { getStaffSession } from '@/app/_http/session';
import { ACCOUNT_DISABLED_MESSAGE } from '@/server/accounts/auth-plugin';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sign in' };

/**
 * Staff sign-in (email + password). Already signed in → the dashboard, or `next` when it is a path on this app
 * (domain/accounts/safe-redirect.ts: anything that would leave the origin, such as `/\evil.example`, goes to the dashboard).
 * `?disabled=1` (a page request of a disabled account, app/_http/session.ts) says the account has been disabled.
 */
export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[]; password?: string | string[]; disabled?: string | string[] }> }) {
  const sp = await searchParams;
  const next = safeReturnPath(sp.next);
  // `password=set`: set by /set-password when the password was set but signing in with it straight away did not work.
  if (await getStaffSession()) redirect(next);
  return (
    <main className="signin">
      <div className="signin-card">
        <h1>
          <span className="brand-mark" aria-hidden="true">
            ◷
          </span>{' '}
          Punctual
        </h1>
        <p className="muted">Sign in to run your events and their reminders.</p>
        {sp.disabled ? (
          <p className="notice notice-warn" role="status">
            {ACCOUNT_DISABLED_MESSAGE}
          </p>
        ) : null}
        {sp.password === 'set' ? (
          <p className="notice" role="status">
            Your password is set — sign in with it.
          </p>
        ) : null}
        <SignInForm next={next} />
        <p className="small">
          <Link href="/forgot-password">Forgot your password?</Link>
        </p>
        <p className="muted small">
          Running the demo? <code>npm start</code> prints the demo accounts.
        </p>
      </div>
    </main>
  );
}
