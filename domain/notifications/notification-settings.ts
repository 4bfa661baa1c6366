/**
 * The pure parts of saving a tenant's notification settings (issue #9 §2, §4, §5): what changed between the
 * stored settings and a save (for the no-op check and the audit entry), and the webhook switch's bookkeeping.
 * Pure: no I/O; the instant is an argument.
 */
import { bookingRoles, domainEventTypes } from '@/domain/vocabulary';
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
interface WebhookState {
  url: string | null;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: Date | null;
}

/**
 * The webhook's "switched off" record after a save that sets `enabled`. The record says why the SYSTEM switched
 * the endpoint off (the receiver answered 410 Gone: server/sending/send-attempt.ts `disableWebhook`), so staff see it
 * prominently until someone decides; a person switching it on or off is in the audit log instead.
 * - switched on → cleared (someone decided to try the endpoint again);
 * - switched off by this save (it was on) → cleared: a person's own decision needs no warning;
 * - endpoint removed (no URL) → cleared: the warning was about an endpoint that is gone;
 * - left off → the stored reason and instant stay (the 410 stays visible until someone acts on it).
 */
export function webhookSwitch(before: WebhookState | null, next: { enabled: boolean; url: string | null }): { disabledReason: string | null; disabledAt: Date | null } {
  if (next.enabled || before?.enabled || !next.url) return { disabledReason: null, disabledAt: null };
  return { disabledReason: before?.disabledReason ?? null, disabledAt: before?.disabledAt ?? null };
}
