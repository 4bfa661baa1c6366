'use client';

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ApiError } from './api';
import { keepFocusNearby } from './focus-after-removal';
import { FormFeedback } from './FormFeedback';

/**
 * A modal confirmation (native `<dialog>`: focus trap, Esc to close) for one action. It states the
 * consequence, optionally asks for a reason (required, min 3 characters), and shows the server's refusal
 * without closing. `onConfirm` runs the request; the dialog closes when it resolves. Focus then goes back to
 * the button that opened it, or — when that button's row left the page with the action — to the same action
 * in the next row, or the list's heading (./focus-after-removal.ts).
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  tone = 'primary',
  reasonLabel,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  tone?: 'primary' | 'danger';
  /** When set, a required reason field with this label is shown and passed to onConfirm. */
  reasonLabel?: string;
  onConfirm: (reason: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const opener = useRef<Element | null>(null);
  const id = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      setReason('');
      setError(null);
      opener.current = document.activeElement;
      d.showModal();
    }
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={`${id}-title`} onClose={onClose}>
      <form
        method="dialog"
        className="form"
        // Our own check below names the field in the dialog (the browser's bubble would say nothing useful
        // and vanish); `required` stays on the textarea for assistive technology.
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          if (reasonLabel && reason.trim().length < 3) {
            setError(`${reasonLabel}: a reason of at least 3 characters is required.`);
            return;
          }
          setBusy(true);
          setError(null);
          try {
            await onConfirm(reason.trim());
            keepFocusNearby(opener.current);
            onClose();
          } catch (err) {
            setError(err instanceof ApiError || err instanceof Error ? err.message : String(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <h2 id={`${id}-title`}>{title}</h2>
        {children}
        {reasonLabel ? (
          <label className="field">
            <span>{reasonLabel}</span>
            <textarea name="reason" rows={2} aria-required="true" value={reason} onChange={(e) => setReason(e.target.value)} />
          </label>
        ) : null}
        <FormFeedback error={error ? { message: error } : null} />
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={onClose} disabled={busy}>
            Keep as is
          </button>
          <button type="submit" className={`btn ${tone === 'danger' ? 'btn-danger' : 'btn-primary'}`} disabled={busy}>
            {busy ? 'Working…' : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
