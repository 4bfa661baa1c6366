/**
 * Wording of a reminder rule's create / change / deactivation answer (issue #13). Pure. The counts come from
 * domain/rules/rule-impact.ts as APPLIED in the writing transaction; when they differ from what the page previewed
 * (someone booked or cancelled meanwhile) the sentence says both numbers.
 */
import { pendingText, type RuleImpactCounts } from './rule-impact';

/** `replan`: apply the rule to pending reminders now (one transaction); `new_only`: leave planned reminders be. */
export type RuleChoice = 'replan' | 'new_only';

/**
 * The sentence shown after a save, e.g. "Created “2 hours before”. Re-planned 40 pending reminders: 40 new."
 * @param o.verb "Created" or "Saved".
 * @param o.deactivated the save turned an active rule inactive (the choices read "cancel" / "let them go out").
 * @param o.previewPending the count the page showed (null: none shown).
 * @param o.applied the applied counts (null for `new_only`).
 */
export function appliedMessage(o: { verb: 'Created' | 'Saved'; name: string; choice: RuleChoice; deactivated: boolean; previewPending: number | null; applied: RuleImpactCounts | null }): string {
  const head = `${o.verb} “${o.name}”${o.deactivated ? ': inactive' : ''}.`;
  if (o.choice === 'new_only' || !o.applied) {
    if (o.deactivated) return `${head} Its pending reminders still go out; nothing new is planned from it.`;
    if (o.verb === 'Created') return `${head} Reminders already planned are unchanged; bookings from now on get it.`;
    return `${head} Reminders already planned keep their due instant; new bookings and rescheduled events follow it.`;
  }
  const a = o.applied;
  const differs = o.previewPending !== null && o.previewPending !== a.pending;
  const since = differs ? ` (the preview said ${o.previewPending}: bookings changed meanwhile)` : '';
  let body: string;
  if (o.deactivated) body = `Cancelled ${pendingText(a.pending)}${since}.`;
  else {
    const parts = [a.added ? `${a.added} new` : null, a.moved ? `${a.moved} moved` : null, a.cancelled ? `${a.cancelled} cancelled` : null].filter(Boolean);
    body = `Re-planned ${pendingText(a.pending)}${since}${parts.length ? `: ${parts.join(', ')}` : ''}.`;
  }
  const due = a.pastDue ? ` ${a.pastDue} would already be due — not planned.` : '';
  return `${head} ${body}${due}`;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/**
 * The answer of a rule save read back from its audit entry (server/rules/rules.ts writes `choice`, `pendingPreviewed`,
 * `pendingApplied`, `remindersAdded`/`Moved`/`Cancelled`, `alreadyDueNotPlanned`, and for a deactivation
 * `pendingReminders`), for /rules?saved=. Null when the details are not a rule write of issue #13 (no `choice`).
 */
export function messageFromAudit(action: string, details: unknown): string | null {
  const d = (details && typeof details === 'object' ? details : {}) as Record<string, unknown>;
  if (d.choice !== 'replan' && d.choice !== 'new_only') return null;
  const to = (d.to && typeof d.to === 'object' ? d.to : {}) as Record<string, unknown>;
  const name = typeof d.name === 'string' ? d.name : typeof to.name === 'string' ? to.name : 'the rule';
  const replan = d.choice === 'replan';
  return appliedMessage({
    verb: action === 'rule_create' ? 'Created' : 'Saved',
    name,
    choice: d.choice,
    deactivated: typeof d.pendingReminders === 'string',
    previewPending: typeof d.pendingPreviewed === 'number' ? d.pendingPreviewed : null,
    applied: replan
      ? { pending: num(d.pendingApplied), added: num(d.remindersAdded), moved: num(d.remindersMoved), cancelled: num(d.remindersCancelled), pastDue: num(d.alreadyDueNotPlanned), handedOver: 0, ended: 0, unreachable: 0 }
      : null,
  });
}
