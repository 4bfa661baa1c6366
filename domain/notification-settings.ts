/**
 * The pure parts of saving a tenant's notification settings (issue #9 §2, §4, §5): what changed between the
 * stored settings and a save (for the no-op check and the audit entry), and the webhook switch's bookkeeping.
 * Pure: no I/O; the instant is an argument.
 */
import { bookingRoles, domainEventTypes } from './vocabulary';
import type { NotificationPolicy } from './notification-policy';

/** One changed value: what it was and what it is now. */
export interface Change<T> {
  from: T;
  to: T;
}

/**
 * The cells of a policy that differ, keyed `<type>.<role>` or `<type>.template`, in domain event type order
 * then attendee, external, host, template — e.g. `{ "event_cancelled.host": { from: false, to: true } }`.
 */
export function policyChanges(before: NotificationPolicy, after: NotificationPolicy): Record<string, Change<boolean | string>> {
  const out: Record<string, Change<boolean | string>> = {};
  for (const type of domainEventTypes) {
    const b = before[type];
    const a = after[type];
    for (const role of bookingRoles) if (b[role] !== a[role]) out[`${type}.${role}`] = { from: b[role], to: a[role] };
    if (b.template !== a.template) out[`${type}.template`] = { from: b.template, to: a.template };
  }
  return out;
}

/** The webhook part of the settings as stored. */
export interface WebhookState {
  url: string | null;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: Date | null;
}

/**
 * The webhook's switch after a save that sets `enabled`:
 * - switched on → the disabled reason and instant are cleared (someone decided to try the endpoint again);
 * - switched off by this save (it was on) → reason "switched off by <actor>", at `now`;
 * - left off → the stored reason and instant stay (the 410 that switched it off stays visible);
 * - left on → nothing to record.
 */
export function webhookSwitch(before: WebhookState | null, enabled: boolean, actor: string, now: Date): { disabledReason: string | null; disabledAt: Date | null } {
  if (enabled) return { disabledReason: null, disabledAt: null };
  if (before?.enabled) return { disabledReason: `switched off by ${actor}`, disabledAt: now };
  return { disabledReason: before?.disabledReason ?? null, disabledAt: before?.disabledAt ?? null };
}
