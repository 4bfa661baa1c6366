'use client';

import { useRouter } from 'next/navigation';
import { useId, useRef, useState, type FormEvent } from 'react';
import { suppressionReasons, type SuppressionReason } from '@/domain/vocabulary';
import { suppressionReasonLabels } from './suppression-labels';
import { ApiError, apiCall, newIdempotencyKey } from '@/components/ui/api';
import { FormFeedback } from '@/components/ui/FormFeedback';

type FieldName = 'address' | 'reason' | 'note';
const fieldLabels: Record<FieldName, string> = { address: 'Address', reason: 'Reason', note: 'Note' };

/**
 * "Add an address" to the suppression list: POST /api/suppressions `{ address, reason, note }`, then a
 * `router.refresh()` so the server-rendered list shows it. The server's refusal (400 naming the field, 409 when
 * the address is already listed, 403 for a read-only role) is shown beside the form and marks that field.
 * Rendered only for roles that may operate; the route refuses anyone else anyway. Sent with an idempotency
 * key (renewed after each success), so a double click adds once and answers "added", not "already listed".
 */
export function SuppressionForm() {
  const router = useRouter();
  const id = useId();
  const [address, setAddress] = useState('');
  const [reason, setReason] = useState<SuppressionReason>('manual');
  const [note, setNote] = useState('');
  const [error, setError] = useState<{ message: string; field?: FieldName } | null>(null);
  const [added, setAdded] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const key = useRef<string | null>(null);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setAdded(null);
    if (!address.trim()) {
      setError({ message: 'Address: required — the email address or mobile number that must not receive messages.', field: 'address' });
      return;
    }
    setBusy(true);
    setError(null);
    key.current ??= newIdempotencyKey();
    try {
      await apiCall('/api/suppressions', 'POST', { address: address.trim(), reason, note }, { idempotencyKey: key.current });
      key.current = newIdempotencyKey();
      setAdded(address.trim());
      setAddress('');
      setNote('');
      setReason('manual');
      router.refresh();
    } catch (err) {
      if (err instanceof ApiError && err.keyReused) key.current = newIdempotencyKey();
      const field = err instanceof ApiError && ['address', 'reason', 'note'].includes(err.field ?? '') ? (err.field as FieldName) : undefined;
      const message = err instanceof Error ? err.message : String(err);
      // The server names its field in lowercase ("address: …"); show the label the person sees.
      setError({ message: field ? message.replace(new RegExp(`^${field}: `), `${fieldLabels[field]}: `) : message, field });
    } finally {
      setBusy(false);
    }
  }

  const errorId = `${id}-error`;
  const invalid = (f: FieldName) => (error?.field === f ? { 'aria-invalid': true, 'aria-describedby': errorId } : {});
  return (
    <form className="form suppression-form" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Add an address</h2>
      <div className="suppression-form-fields">
        <label className="field">
          <span>Address</span>
          <input name="address" type="text" inputMode="email" autoComplete="off" required value={address} onChange={(e) => setAddress(e.target.value)} placeholder="person@example.com or +31612345678" {...invalid('address')} />
        </label>
        <label className="field">
          <span>Reason</span>
          <select name="reason" value={reason} onChange={(e) => setReason(e.target.value as SuppressionReason)} {...invalid('reason')}>
            {suppressionReasons.map((r) => (
              <option key={r} value={r}>
                {suppressionReasonLabels[r]}
              </option>
            ))}
          </select>
        </label>
        <label className="field suppression-note">
          <span>Note (optional)</span>
          <input name="note" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} placeholder="e.g. asked by phone on Monday" {...invalid('note')} />
        </label>
        <div className="suppression-submit">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Adding…' : 'Add to list'}
          </button>
        </div>
      </div>
      <p className="field-hint">No reminder or message goes to a listed address from now on — it is checked right before every send. The note is kept with the entry and in the audit log.</p>
      <FormFeedback error={error} notice={added ? `${added} is on the suppression list.` : null} errorId={errorId} />
    </form>
  );
}
