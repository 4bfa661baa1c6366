/**
 * THE registry of graphile-worker tasks (DESIGN §2): every task id and the zod schema of its payload, in one
 * place. Every enqueue names its task through {@link TASK} (db/queries/platform/jobs.ts `enqueueJob` and
 * `enqueueJobs` take only a {@link TaskId} and type the payload as {@link TaskPayload} of that id), and the
 * worker's task list (jobs/worker.ts `taskList`) must have exactly these ids. Each task's handler lives in
 * `jobs/tasks/<task id with - for _>.ts` and parses its payload with the schema here
 * (test/unit/job-registry.test.ts checks that the files and the registry agree).
 *
 * Imports only packages: db/queries adds jobs in SQL (dispatch claims, lease recovery, re-arming) and reads the
 * ids from here, and db/ must not import server/ (test/support/layers.ts).
 */
import { z } from 'zod';

/** Task ids, by the name code uses for them. The string is what graphile-worker stores in `task_identifier`. */
export const TASK = {
  /** The dispatcher: wake-ups at due instants and the minute crontab sweep (jobs/tasks/dispatch-due.ts). */
  dispatchDue: 'dispatch_due',
  /** The send path of one reminder (jobs/tasks/send-reminder.ts). */
  sendReminder: 'send_reminder',
  /** The batch send path: due reminders of one tenant and channel in one job (jobs/tasks/send-reminders.ts). */
  sendReminders: 'send_reminders',
  /** A retry or a resumed claim of one delivery (jobs/tasks/deliver.ts). */
  deliver: 'deliver',
  /** Plans the notifications of one domain event (jobs/tasks/notify.ts). */
  notify: 'notify',
  /** One attempt at one alert message (jobs/tasks/send-alert.ts). */
  sendAlert: 'send_alert',
  /** Evaluates alerts now, outside the minute sweep; job key `alerts_check` (jobs/tasks/alerts-check.ts). */
  alertsCheck: 'alerts_check',
  /** Mails one password reset link (jobs/tasks/send-password-reset.ts). */
  sendPasswordReset: 'send_password_reset',
  /** Mails one staff invitation (jobs/tasks/send-staff-invitation.ts). */
  sendStaffInvitation: 'send_staff_invitation',
  /** Sends one "send a test message" request of the settings page (jobs/tasks/send-test-message.ts). */
  sendTestMessage: 'send_test_message',
  /** Mails one sender verification link (jobs/tasks/send-sender-verification.ts). */
  sendSenderVerification: 'send_sender_verification',
  /** Claims one announcement at its send instant and plans its messages (jobs/tasks/send-announcement.ts). */
  sendAnnouncement: 'send_announcement',
} as const;

/** One task id (graphile-worker `task_identifier`). */
export type TaskId = (typeof TASK)[keyof typeof TASK];

/**
 * The payload schema of each task. Tasks parse their payload with it (a malformed payload fails the job with
 * zod's message before any side effect); enqueues are typed by its input type.
 */
export const taskPayloadSchemas = {
  /**
   * Ignored except `_cron` (graphile-worker's crontab marker `{ ts, backfilled }`: the minute sweep); `reason`
   * (`wake`, `rearm`) names why it was added, for people reading the queue.
   */
  dispatch_due: z.object({ reason: z.string().optional(), _cron: z.unknown().optional() }).loose(),
  send_reminder: z.object({ reminderId: z.uuid() }),
  /** The reminders of one send batch (domain/sending/send-batches.ts): one tenant, one channel, at most a few dozen. */
  send_reminders: z.object({ reminderIds: z.array(z.uuid()).min(1).max(500) }),
  /** `slotAt`: a send slot already reserved under the provider's rate limit (ISO instant). */
  deliver: z.object({ deliveryId: z.uuid(), slotAt: z.iso.datetime().optional() }),
  notify: z.object({ domainEventId: z.uuid() }),
  send_alert: z.object({ id: z.uuid() }),
  /** `{}` (every tenant) or `{ tenantId }`. */
  alerts_check: z.object({ tenantId: z.uuid().optional() }).loose(),
  send_password_reset: z.object({ userId: z.string().min(1).max(200), url: z.url() }),
  send_staff_invitation: z.object({ invitationId: z.uuid(), url: z.url() }),
  /** `id`: an `org_test_messages` row; `content`: a message of the text editor to send instead of the settings page's. */
  send_test_message: z.object({ id: z.uuid(), content: z.object({ subject: z.string().min(1), html: z.string().min(1), text: z.string() }).optional() }),
  /** `id`: a sender verification row. */
  send_sender_verification: z.object({ id: z.uuid(), url: z.url() }),
  /** `announcementId`: an `announcements` row; job key `announce:<id>`. */
  send_announcement: z.object({ announcementId: z.uuid() }),
} as const satisfies Record<TaskId, z.ZodType>;

/** What an enqueue of task `T` passes (the schema's input type). */
export type TaskPayload<T extends TaskId> = z.input<(typeof taskPayloadSchemas)[T]>;
