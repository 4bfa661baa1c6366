'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, type FormEvent } from 'react';
import { describeChanges, mergeEdits, onTopNotice, type FieldChange } from '@/domain/platform/edit-conflict';
import { describeLimit, guestLimits, type GuestLimit } from '@/domain/organisations/guest-sender';
import type { PartnershipView } from '@/server/organisations/partnerships';
import { ApiError, apiCall } from '@/components/ui/api';
import { ConflictPanel, staleSave } from '@/components/events/ConflictPanel';
import { FormFeedback } from '@/components/ui/FormFeedback';

/** Each limit as the admin picks it (domain/organisations/guest-sender.ts). */
const limitLabels: Record<GuestLimit, string> = {
  anyone: 'Anyone they book as our guest',
  contacts: 'Only people in our contacts',
  domains: 'Only addresses at these domains',
  none: 'Nobody: they write in their own name',
};

type Fields = { limit: GuestLimit; domains: string };
const fieldsOf = (p: PartnershipView): Fields => ({ limit: p.limit, domains: p.domains.join(', ') });
const changeFields: { key: keyof Fields & string; label: string; format?: (v: string) => string }[] = [
  { key: 'limit', label: 'Who', format: (v) => limitLabels[v as GuestLimit] ?? v },
  { key: 'domains', label: 'Domains' },
];

/**
 * One partnership as its guest organisation's admins edit it (issue #12): whom the host may write to in our name
 * — radio buttons for the limit and, for "these domains", a text field (commas, spaces or new lines). Saves with
 * PUT /api/partnerships/:hostTenantId and the version it was opened at; a stale save shows the ConflictPanel (what
 * changed; apply my changes on top, or discard) and writes nothing. Read-only (`canEdit` false) for non-admins.
 */
export function PartnershipLimitForm({ partnership, canEdit }: { partnership: PartnershipView; canEdit: boolean }) {
  const router = useRouter();
  const id = useId();
  const [base, setBase] = useState<{ fields: Fields; version: number; saved: PartnershipView }>({ fields: fieldsOf(partnership), version: partnership.version, saved: partnership });
  const [fields, setFields] = useState<Fields>(fieldsOf(partnership));
  const [conflict, setConflict] = useState<{ message: string; latest: PartnershipView; changes: FieldChange[] } | null>(null);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function adopt(next: Fields, latest: PartnershipView, message: string | null) {
    setBase({ fields: fieldsOf(latest), version: latest.version, saved: latest });
    setFields(next);
    setConflict(null);
    setNotice(message);
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const r = await apiCall<PartnershipView>(`/api/partnerships/${partnership.hostTenantId}`, 'PUT', { limit: fields.limit, domains: fields.domains, version: base.version });
      adopt(fieldsOf(r), r, `Saved: ${partnership.hostName} may write in our name to ${r.description}.`);
      router.refresh();
    } catch (err) {
      const stale = staleSave<PartnershipView>(err);
      if (stale) setConflict({ message: stale.message, latest: stale.current, changes: describeChanges(base.fields, fieldsOf(stale.current), changeFields) });
      else setError({ message: err instanceof Error ? err.message.replace(/^[\w.]+: /, '') : String(err), field: err instanceof ApiError ? err.field : undefined });
    } finally {
      setBusy(false);
    }
  }

  const errorId = `${id}-error`;
  const hintId = `${id}-domains-hint`;
  const dirty = JSON.stringify(fields) !== JSON.stringify(base.fields);
  if (!canEdit) {
    return (
      <p className="partnership-limit" data-testid="partnership-limit">
        May write in our name to <strong>{describeLimit(base.saved)}</strong>.
      </p>
    );
  }
  return (
    <form className="partnership-form" onSubmit={onSubmit} noValidate aria-label={`What ${partnership.hostName} may send in our name`}>
      {conflict ? (
        <ConflictPanel
          message={conflict.message}
          changes={conflict.changes}
          onApply={() => adopt(mergeEdits(base.fields, fields, fieldsOf(conflict.latest)).merged, conflict.latest, onTopNotice([]))}
          onDiscard={() => adopt(fieldsOf(conflict.latest), conflict.latest, 'Showing the latest version.')}
        />
      ) : null}
      <fieldset>
        <legend>Who they may write to in our name</legend>
        {guestLimits.map((l) => (
          <label key={l} className="partnership-choice">
            <input type="radio" name={`limit-${partnership.hostTenantId}`} value={l} checked={fields.limit === l} onChange={() => setFields((f) => ({ ...f, limit: l }))} />
            <span>{limitLabels[l]}</span>
          </label>
        ))}
      </fieldset>
      <label className="field partnership-domains">
        <span>Domains{fields.limit === 'domains' ? ' (required)' : ''}</span>
        <input
          name="domains"
          value={fields.domains}
          onChange={(e) => setFields((f) => ({ ...f, domains: e.target.value }))}
          placeholder="partner.example, eu.partner.example"
          required={fields.limit === 'domains'}
          aria-describedby={error?.field === 'domains' ? `${hintId} ${errorId}` : hintId}
          aria-invalid={error?.field === 'domains' ? true : undefined}
        />
        <span id={hintId} className="field-hint">
          Exact domains, separated by commas. A subdomain is listed on its own.
        </span>
      </label>
      <FormFeedback error={error} notice={notice} errorId={errorId} />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy || !dirty}>
          {busy ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}
