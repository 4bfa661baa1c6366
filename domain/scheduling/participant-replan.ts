/**
 * Re-planning one booking's rule reminders after its participant was edited (issue #12). Pure: the caller
 * passes what is stored and what the planner (domain/scheduling/planning.ts, with the person's channels and quiet hours,
 * server/scheduling/planning.ts `planFor`) says now, and applies the steps in the transaction that writes the edit.
 *
 * What of a person can move a reminder? The event's timing decides the planned due instant; the person only
 * shifts it through their quiet hours, which are read in THEIR zone (domain/notifications/quiet-hours.ts), and decides the
 * channels (a mobile number makes SMS possible). Name, address and language are read when the message is sent.
 * So an edit does not change the event's schedule version (nothing about the event's time changed, and a new
 * version would stale every other editor of the event and re-plan every other participant); the booking's own
 * reminders at the current version are brought in line instead:
 *
 * | stored reminder (same rule and channel)          | step |
 * | ------------------------------------------------ | ---- |
 * | `scheduled`, planned instants differ             | `retime`: same row and message key, new due/expiry instants (as a quiet-hours hold moves it, db/queries/sending/delivery.ts `holdReminder`) |
 * | `scheduled`, same instants                       | keep (`unchanged`) |
 * | `scheduled`, the new plan says `expired`         | keep: the dispatcher ends it `expired` with its reason |
 * | `dispatched` (its send job is queued)            | keep (`handed_over`): the send re-reads the person under the event's lock and holds it for their quiet hours in the new zone (server/sending/send-reminder.ts) |
 * | `done` (claimed, sending or sent)                | keep (`handed_over`): it went out or is going out, once, under its message key (invariant 3) |
 * | ended (`superseded`, `cancelled`, `expired`, `failed`) | keep (`ended`): history; its business key stays taken |
 * | `scheduled`, no longer planned (channel dropped) | keep (`not_planned`): the send path ends it when it falls due — no number, or no longer wanted —, as after a preferences save |
 * | none: planned for a new channel                  | `insert` (a number added → SMS reminders, when they take reminders by SMS) |
 *
 * Nothing is superseded: the message key of a reminder is its business key (rule, booking, schedule version,
 * channel), so a re-timed reminder is still the same one message — a send already claimed for it can never be
 * repeated, and nothing planned is dropped.
 */
import type { Channel, ReminderStatus } from '@/domain/vocabulary';

/** A stored rule reminder of the booking at the event's current schedule version. */
export interface StoredRuleReminder {
  id: string;
  ruleId: string;
  channel: Channel;
  status: ReminderStatus;
  /** UTC instants. */
  dueAt: Date;
  deferredFrom: Date | null;
  expiresAt: Date;
}

/** One reminder as planned now (the planner's output for this booking, after channels and quiet hours). */
export interface PlannedRuleReminder {
  ruleId: string;
  channel: Channel;
  dueAt: Date;
  deferredFrom: Date | null;
  expiresAt: Date;
  status: 'scheduled' | 'expired';
  statusReason: string | null;
}

type ReplanStep<P extends PlannedRuleReminder = PlannedRuleReminder> =
  | { kind: 'retime'; id: string; ruleId: string; channel: Channel; from: { dueAt: Date; deferredFrom: Date | null; expiresAt: Date }; to: { dueAt: Date; deferredFrom: Date | null; expiresAt: Date } }
  | { kind: 'insert'; planned: P }
  | { kind: 'keep'; id: string; why: 'unchanged' | 'expired_by_dispatcher' | 'handed_over' | 'ended' | 'not_planned' };

const same = (a: Date | null, b: Date | null) => (a === null || b === null ? a === b : a.getTime() === b.getTime());
const keyOf = (r: { ruleId: string; channel: Channel }) => `${r.ruleId}|${r.channel}`;

/**
 * The steps that bring `stored` in line with `planned` (module table). One step per stored reminder plus one
 * `insert` per planned reminder without a stored one; order: stored as given, then inserts as planned.
 * At most one stored reminder per (rule, channel) is expected (the business key at one version); a duplicate
 * is kept as it is.
 */
export function participantReplan<P extends PlannedRuleReminder>(stored: readonly StoredRuleReminder[], planned: readonly P[]): ReplanStep<P>[] {
  const plan = new Map<string, P>();
  for (const p of planned) if (!plan.has(keyOf(p))) plan.set(keyOf(p), p);
  const seen = new Set<string>();
  const steps: ReplanStep<P>[] = [];
  for (const s of stored) {
    const k = keyOf(s);
    const first = !seen.has(k);
    seen.add(k);
    const p = first ? plan.get(k) : undefined;
    if (s.status === 'dispatched' || s.status === 'done') steps.push({ kind: 'keep', id: s.id, why: 'handed_over' });
    else if (s.status !== 'scheduled') steps.push({ kind: 'keep', id: s.id, why: 'ended' });
    else if (!p) steps.push({ kind: 'keep', id: s.id, why: 'not_planned' });
    else if (p.status === 'expired') steps.push({ kind: 'keep', id: s.id, why: 'expired_by_dispatcher' });
    else if (same(s.dueAt, p.dueAt) && same(s.deferredFrom, p.deferredFrom) && same(s.expiresAt, p.expiresAt)) steps.push({ kind: 'keep', id: s.id, why: 'unchanged' });
    else
      steps.push({
        kind: 'retime',
        id: s.id,
        ruleId: s.ruleId,
        channel: s.channel,
        from: { dueAt: s.dueAt, deferredFrom: s.deferredFrom, expiresAt: s.expiresAt },
        to: { dueAt: p.dueAt, deferredFrom: p.deferredFrom, expiresAt: p.expiresAt },
      });
  }
  for (const p of planned) {
    const k = keyOf(p);
    if (seen.has(k)) continue;
    seen.add(k);
    steps.push({ kind: 'insert', planned: p });
  }
  return steps;
}
