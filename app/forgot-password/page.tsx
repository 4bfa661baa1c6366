import type { Metadata } from 'next';
import Link from 'next/link';
import { ForgotPasswordForm } from '@/components/accounts/ForgotPasswordForm';

export const metadata: Metadata = { title: 'Forgot your password?' };

/**
 * "Forgot your password?" (issue #13): asks for the account's address and has better-auth mail a reset link (the
 * worker sends it; server/accounts/password-links.ts). Public, outside the staff shell. The answer is the same whether or
 * not the address has an account.
 */
export default function ForgotPasswordPage() {
  return (
    <main className="signin">
      <div className="signin-card">
        <h1>
          <span className="brand-mark" aria-hidden="true">
            ◷
          </span>{' '}
          Punctual
        </h1>
        <h2 className="signin-subtitle">Forgot your password?</h2>
        <p className="muted">Enter the address you sign in with. If it has an account, we email it a link to choose a new password (it works once, for an hour).</p>
        <ForgotPasswordForm />
        <p className="small">
          <Link href="/sign-in">Back to sign in</Link>
        </p>
      </div>
    </main>
  );
}
