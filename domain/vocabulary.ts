/**
 * Shared vocabulary of Punctual (see shared DESIGN.md §3 and §4a). Pure constants and types only:
 * the database enums in db/schema/ and the zod schemas at the boundaries are built from these arrays,
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

/**
 * Channels a message can go out on (issue #9): `email` (SMTP or an HTTP email API), `sms` (a Twilio-compatible
 * HTTP API) and `webhook` (the tenant's own HTTPS endpoint, signed per the Standard Webhooks specification).
 */
export const channels = ['email', 'sms', 'webhook'] as const;
export type Channel = (typeof channels)[number];

/**
 * Domain events (DESIGN §3): facts the booking side records in the same transaction as the change (the
 * outbox). Notifications are made from them by the notify task; the booking side knows nothing of channels.
 */
export const domainEventTypes = [
  'booking_confirmed',
  'booking_cancelled',
  'event_rescheduled',
  'event_cancelled',
  'participant_added_as_host',
  // Staff changed an event's title, place, online-room link or description and chose to tell its people.
  'event_details_changed',
  'booking_declined',
] as const;
export type DomainEventType = (typeof domainEventTypes)[number];

/**
 * Preference categories a contact chooses channels for. Every rule reminder and nudge is `reminders`; every
 * notification is `booking_updates`; every message staff write to the people of an event (an announcement) is
 * `announcements`. An essential type (below) ignores the contact's opt-outs but never a suppression (hard bounce,
 * complaint, invalid number, unsubscribe at the carrier). Order matters: a one-click unsubscribe token carries the
 * category's index (server/sending/unsubscribe-link.ts), so new categories are only ever appended.
 */
export const preferenceCategories = ['reminders', 'booking_updates', 'announcements'] as const;
export type PreferenceCategory = (typeof preferenceCategories)[number];
/** Notification types that reach a person whatever their preferences say (issue #9 §3). */
export const essentialTypes: readonly DomainEventType[] = ['event_cancelled'];
/** Channels a contact can choose in their preferences (webhooks are the organisation's, not the person's). */
export const personalChannels = ['email', 'sms'] as const;
export type PersonalChannel = (typeof personalChannels)[number];

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
 * Delivery lifecycle (DESIGN §4a): `claimed` → `sending` → `accepted` → `delivered|soft_bounced|bounced|complained`
 * (moved only by the provider's delivery reports, issue #10, and only forward in severity: domain/reports/report-state.ts);
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
  'soft_bounced',
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

/**
 * `invalid_number`: an SMS provider said the number cannot receive messages (Twilio 21211/21614).
 * `bounced`: the provider refused the address when we sent. `hard_bounce`: a delivery report (provider event or
 * RFC 3464 DSN) said the mailbox does not exist. `soft_bounces`: 3 soft bounces within 7 days (issue #10 §3).
 * `complained`: the person marked a message as spam. `unsubscribed`: STOP at the SMS carrier (Twilio 21610).
 */
export const suppressionReasons = ['bounced', 'complained', 'unsubscribed', 'manual', 'invalid_number', 'hard_bounce', 'soft_bounces'] as const;
export type SuppressionReason = (typeof suppressionReasons)[number];

/** The reminder templates: planned by reminder rules and nudges (data: the shared template fields). */
export const reminderTemplateIds = ['attendee-reminder', 'room-opening', 'host-reminder', 'confirmation-request'] as const;
export type ReminderTemplateId = (typeof reminderTemplateIds)[number];

/**
 * The notification templates (issue #9), one per domain event type; their
 * data adds the notification fields (schedule version, previous timing, reason) to the shared fields.
 */
const notificationTemplateIds = [
  'booking-confirmed',
  'booking-cancelled',
  'event-rescheduled',
  'event-cancelled',
  'host-added',
  'event-details-changed',
  'booking-declined',
] as const;

/**
 * Template ids known to the renderer (emails/): the three reminder templates, then the five notification
 * templates. Every id has an email and an SMS text (emails/sms.ts).
 */
export const templateIds = [...reminderTemplateIds, ...notificationTemplateIds] as const;
export type TemplateId = (typeof templateIds)[number];

/**
 * The kind of an announcement's messages (the `template` a delivery records for it). Not a template id: an
 * announcement has no built-in text and no rule or editor on the templates page — staff write every word of it,
 * and it is rendered by the staff-text renderer (emails/staff-text.tsx) with its own variables
 * (domain/messages/message-variables.ts).
 */
export const announcementKind = 'announcement' as const;
/** Every kind of message words can be written for: the built-in templates and announcements. */
export type MessageKind = TemplateId | typeof announcementKind;

/**
 * Announcement lifecycle: `scheduled` (waiting for its send instant; staff may cancel it) → `sending` (claimed by the
 * worker: its messages are being planned; no longer cancellable) → `sent` (every recipient's message planned), or
 * `cancelled` (by staff before the claim).
 */
export const announcementStatuses = ['scheduled', 'sending', 'sent', 'cancelled'] as const;
export type AnnouncementStatus = (typeof announcementStatuses)[number];

/** Who has to act to repair a dead letter. */
export const repairOwners = ['provider', 'configuration', 'recipient', 'template'] as const;
export type RepairOwner = (typeof repairOwners)[number];

/** Email providers a tenant can be configured to send through. */
export const emailProviders = ['smtp', 'http_api'] as const;
export type EmailProvider = (typeof emailProviders)[number];
/**
 * Every provider a delivery can go through (the `deliveries.provider` column, fixed at claim): the email
 * providers, `sms_api` (Twilio-compatible) and `webhook` (the tenant's endpoint).
 */
export const providers = [...emailProviders, 'sms_api', 'webhook'] as const;
export type Provider = (typeof providers)[number];

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
  'policy_update',
  'preferences_update',
  'webhook_update',
  'unsubscribe',
  'alert_settings_update',
  // Issue #12 (migration 0011): a message a partner (host tenant) sent in this tenant's name, written to the
  // guest tenant's own log; and a guest tenant's admin changing whom a partner may write to in its name.
  'guest_message',
  'partnership_update',
  // Issue #12 (migration 0014): a participant's details edited on the event page.
  'participant_update',
  // Issue #13 (migration 0015): an organisation created with `npm run tenant -- create` (its first admin with it);
  // a one-time sign-in link issued from the command line; a password set through a one-time or reset link.
  'tenant_create',
  'sign_in_link',
  'password_reset',
  // Issue #13 (migration 0016): the organisation settings page — a settings change, a test message asked for, and
  // each step of a guest partnership both sides agree to (written to both organisations' logs).
  'settings_update',
  'settings_test_message',
  'partnership_propose',
  'partnership_accept',
  'partnership_decline',
  'partnership_end',
  // Issue #13 (migration 0017): a reminder rule created, or deleted (one that never produced a reminder).
  'rule_create',
  'rule_delete',
  // Issue #13 (migration 0018): participants booked from a CSV file, in one transaction (count and file name).
  'participants_import',
  // Issue #13 (migration 0019): a CSV export (an event's participants, the deliveries log, the audit log) with
  // what was exported and the filters it carried.
  'export',
  // Issue #13 (migration 0020): accounts — a password change (never the password), TOTP two-factor switched on or
  // off by its owner, an admin disabling or re-enabling an account.
  'password_change',
  'two_factor_on',
  'two_factor_off',
  'staff_disable',
  'staff_enable',
  // Sender identity (migration 0024): an admin opened the verification link of the organisation's sender address.
  'sender_verify',
  // Migration 0027: adding staff is an invitation (the same answer whether or not the address has an account with
  // another organisation) — sent (or sent again, replacing the pending one), cancelled by an admin, accepted by the person.
  'staff_invite',
  'staff_invite_cancel',
  'staff_invite_accept',
  // Issue #22 §2 (migration 0029): an organisation's own message text — a version published (from the draft, or a
  // roll back copying an earlier one) and a reset to Punctual's built-in text.
  'message_text_publish',
  'message_text_rollback',
  'message_text_reset',
  // The new organisation's first-day checklist on the dashboard, dismissed by an admin.
  'first_day_dismiss',
  // Migration 0032: an announcement to the people of an event created (sent now or scheduled), or cancelled before its claim.
  'announcement_create',
  'announcement_cancel',
  // A contact's calendar feed URL rotated by staff (the old URL stops working), or its alarms switched on/off.
  'calendar_feed_rotate',
  'calendar_feed_update',
] as const;
export type AuditAction = (typeof auditActions)[number];

/**
 * Staff roles (issue #4): `admin` — everything incl. settings and staff; `staff` — events, bookings, nudges,
 * replays; `viewer` — read-only. Checked on the server for every mutation (app/_http/session.ts).
 */
export const staffRoles = ['admin', 'staff', 'viewer'] as const;
export type StaffRole = (typeof staffRoles)[number];

/**
 * Why a planned message (a `reminders` row) exists: planned from a rule, a staff member's manual nudge, a
 * notification made from a domain event (issue #9), or an announcement staff wrote to the people of an event.
 */
export const reminderKinds = ['rule', 'nudge', 'notification', 'announcement'] as const;
export type ReminderKind = (typeof reminderKinds)[number];

/**
 * Where a delivery report came from (issue #10): the HTTP email provider's event webhook (Standard Webhooks),
 * the SMS provider's status callback (X-Twilio-Signature), or an RFC 3464 delivery status notification for a
 * message sent over SMTP (VERP Return-Path; `npm run bounces:ingest` or the built-in catcher).
 */
export const reportSources = ['http_api', 'sms_api', 'smtp_dsn'] as const;
export type ReportSource = (typeof reportSources)[number];

/**
 * What one delivery report says (normalised across sources, issue #10 §1). Email: `delivered`, `deferred` (the
 * receiving server said "later"; no state change), `soft_bounce`, `hard_bounce`, `complaint`. SMS (Twilio
 * `MessageStatus`): `queued`, `sent` (no state change), `delivered`, `undelivered`, `failed` (with ErrorCode).
 */
export const reportKinds = ['queued', 'sent', 'delivered', 'deferred', 'soft_bounce', 'hard_bounce', 'complaint', 'undelivered', 'failed'] as const;
export type ReportKind = (typeof reportKinds)[number];

/**
 * Conditions that alert a person (issue #10 §6): a new dead letter, a new unknown outcome, dispatch lag p95 over a
 * threshold for 5 minutes, the oldest due-but-unsent reminder older than a threshold, a provider answering with an
 * authentication/permission error, and no worker minute sweep for 3 minutes (heartbeat).
 */
export const alertConditions = ['dead_letters', 'unknown_outcomes', 'dispatch_lag', 'oldest_due', 'provider_auth', 'worker_heartbeat'] as const;
export type AlertCondition = (typeof alertConditions)[number];

/** Routes an alert can take: email to chosen staff, or a Slack-compatible incoming webhook. */
export const alertRoutes = ['email', 'slack'] as const;
export type AlertRoute = (typeof alertRoutes)[number];
