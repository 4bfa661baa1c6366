'use client';

import { impactLines, pendingText } from '@/domain/rules/rule-impact';
import type { RuleFormState } from './useRuleForm';

/**
 * The rule editor's preview of what saving does to pending reminders of upcoming events (issue #13): "N pending
 * reminders would be added, moved or cancelled", the counts behind it, and the two ways to save — re-plan them /
 * new bookings only (deactivating: cancel them / let them go out); with nothing pending, one save button.
 */
export function RuleImpactPanel({ form }: { form: RuleFormState }) {
  const { impact, busy, deactivating, isNew, save } = form;
  if (!impact) return null;
  return (
    <section className="rule-impact card" aria-label="Pending reminders affected" data-testid="rule-impact">
      <p className="rule-impact-count">
        <strong>{pendingText(impact.pending)}</strong> of upcoming events {deactivating ? 'would be cancelled' : isNew ? 'would be added' : 'would be added, moved or cancelled'}.
      </p>
      {impactLines(impact).length > 1 || impact.pending > 0 ? (
        <ul className="rule-impact-lines small">
          {impactLines(impact).map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      ) : null}
      <p className="small muted">Reminders already handed to a send are never touched; none is planned twice.</p>
      <div className="actions">
        {impact.pending > 0 ? (
          <>
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => save('replan')}>
              {deactivating ? `Save and cancel its ${pendingText(impact.pending)}` : `Save and re-plan ${pendingText(impact.pending)}`}
            </button>
            <button type="button" className="btn" disabled={busy} onClick={() => save('new_only')}>
              {deactivating ? 'Save — let them go out' : 'Save — new bookings only'}
            </button>
          </>
        ) : (
          <button type="button" className="btn btn-primary" disabled={busy} onClick={() => save('new_only')}>
            {isNew ? 'Create rule' : 'Save rule'} — nothing to re-plan
          </button>
        )}
      </div>
    </section>
  );
}
