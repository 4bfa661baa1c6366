'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { announce } from '@/components/ui/Announcer';
import { apiCall } from '@/components/ui/api';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';

/** Name of the per-card checkboxes this bar reads (`<input name=… value=deliveryId>`). */
export const SELECT_NAME = 'dead-letter';

type Result = { replayed: number; results: { id: string; ok: boolean; error?: string }[] };

/** The address shown beside a dead letter's checkbox (its label), else its delivery id. */
function addressOf(id: string): string {
  const input = Array.from(document.querySelectorAll<HTMLInputElement>(`input[name="${SELECT_NAME}"]`)).find((i) => i.value === id);
  return input?.closest('label')?.textContent?.trim() || id;
}

/**
 * "Select all" + "Replay selected (n)" for the dead letters on the page; reports per-item refusals, and names the
 * recipients replayed in the page's polite notice (components/ui/Announcer.tsx): the cards leave the list.
 */
export function ReplaySelection({ total }: { total: number }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [outcome, setOutcome] = useState<string | null>(null);
  const read = () => Array.from(document.querySelectorAll<HTMLInputElement>(`input[name="${SELECT_NAME}"]:checked`)).map((i) => i.value);
  return (
    <div className="actions selection-bar">
      <label className="field-check">
        <input
          type="checkbox"
          onChange={(e) => {
            document.querySelectorAll<HTMLInputElement>(`input[name="${SELECT_NAME}"]`).forEach((i) => (i.checked = e.target.checked));
          }}
        />
        <span>Select all {total}</span>
      </label>
      <button
        type="button"
        className="btn btn-primary btn-small"
        onClick={() => {
          const ids = read();
          setSelected(ids);
          setOutcome(ids.length === 0 ? 'Select at least one dead letter first.' : null);
          if (ids.length) setOpen(true);
        }}
      >
        Replay selected
      </button>
      {outcome ? (
        <span className="small" role="status">
          {outcome}
        </span>
      ) : null}
      <ConfirmDialog
        open={open}
        title={`Replay ${selected.length} dead letter${selected.length === 1 ? '' : 's'}?`}
        confirmLabel="Replay now"
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          const r = await apiCall<Result>('/api/deliveries/replay', 'POST', { ids: selected });
          const refused = r.results.filter((x) => !x.ok);
          const why = refused.length ? `${refused.length} refused: ${refused.map((x) => x.error).join('; ')}` : '';
          setOutcome(`${r.replayed} replayed${why ? `; ${why}` : ''}.`);
          const to = r.results.filter((x) => x.ok).map((x) => addressOf(x.id));
          announce({
            key: `replay-selected:${selected.join(',')}`,
            // The count goes into the notice too: the bar (and its status line) leaves the page with the last card.
            text: `${to.length ? `${r.replayed} replayed: sending to ${to.join(', ')} again now.` : 'Nothing replayed.'}${why ? ` ${why}.` : ''}`,
            tone: refused.length ? 'warn' : 'ok',
          });
          router.refresh();
        }}
      >
        <p className="dialog-consequence">Each is queued again under its own message key with a fresh retry budget; any whose expiry instant has passed is refused and stays.</p>
      </ConfirmDialog>
    </div>
  );
}
