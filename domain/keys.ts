/**
 * Identity derivation. The business key of a reminder is `(tenant, rule, booking, schedule_version, channel)`
 * (DESIGN §3); its message key is that tuple as one readable string, and the SMTP `Message-ID` is derived from
 * the message key, so every retry or replay of one message carries the same identity.
 */
import { createHash } from 'node:crypto';
import type { Channel, DomainEventType } from './vocabulary';

interface ReminderBusinessKey {
  tenantId: string;
  ruleId: string;
  bookingId: string;
  scheduleVersion: number;
  channel: Channel;
}

/** `rem:<tenant>:<rule>:<booking>:v<schedule version>:<channel>` — unique per planned send. */
function reminderMessageKey(k: ReminderBusinessKey): string {
  return `rem:${k.tenantId}:${k.ruleId}:${k.bookingId}:v${k.scheduleVersion}:${k.channel}`;
}

/**
 * `nudge:<tenant>:<booking>:<request instant, ms since epoch>:<channel>` — a manual "remind participant".
 * It carries the request timestamp, so it never equals a rule reminder's key (which starts `rem:`) and
 * never marks one sent; two nudges for one participant differ by their request instant.
 */
export function nudgeMessageKey(k: { tenantId: string; bookingId: string; requestedAt: Date; channel: Channel }): string {
  return `nudge:${k.tenantId}:${k.bookingId}:${k.requestedAt.getTime()}:${k.channel}`;
}

/**
 * The message key of one notification (issue #9): `ntf:<tenant>:<type>:<entity>:r<revision>:<recipient>:<channel>`.
 * `entity` is the booking (booking_*, participant_added_as_host) or the event (event_*); `revision` is what
 * makes a second change a new message (the schedule version for a reschedule or an event cancellation, 1 for a
 * booking's confirmation and cancellation); `recipient` is the contact id. A redelivered job or a double
 * submit derives the same key and sends once; a second reschedule derives a new one.
 */
export function notificationMessageKey(k: {
  tenantId: string;
  type: DomainEventType;
  entityId: string;
  revision: number;
  recipientId: string;
  channel: Channel;
}): string {
  return `ntf:${k.tenantId}:${k.type}:${k.entityId}:r${k.revision}:${k.recipientId}:${k.channel}`;
}

/**
 * The message key of one recipient's copy of an announcement on one channel:
 * `ann:<tenant>:<announcement>:<booking>:<channel>`. Planning the announcement twice (a redelivered job, a resumed
 * claim) derives the same keys and plans nothing twice; the send path claims each key once.
 */
export function announcementMessageKey(k: { tenantId: string; announcementId: string; bookingId: string; channel: Channel }): string {
  return `ann:${k.tenantId}:${k.announcementId}:${k.bookingId}:${k.channel}`;
}

/**
 * The message key of any reminder row: {@link nudgeMessageKey} for nudges, the stored key for notifications and
 * announcements (derived by {@link notificationMessageKey} / {@link announcementMessageKey} when the row was made),
 * else {@link reminderMessageKey}.
 */
export function messageKeyOf(r: {
  kind: 'rule' | 'nudge' | 'notification' | 'announcement';
  messageKey?: string | null;
  tenantId: string;
  ruleId: string | null;
  bookingId: string;
  scheduleVersion: number;
  channel: Channel;
  requestedAt: Date | null;
}): string {
  if (r.kind === 'notification' || r.kind === 'announcement') {
    if (!r.messageKey) throw new Error(`a${r.kind === 'announcement' ? 'n announcement' : ' notification'} message has no message_key`);
    return r.messageKey;
  }
  if (r.kind === 'nudge') {
    if (!r.requestedAt) throw new Error('a nudge reminder has no requested_at');
    return nudgeMessageKey({ tenantId: r.tenantId, bookingId: r.bookingId, requestedAt: r.requestedAt, channel: r.channel });
  }
  if (!r.ruleId) throw new Error('a rule reminder has no rule_id');
  return reminderMessageKey({ tenantId: r.tenantId, ruleId: r.ruleId, bookingId: r.bookingId, scheduleVersion: r.scheduleVersion, channel: r.channel });
}

/**
 * RFC 5322 §3.6.4 `Message-ID` for a message key: `<sha256(key)[0..32]@domain>`. Stable across retries, so
 * a receiving system that deduplicates on Message-ID sees one message.
 */
export function messageIdFor(messageKey: string, domain = 'punctual.local'): string {
  return `<${createHash('sha256').update(messageKey).digest('hex').slice(0, 32)}@${domain}>`;
}

/** graphile-worker job key of the wake-up for one rule of one event; a reschedule replaces it. */
export function wakeJobKey(eventId: string, ruleId: string): string {
  return `wake:${eventId}:${ruleId}`;
}
