/**
 * How an audit entry reads on the audit log page (issue #4 item 7): the human wording of each action, the
 * entry's subject (which event, delivery, address or rule it is about) and a compact list of its other
 * details. Pure; the page renders what these return.
 *
 * `details` is the entry's jsonb as written by server/scheduling/staff-actions.ts, server/sending/nudge.ts and
 * server/sending/operator.ts, e.g. `{ eventId, title }`, `{ eventId, bookingId, email, role }`, `{ address,
 * suppressionReason }`, `{ ruleId, from: {…}, to: {…} }`, `{ fromStatus, messageKey }`. Anything unexpected
 * is shown as-is, never dropped silently and never trusted as a link target unless it is a UUID.
 */
import type { AuditAction } from '@/domain/vocabulary';

/** Each action as a short past-tense phrase, e.g. "Replayed a dead letter". */
export const auditActionLabels: Record<AuditAction, string> = {
  replay: 'Replayed a dead letter',
  discard: 'Discarded a delivery',
  mark_sent: 'Marked as sent',
  send_again: 'Sent again',
  reconcile: 'Reconciled with the provider',
  nudge: 'Reminded a participant',
  event_create: 'Created an event',
  event_update: 'Edited an event',
  event_reschedule: 'Rescheduled an event',
  event_cancel: 'Cancelled an event',
  booking_add: 'Added a booking',
  booking_cancel: 'Cancelled a booking',
  suppression_add: 'Suppressed an address',
  suppression_remove: 'Removed a suppression',
  rule_update: 'Edited a reminder rule',
  rule_create: 'Created a reminder rule',
  rule_delete: 'Deleted a reminder rule',
  staff_add: 'Added a staff account',
  staff_invite: 'Invited someone to join as staff',
  staff_invite_cancel: 'Cancelled a staff invitation',
  staff_invite_accept: 'Accepted a staff invitation',
  message_text_publish: 'Published message text',
  message_text_rollback: 'Rolled message text back to an earlier version',
  message_text_reset: "Reset message text to Punctual's text",
  first_day_dismiss: 'Dismissed the first-day checklist',
  announcement_create: 'Wrote to the people of an event',
  announcement_cancel: 'Cancelled a scheduled announcement',
  calendar_feed_rotate: 'Rotated a calendar feed URL',
  calendar_feed_update: 'Changed a calendar feed',
  staff_role: 'Changed a staff role',
  policy_update: 'Changed the notification policy',
  preferences_update: "Changed a participant's preferences",
  webhook_update: 'Changed the webhook endpoint',
  unsubscribe: 'Unsubscribed (one-click link)',
  alert_settings_update: 'Changed where alerts go',
  participant_update: 'Edited a participant',
  participants_import: 'Imported participants from a CSV file',
  guest_message: 'Sent in your name by a partner',
  partnership_update: 'Changed whom a partner may write to in your name',
  tenant_create: 'Created the organisation',
  sign_in_link: 'Issued a one-time sign-in link',
  password_reset: 'Set a password through a link',
  settings_update: 'Changed the organisation settings',
  settings_test_message: 'Asked for a test message',
  partnership_propose: 'Proposed a guest partnership',
  partnership_accept: 'Accepted a guest partnership',
  partnership_decline: 'Declined a guest partnership',
  partnership_end: 'Ended a guest partnership',
  export: 'Exported a CSV file',
  password_change: 'Changed their password',
  two_factor_on: 'Turned on two-factor sign-in',
  two_factor_off: 'Turned off two-factor sign-in',
  staff_disable: 'Disabled a staff account',
  staff_enable: 'Re-enabled a staff account',
  sender_verify: 'Verified the sender address',
};

/** What an `export` entry's `details.what` (server/people/csv-exports.ts) reads as. */
const exportLabels: Record<string, string> = {
  participants: "Exported an event's participants (CSV)",
  deliveries: 'Exported the deliveries log (CSV)',
  audit: 'Exported the audit log (CSV)',
};

/**
 * The wording of `action`; an action this build does not know reads as itself with spaces. With the entry's
 * `details`, a `booking_add` that re-booked a person after a cancellation (`rebook: true`, written by
 * server/scheduling/staff-actions.ts) reads "Booked a participant again"; an `export` names what was exported ("Exported the
 * audit log (CSV)").
 */
export function auditActionLabel(action: string, details?: unknown): string {
  if (action === 'booking_add' && asDetails(details).rebook === true) return 'Booked a participant again';
  if (action === 'export') {
    const what = asDetails(details).what;
    if (typeof what === 'string' && what in exportLabels) return exportLabels[what];
  }
  return (auditActionLabels as Record<string, string>)[action] ?? action.replace(/_/g, ' ');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

type Details = Record<string, unknown>;
const asDetails = (d: unknown): Details => (d && typeof d === 'object' && !Array.isArray(d) ? (d as Details) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const uuid = (v: unknown): string | undefined => (typeof v === 'string' && UUID.test(v) ? v : undefined);

/** What an entry is about; every field optional (an entry can name an event and a person at once). */
interface AuditSubject {
  /** Link target /events/<eventId> (a UUID). */
  eventId?: string;
  /** The event's title as recorded in the entry (the page prefers the current title when it has one). */
  eventTitle?: string;
  /** Link target /deliveries/<deliveryId> (a UUID). */
  deliveryId?: string;
  /** A person's or a suppressed address (booking and suppression entries). */
  address?: string;
  /** Link target /rules (rule entries), with the rule's name when recorded. */
  ruleId?: string;
  ruleName?: string;
}

/** Keys shown as the subject, so compactDetails leaves them out. */
const subjectKeys = ['eventId', 'title', 'deliveryId', 'address', 'email', 'ruleId', 'bookingId', 'reminderId'] as const;

/**
 * The subject of an entry: its delivery (the `delivery_id` column, else `details.deliveryId`), event
 * (`details.eventId` with `details.title`), address (`details.address`, else the booking's `details.email`)
 * and rule (`details.ruleId`, named by `details.to.name` or `details.from.name`). Ids that are not UUIDs are
 * not returned (no link is built from them; compactDetails still shows them).
 */
export function auditSubject(entry: { deliveryId?: string | null; details?: unknown }): AuditSubject {
  const d = asDetails(entry.details);
  const s: AuditSubject = {};
  const deliveryId = uuid(entry.deliveryId) ?? uuid(d.deliveryId);
  if (deliveryId) s.deliveryId = deliveryId;
  const eventId = uuid(d.eventId);
  if (eventId) s.eventId = eventId;
  const title = str(d.title);
  if (title) s.eventTitle = title;
  const address = str(d.address) ?? str(d.email);
  if (address) s.address = address;
  const ruleId = uuid(d.ruleId);
  if (ruleId) {
    s.ruleId = ruleId;
    const name = str(asDetails(d.to).name) ?? str(asDetails(d.from).name) ?? str(d.name);
    if (name) s.ruleName = name;
  }
  return s;
}

/** One compact "label: value" pair of an entry's details. */
interface DetailItem {
  /** The key in words: `remindersCancelled` → "reminders cancelled", `from.startsAt` → "starts at". */
  label: string;
  value: string;
}

const words = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase();
const MAX_VALUE = 120;

function show(v: unknown, formatInstant: (iso: string) => string): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') {
    const text = ISO_INSTANT.test(v) ? formatInstant(v) : v;
    return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null)) return v.map((x) => show(x, formatInstant)).join(', ') || '(none)';
  const json = JSON.stringify(v);
  return json.length > MAX_VALUE ? `${json.slice(0, MAX_VALUE - 1)}…` : json;
}

/**
 * The entry's details minus its subject, as short pairs in the order written. A `from`/`to` pair of objects
 * (a reschedule, a rule edit) becomes one pair per changed key, "offset: -P1D → -PT2H"; unchanged keys are
 * left out. A `changes` list of `{ field, from, to }` (an event's details) becomes one pair per field, "location: Room A →
 * Garden B". ISO instants are shown through `formatInstant` (the page passes one that names the tenant's
 * zone). Values are cut at 120 characters.
 */
export function compactDetails(details: unknown, formatInstant: (iso: string) => string = (iso) => iso): DetailItem[] {
  const d = asDetails(details);
  const skip = new Set<string>(subjectKeys);
  const items: DetailItem[] = [];
  const from = d.from, to = d.to;
  const isObj = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);
  const diff = isObj(from) && isObj(to);
  for (const [key, value] of Object.entries(d)) {
    if (skip.has(key)) continue;
    if (diff && (key === 'from' || key === 'to')) {
      if (key === 'to') continue;
      const a = from as Details, b = to as Details;
      for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])]) {
        if (JSON.stringify(a[k]) === JSON.stringify(b[k])) continue;
        items.push({ label: words(k), value: `${show(a[k], formatInstant)} → ${show(b[k], formatInstant)}` });
      }
      continue;
    }
    // A details change (`changes: [{ field, from, to }]`, server/scheduling/staff-actions.ts updateEventAction): one pair per detail.
    if (key === 'changes' && isChangeList(value)) {
      for (const c of value) items.push({ label: words(c.field), value: `${show(c.from ?? null, formatInstant)} → ${show(c.to ?? null, formatInstant)}` });
      continue;
    }
    items.push({ label: words(key), value: show(value, formatInstant) });
  }
  return items;
}

/** A list of `{ field, from, to }` changes (an event's details change). */
function isChangeList(v: unknown): v is { field: string; from?: unknown; to?: unknown }[] {
  return Array.isArray(v) && v.length > 0 && v.every((c) => !!c && typeof c === 'object' && typeof (c as { field?: unknown }).field === 'string');
}
