'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, type FormEvent } from 'react';
import { proposalSentNotice, type PartnershipSide, type PartnershipStep } from '@/domain/organisations/partnership';
import type { AgreementView } from '@/server/organisations/partnerships';
import { ApiError, apiCall } from '@/components/ui/api';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { staleSave } from '@/components/events/ConflictPanel';
import { FormFeedback } from '@/components/ui/FormFeedback';

const stepLabels: Record<PartnershipStep, string> = { propose: 'Propose', accept: 'Accept', decline: 'Decline', end: 'End partnership' };
const stepDone: Record<PartnershipStep, string> = { propose: 'Proposed', accept: 'Accepted', decline: 'Declined', end: 'Ended' };

/**
 * The two ways to start a guest partnership (admins, issue #13): "ask <org> to let us book its people as guests"
 * (this organisation the host) or "let <org> book our people" (the guest). Either is pending until an admin of the
 * other organisation accepts it. POST /api/partnerships `{ step: 'propose', org, side }`.
 */
export function ProposePartnership() {
  const router = useRouter();
  const id = useId();
  const [org, setOrg] = useState('');
  const [side, setSide] = useState<PartnershipSide>('host');
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const r = await apiCall<AgreementView>('/api/partnerships', 'POST', { step: 'propose', org, side });
      setNotice(r.status === 'active' ? `${r.otherName} had proposed it already: the partnership is active now.` : proposalSentNotice(r.otherSlug));
      setOrg('');
      router.refresh();
    } catch (err) {
      setError({ message: err instanceof Error ? err.message.replace(/^[\w.]+: /, '') : String(err), field: err instanceof ApiError ? err.field : undefined });
    } finally {
      setBusy(false);
    }
  }
  const errorId = `${id}-error`;
  return (
    <form className="partnership-propose" onSubmit={onSubmit} noValidate aria-label="Propose a guest partnership">
      <fieldset>
        <legend>Propose a partnership</legend>
        <label className="partnership-choice">
          <input type="radio" name="side" value="host" checked={side === 'host'} onChange={() => setSide('host')} />
          <span>Ask them to let us book their people as guests</span>
        </label>
        <label className="partnership-choice">
          <input type="radio" name="side" value="guest" checked={side === 'guest'} onChange={() => setSide('guest')} />
          <span>Let them book our people as guests</span>
        </label>
      </fieldset>
      <div className="partnership-propose-row">
        <label className="field">
          <span>Their organisation’s short name</span>
          <input name="org" value={org} onChange={(e) => setOrg(e.target.value)} placeholder="partner" autoComplete="off" spellCheck={false} required aria-invalid={error?.field === 'org' || undefined} aria-describedby={error ? errorId : undefined} />
        </label>
        <button type="submit" className="btn btn-primary" disabled={busy || !org.trim()}>
          {busy ? 'Proposing…' : 'Propose'}
        </button>
      </div>
      <FormFeedback error={error} notice={notice} errorId={errorId} />
    </form>
  );
}

/**
 * The buttons of one partnership for this side's admins (accept, decline, end), each sent with the version the
 * admin saw: POST /api/partnerships `{ step, org, side, version }`. A stale version says who changed it and
 * reloads the list.
 */
export function PartnershipSteps({ agreement }: { agreement: AgreementView }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<PartnershipStep | null>(null);
  async function take(step: PartnershipStep) {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await apiCall<AgreementView>('/api/partnerships', 'POST', { step, org: agreement.otherSlug, side: agreement.side, version: agreement.version });
      setNotice(`${stepDone[step]}.`);
      router.refresh();
    } catch (err) {
      const stale = staleSave<AgreementView>(err);
      setError(stale ? `${stale.message} The list now shows it as it is.` : err instanceof Error ? err.message : String(err));
      if (stale) router.refresh();
    } finally {
      setBusy(false);
    }
  }
  if (agreement.steps.length === 0) return null;
  return (
    <div className="partnership-steps">
      <div className="actions">
        {agreement.steps.map((s) => (
          <button
            key={s}
            type="button"
            className={s === 'accept' ? 'btn btn-primary' : 'btn'}
            disabled={busy}
            onClick={() => (s === 'accept' ? void take(s) : setConfirming(s))}
            aria-label={`${stepLabels[s]}: ${agreement.otherName}`}
          >
            {stepLabels[s]}
          </button>
        ))}
      </div>
      <FormFeedback error={error ? { message: error } : null} notice={notice} />
      <ConfirmDialog
        open={confirming !== null}
        title={confirming === 'end' ? `End the partnership with ${agreement.otherName}?` : `Decline the partnership with ${agreement.otherName}?`}
        confirmLabel={confirming ? stepLabels[confirming] : 'Confirm'}
        tone="danger"
        onClose={() => setConfirming(null)}
        onConfirm={async () => {
          if (confirming) await take(confirming);
        }}
      >
        <p className="dialog-consequence">
          {confirming === 'end'
            ? agreement.side === 'host'
              ? `You can no longer book ${agreement.otherName}’s people as guests, and messages to those already booked go out in your own name. Starting again needs their agreement.`
              : `${agreement.otherName} can no longer book our people as guests, and its messages to those already booked go out in its own name. Starting again needs both sides to agree.`
            : 'Nothing changes for either organisation; either side can propose it again later.'}
        </p>
      </ConfirmDialog>
    </div>
  );
}
