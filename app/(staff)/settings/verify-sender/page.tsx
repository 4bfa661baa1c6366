import type { Metadata } from 'next';
import { ConfirmSenderButton } from '@/components/settings/ConfirmSenderButton';
import { getDb } from '@/db/client';
import { can } from '@/domain/accounts/permissions';
import { appClock } from '@/server/platform/clock';
import { verificationLinkView } from '@/server/organisations/sender-identity';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/settings.css';

export const dynamic = 'force-dynamic';
// The token in the address is the credential: never sent on as a Referer, never indexed.
export const metadata: Metadata = { title: 'Verify the sender address', referrer: 'no-referrer', robots: { index: false, follow: false } };

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * Where a sender verification link lands (server/organisations/sender-identity.ts): an admin of the link's organisation, signed in
 * (the sign-in page brings them back here), confirms with a button — a GET never verifies, so a mail scanner that
 * opens links verifies nothing. A link of another organisation, used, expired, or for an address the organisation no
 * longer has gets one plain sentence.
 */
export default async function VerifySenderPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { tenant, user } = await requireStaff();
  const token = first((await searchParams).token) ?? '';
  const clock = appClock();
  await clock.ready;
  const view = await verificationLinkView(getDb(), tenant.id, token, clock.now());
  return (
    <>
      <div className="page-head">
        <h1>Verify the sender address</h1>
      </div>
      <section className="card" aria-labelledby="verify-title">
        {view.usable ? (
          <>
            <h2 id="verify-title">{view.address}</h2>
            <p>
              Confirm that {view.orgName}’s reminders and other mail may go out from <strong>{view.address}</strong>. Until then they go out from this
              deployment’s own address, with Reply-To {view.address}.
            </p>
            {can(user.role, 'configure') ? (
              <ConfirmSenderButton token={token} address={view.address} />
            ) : (
              <p className="notice notice-warn">Only an admin of {view.orgName} can confirm it: ask one to open this link.</p>
            )}
          </>
        ) : (
          <>
            <h2 id="verify-title">This link cannot be used</h2>
            <p data-testid="verify-sender-refusal">{view.reason}</p>
            <p>
              <a href="/settings">Back to the settings</a>
            </p>
          </>
        )}
      </section>
    </>
  );
}
