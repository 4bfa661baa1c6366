'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { staffRoles, type StaffRole } from '@/domain/vocabulary';
import { ApiError, apiCall, newIdempotencyKey } from '@/components/ui/api';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { FormFeedback } from '@/components/ui/FormFeedback';

const roleHelp: Record<StaffRole, string> = {
  admin: 'admin — everything, incl. reminder rules and staff',
  staff: 'staff — events, bookings, nudges, replays, suppressions',
  viewer: 'viewer — read-only',
};

/**
 * An admin's role picker for one account: PUT /api/staff/:id/role `{ role, version }`, then a refresh. A stale
 * `version` (someone changed the account since the page was shown) is refused with 409: the message is shown
 * and the page refreshed, so the select shows the stored role and the next choice carries the latest version.
 */
export function RoleSelect({ userId, name, role, version }: { userId: string; name: string; role: StaffRole; version: number }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<StaffRole>(role);
  // A refresh brings the stored role (and version): show it.
  useEffect(() => setChosen(role), [role, version]);
  return (
    <span className="field">
      <select
        aria-label={`Role of ${name}`}
        value={chosen}
        onChange={async (e) => {
          const next = e.target.value as StaffRole;
          setChosen(next);
          setError(null);
          try {
            await apiCall(`/api/staff/${userId}/role`, 'PUT', { role: next, version });
            router.refresh();
          } catch (err) {
            setChosen(role);
            setError(err instanceof ApiError ? err.message.replace(/^role: /, '') : String(err));
            if (err instanceof ApiError && (err.status === 409 || err.status === 403)) router.refresh();
          }
        }}
      >
        {staffRoles.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      {error ? (
        <span className="form-error small" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}

/**
 * "Invite someone" (admins): name, email, role; POST /api/staff with an idempotency key (a double click invites once).
 * The person gets an email; the answer is the same whether or not their address has an account elsewhere.
 */
export function AddStaffForm() {
  const router = useRouter();
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const key = useRef<string | null>(null);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    key.current ??= newIdempotencyKey();
    const f = new FormData(form);
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const r = await apiCall<{ message: string }>('/api/staff', 'POST', { name: f.get('name'), email: f.get('email'), role: f.get('role') }, { idempotencyKey: key.current });
      key.current = newIdempotencyKey();
      setNotice(r.message);
      form.reset();
      router.refresh();
    } catch (err) {
      if (err instanceof ApiError && err.keyReused) key.current = newIdempotencyKey();
      setError(err instanceof ApiError ? { message: err.message, field: err.field } : { message: String(err) });
    } finally {
      setBusy(false);
    }
  }
  const invalid = (field: string) => (error?.field === field ? true : undefined);
  return (
    <form className="card form add-staff" onSubmit={onSubmit} aria-labelledby="add-staff-title" noValidate>
      <h2 id="add-staff-title">Invite someone</h2>
      <p className="muted small">They get an email with a link to choose their password and join; until they accept, the invitation is listed above (it expires after 7 days).</p>
      <div className="form-grid">
        <label className="field">
          <span>Name</span>
          <input name="name" required maxLength={120} aria-invalid={invalid('name')} />
        </label>
        <label className="field">
          <span>Email</span>
          <input name="email" type="email" required aria-invalid={invalid('email')} />
        </label>
        <label className="field">
          <span>Role</span>
          <select name="role" defaultValue="staff">
            {staffRoles.map((r) => (
              <option key={r} value={r}>
                {roleHelp[r]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <FormFeedback error={error} notice={notice} />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Inviting…' : 'Send invitation'}
        </button>
      </div>
    </form>
  );
}

/**
 * An admin's "Disable" / "Re-enable" for another account (issue #13): a confirmation stating the consequence, then
 * PUT /api/staff/:id/disabled `{ disabled, version }` and a refresh. Disabling signs the account out everywhere at
 * once and stops it signing in until re-enabled. The server's refusal (own account, last active admin, a stale
 * version — then the page is refreshed so the next try carries the latest version) stays in the dialog.
 */
export function DisableAccountButton({ userId, name, disabled, version }: { userId: string; name: string; disabled: boolean; version: number }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={disabled ? 'btn btn-small' : 'btn btn-small btn-danger'} onClick={() => setOpen(true)} aria-label={`${disabled ? 'Re-enable' : 'Disable'} ${name}`}>
        {disabled ? 'Re-enable' : 'Disable'}
      </button>
      <ConfirmDialog
        open={open}
        title={disabled ? `Re-enable ${name}?` : `Disable ${name}?`}
        confirmLabel={disabled ? 'Re-enable account' : 'Disable account'}
        tone={disabled ? 'primary' : 'danger'}
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          try {
            await apiCall(`/api/staff/${userId}/disabled`, 'PUT', { disabled: !disabled, version });
          } catch (err) {
            if (err instanceof ApiError && (err.status === 409 || err.status === 403)) router.refresh();
            throw err;
          }
          router.refresh();
        }}
      >
        <p className="dialog-consequence">
          {disabled ? (
            <>
              <strong>{name}</strong> can sign in again with their password (and two-factor code, if they use one).
            </>
          ) : (
            <>
              <strong>{name}</strong> is signed out everywhere at once and cannot sign in until an admin re-enables the account. Nothing they did is undone; the
              change is in the audit log.
            </>
          )}
        </p>
      </ConfirmDialog>
    </>
  );
}

/** An admin's "Cancel" for a pending invitation: POST /api/staff/invitations/:id/cancel `{ version }`; a stale one says who changed it. */
export function CancelInvitationButton({ id, email, version }: { id: string; email: string; version: number }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function cancel() {
    setBusy(true);
    setError(null);
    try {
      await apiCall(`/api/staff/invitations/${id}/cancel`, 'POST', { version });
      router.refresh();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      router.refresh();
    } finally {
      setBusy(false);
    }
  }
  return (
    <span className="staff-status">
      <button type="button" className="btn btn-small" disabled={busy} onClick={() => void cancel()} aria-label={`Cancel invitation of ${email}`}>
        {busy ? 'Cancelling…' : 'Cancel invitation'}
      </button>
      {error ? (
        <span className="form-error small" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
