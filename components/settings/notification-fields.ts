/**
 * The notification settings editor's vocabulary (components/settings/NotificationSettingsForm.tsx): the matrix's
 * row and column labels, the form's flat fields and how they map to and from the stored settings, and the labels
 * the conflict panel and the error line use.
 */
import type { NotificationPolicy } from '@/domain/notifications/notification-policy';
import { bookingRoles, domainEventTypes, type BookingRole, type DomainEventType } from '@/domain/vocabulary';
import type { NotificationSettingsView } from '@/server/notifications/notification-settings';
import { notificationTemplateLabel } from '@/components/rules/template-labels';

/** The domain event types in staff words (the matrix's rows). */
export const eventTypeLabels: Record<DomainEventType, string> = {
  booking_confirmed: 'A booking is confirmed',
  booking_cancelled: 'A booking is cancelled',
  event_rescheduled: 'An event is rescheduled',
  event_cancelled: 'An event is cancelled',
  participant_added_as_host: 'Someone is added as host',
  event_details_changed: "An event's title, place, online-room link or description changes (when staff choose to tell people)",
  booking_declined: 'A participant says they cannot come',
};
/** The matrix's columns. */
export const roleColumnLabels: Record<BookingRole, string> = { attendee: 'Attendee', external: 'External guest', host: 'Host' };

/** The editable fields, flat: one key per matrix cell (`<type>.<role>`, `<type>.template`), plus sender and endpoint. */
export type Fields = Record<string, string | boolean>;

/** The form's fields for the stored settings `s` (an empty sender or URL as ''). */
export function fieldsOf(s: Pick<NotificationSettingsView, 'policy' | 'smsSender' | 'webhookUrl' | 'webhookEnabled'>): Fields {
  const f: Fields = {};
  for (const t of domainEventTypes) {
    for (const r of bookingRoles) f[`${t}.${r}`] = s.policy[t][r];
    f[`${t}.template`] = s.policy[t].template;
  }
  f.smsSender = s.smsSender ?? '';
  f.webhookUrl = s.webhookUrl ?? '';
  f.webhookEnabled = s.webhookEnabled;
  return f;
}

/** The policy the matrix cells of `f` describe. */
export function policyOf(f: Fields): NotificationPolicy {
  return Object.fromEntries(
    domainEventTypes.map((t) => [t, { attendee: f[`${t}.attendee`] === true, external: f[`${t}.external`] === true, host: f[`${t}.host`] === true, template: String(f[`${t}.template`]) }]),
  ) as NotificationPolicy;
}

/** The conflict panel's rows: each field's label and how its value reads. */
export const changeFields: { key: string; label: string; format?: (v: unknown) => string }[] = [
  ...domainEventTypes.flatMap((t) => [
    ...bookingRoles.map((r) => ({ key: `${t}.${r}`, label: `${eventTypeLabels[t]} — ${roleColumnLabels[r].toLowerCase()}`, format: (v: unknown) => (v ? 'notified' : 'not notified') })),
    { key: `${t}.template`, label: `${eventTypeLabels[t]} — template`, format: (v: unknown) => notificationTemplateLabel(String(v)) },
  ]),
  { key: 'smsSender', label: 'SMS sender' },
  { key: 'webhookUrl', label: 'Webhook endpoint URL' },
  { key: 'webhookEnabled', label: 'Webhook endpoint', format: (v) => (v ? 'on' : 'off') },
];

/** The error line's names for the fields outside the matrix. */
export const fieldLabels: Record<string, string> = { smsSender: 'SMS sender', webhookUrl: 'Endpoint URL', webhookEnabled: 'Webhook endpoint', version: 'Version' };

/** The fields `keys` of `f`. */
export function pick(f: Fields, keys: string[]): Fields {
  return Object.fromEntries(keys.map((k) => [k, f[k]]));
}
