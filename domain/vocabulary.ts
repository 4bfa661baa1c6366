/**
 * Shared vocabulary of Punctual (see shared DESIGN.md §3 and §4a). Pure constants and types only:
 * the database enums in db/schema.ts and the zod schemas at the boundaries are built from these arrays,
 * so a status cannot exist in one layer and not in another.
 */

/** Role of a booking at an event. `external` is a guest from another tenant. */
export const bookingRoles = ['attendee', 'external', 'host'] as const;
export type BookingRole = (typeof bookingRoles)[number];

export const bookingStatuses = ['confirmed', 'cancelled'] as const;
export type BookingStatus = (typeof bookingStatuses)[number];

export const eventStatuses = ['scheduled', 'cancelled'] as const;
export type EventStatus = (typeof eventStatuses)[number];

/** What a reminder rule is measured from. `room_open` = start minus the event's room-open lead. */
export const anchors = ['start', 'room_open', 'end'] as const;
export type Anchor = (typeof anchors)[number];

export const channels = ['email'] as const;
export type Channel = (typeof channels)[number];

/**
 * Reminder lifecycle: `scheduled` → `dispatched` (claimed by the dispatcher) → `done` (a delivery was
 * created), or a terminal state with a reason.
 */
export const reminderStatuses = [
  'scheduled',
  'dispatched',
  'done',
  'superseded',
  'cancelled',
  'expired',
  'failed',
] as const;
export type ReminderStatus = (typeof reminderStatuses)[number];

/**
 * Delivery lifecycle (DESIGN §4a): `claimed` → `sending` → `accepted` → `delivered|bounced|complained`;
 * or `suppressed`, `cancelled`/`superseded` (stale work found at the last re-read before the provider call),
 * `retrying` (next attempt at `next_attempt_at`), `unknown` (ambiguous: may or may not have gone out),
 * `failed` (rejected for good), `expired` (a retry would land after the reminder's expiry instant),
 * `dead` (no automatic retry left: a dead letter, until a person replays or discards it), `discarded` (a dead
 * letter or unknown outcome a person chose not to send, with their reason).
 */
export const deliveryStatuses = [
  'claimed',
  'sending',
  'accepted',
  'delivered',
  'bounced',
  'complained',
  'suppressed',
  'cancelled',
  'superseded',
  'retrying',
  'unknown',
  'failed',
  'expired',
  'dead',
  'discarded',
] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/** Classified meaning of one provider call (DESIGN §3 "Outcome"). */
export const outcomeClasses = ['accepted', 'transient', 'rate_limited', 'ambiguous', 'rejected'] as const;
export type OutcomeClass = (typeof outcomeClasses)[number];

export const suppressionReasons = ['bounced', 'complained', 'unsubscribed', 'manual'] as const;
export type SuppressionReason = (typeof suppressionReasons)[number];

/** Template ids known to the renderer (emails/). */
export const templateIds = ['attendee-reminder', 'room-opening', 'host-reminder'] as const;
export type TemplateId = (typeof templateIds)[number];

/** Who has to act to repair a dead letter. */
export const repairOwners = ['provider', 'configuration', 'recipient', 'template'] as const;
export type RepairOwner = (typeof repairOwners)[number];

/** Email providers a tenant can be configured to send through. */
export const emailProviders = ['smtp', 'http_api'] as const;
export type EmailProvider = (typeof emailProviders)[number];

/** Operator actions recorded in the audit log. */
export const auditActions = [
  'replay',
  'discard',
  'mark_sent',
  'send_again',
  'reconcile',
  'nudge',
  'event_create',
  'event_update',
  'event_reschedule',
  'event_cancel',
  'booking_add',
  'booking_cancel',
  'suppression_add',
  'suppression_remove',
  'rule_update',
  'staff_add',
  'staff_role',
] as const;
export type AuditAction = (typeof auditActions)[number];

/**
 * Staff roles (issue #4): `admin` — everything incl. settings and staff; `staff` — events, bookings, nudges,
 * replays; `viewer` — read-only. Checked on the server for every mutation (server/session.ts).
 */
export const staffRoles = ['admin', 'staff', 'viewer'] as const;
export type StaffRole = (typeof staffRoles)[number];

/** Why a reminder exists: planned from a rule, or a staff member's manual nudge ("remind participant"). */
export const reminderKinds = ['rule', 'nudge'] as const;
export type ReminderKind = (typeof reminderKinds)[number];
