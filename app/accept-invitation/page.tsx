import type { Metadata } from 'next';
import Link from 'next/link';
import { SetPasswordForm } from '@/components/accounts/SetPasswordForm';
import { getDb } from '@/db/client';
import { INVITATION_UNUSABLE_MESSAGE } from '@/domain/accounts/staff-invitation';
import { MIN_PASSWORD_LENGTH } from '@/domain/organisations/tenant-setup';
import { appClock } from '@/server/platform/clock';
import { invitationLinkView } from '@/server/accounts/staff-invitations';

export const dynamic = 'force-dynamic';
// The token in the address is the credential: never sent on as a Referer, never indexed.
export const metadata: Metadata = { title: 'Accept your invitation', referrer: 'no-referrer', robots: { index: false, follow: false } };

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * Where an invited person accepts a staff invitation (server/accounts/staff-invitations.ts): they choose a password and their
 * account is created in the inviting organisation with the invited role. Public, outside the staff shell. A used,
 * cancelled, replaced or expired link gets one plain sentence.
 */
export default async function AcceptInvitationPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const token = first((await searchParams).token) ?? '';
  const clock = appClock();
  await clock.ready;
  const view = await invitationLinkView(getDb(), token, clock.now());
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
            <h2 className="signin-subtitle">Join {view.orgName}</h2>
            <p className="muted">
              Choose a password for <strong>{view.email}</strong> ({view.name}). At least {MIN_PASSWORD_LENGTH} characters.
            </p>
            <SetPasswordForm token={token} email={view.email} invitation />
          </>
        ) : (
          <>
            <h2 className="signin-subtitle">This invitation cannot be used</h2>
            <p className="form-error" role="alert">
              {INVITATION_UNUSABLE_MESSAGE}
            </p>
            <p className="small">
              <Link href="/sign-in">Sign in</Link>
            </p>
          </>
        )}
      </div>
    </main>
  );
}
