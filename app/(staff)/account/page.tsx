import type { Metadata } from 'next';
import { eq } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { staffUsers } from '@/db/schema';
import { ChangePasswordForm, TwoFactorPanel } from '@/components/accounts/AccountSettings';
import { requireStaff } from '@/app/_http/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Your account' };

/**
 * Your account (issue #13): the signed-in staff member's own settings — change password (ends every other session
 * of the account) and optional TOTP two-factor sign-in (turn on with a QR code and a confirming code, turn off
 * with the password). Name, email and role are set by an admin on the Staff page.
 */
export default async function AccountPage() {
  const { user, tenant } = await requireStaff();
  const [row] = await getDb().select({ twoFactorEnabled: staffUsers.twoFactorEnabled }).from(staffUsers).where(eq(staffUsers.id, user.id));
  return (
    <>
      <div className="page-head">
        <h1>Your account</h1>
        <p className="muted wrap-anywhere">
          {user.name} · {user.email} · {user.role} in {tenant.name} · an admin changes your name, email or role
        </p>
      </div>
      <div className="account-grid">
        <ChangePasswordForm />
        <TwoFactorPanel enabled={!!row?.twoFactorEnabled} />
      </div>
    </>
  );
}
