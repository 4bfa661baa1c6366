/**
 * The notification module (issue #9, invariant 12): turns one domain event into notifications — who hears
 * about it (the tenant's policy), on which channels (each person's preferences; the organisation's webhook),
 * and when (quiet hours for non-essential messages). Runs in the notify task, once per domain event:
 *
 *  - under a row lock on the domain event; an event already processed plans nothing (a redelivered job);
 *  - every notification is a planned message (`reminders` row, kind `notification`) with its message key
 *    `(tenant, type, entity, revision, recipient, channel)` (domain/keys.ts), inserted ON CONFLICT DO NOTHING:
 *    even a second processing cannot plan a message twice, and the send path claims each key once;
 *  - the dispatcher sends them like reminders (claim, re-read, suppression at send time, outcome rules).
 *
 * External guests are notified by their own organisation (invariant 9): its name, its sender, its webhook.
 */
import type { Db } from '../db/client';
import { getDomainEvent, lockDomainEvent, markDomainEventProcessed } from '../db/queries/domain-events';
import { enqueueJob } from '../db/queries/jobs';
import { bookingsWithContacts, eventWithTenant, insertNotifications, settingsOf } from '../db/queries/notify';
import type { NewReminder } from '../db/schema';
import { notificationMessageKey } from '../domain/keys';
import { audienceOf, readPolicy } from '../domain/notification-policy';
import { channelsFor, readPreferences } from '../domain/preferences';
import { applyQuietHours, parseQuietHours } from '../domain/quiet-hours';
import { essentialTypes, type Channel } from '../domain/vocabulary';
import { DISPATCH_TASK } from './scheduling';

/** How late a notification is still worth sending: 24 h after the change (ms). */
export const NOTIFICATION_LATE_SEND_MS = 24 * 3600_000;

export interface NotifyResult {
  /** Notifications planned by this run (0 when a earlier run already did it). */
  planned: number;
  skipped?: 'not found' | 'already processed';
}

/**
 * Plans the notifications of one domain event (see module doc) in one transaction, with one dispatcher
 * wake-up per distinct due instant. `now`: the database clock's instant (server/clock.ts).
 * @throws only for infrastructure errors (the job is retried; nothing was written).
 */
export async function processDomainEvent(db: Db, domainEventId: string, now: Date): Promise<NotifyResult> {
  return db.transaction(async (tx): Promise<NotifyResult> => {
    const de = await lockDomainEvent(tx, domainEventId);
    if (!de) return { planned: 0, skipped: 'not found' };
    if (de.processedAt) return { planned: 0, skipped: 'already processed' };
    const ctx = await eventWithTenant(tx, de.tenantId, de.eventId);
    if (!ctx) {
      await markDomainEventProcessed(tx, de.id, now, 0);
      return { planned: 0 };
    }
    const people = await bookingsWithContacts(tx, de.tenantId, de.eventId);
    const guestTenants = people.map((p) => p.booking.guestTenantId).filter((t): t is string => !!t);
    const settings = await settingsOf(tx, [...new Set([de.tenantId, ...guestTenants])]);
    const audience = audienceOf({
      type: de.type,
      policy: readPolicy(settings.get(de.tenantId)?.policy),
      subjectBookingId: de.bookingId,
      bookings: people.map((p) => ({ id: p.booking.id, role: p.booking.role, status: p.booking.status })),
    });
    const essential = essentialTypes.includes(de.type);
    const payload = de.payload as { scheduleVersion?: number };
    const scheduleVersion = payload.scheduleVersion ?? ctx.event.scheduleVersion;
    const expiresAt = new Date(now.getTime() + NOTIFICATION_LATE_SEND_MS);
    const rows: NewReminder[] = [];
    for (const a of audience) {
      const p = people.find((x) => x.booking.id === a.bookingId);
      if (!p) continue;
      const sendingTenantId = p.booking.role === 'external' && p.booking.guestTenantId ? p.booking.guestTenantId : de.tenantId;
      const own = settings.get(sendingTenantId);
      const personal = channelsFor({
        category: 'booking_updates',
        essential,
        prefs: readPreferences(p.contact.preferences),
        hasEmail: !!p.contact.email,
        hasPhone: !!p.contact.phone,
      });
      const chans: Channel[] = [...personal, ...(own?.webhookEnabled && own.webhookUrl ? (['webhook'] as const) : [])];
      const quiet = essential ? null : parseQuietHours(p.contact.quietHours);
      const zone = p.contact.timeZone ?? ctx.tenant.timeZone;
      for (const channel of chans) {
        // Quiet hours are the person's: the organisation's webhook is never held back.
        const q = channel === 'webhook' ? { dueAt: now, deferredFrom: null } : applyQuietHours({ dueAt: now, expiresAt, quiet, zone });
        rows.push({
          tenantId: de.tenantId,
          eventId: de.eventId,
          bookingId: p.booking.id,
          ruleId: null,
          kind: 'notification',
          template: a.template,
          scheduleVersion,
          channel,
          domainEventId: de.id,
          notificationType: de.type,
          messageKey: notificationMessageKey({
            tenantId: de.tenantId,
            type: de.type,
            entityId: de.entityId,
            revision: de.revision,
            recipientId: p.contact.id,
            channel,
          }),
          dueAt: q.dueAt,
          deferredFrom: q.deferredFrom,
          expiresAt,
          status: 'scheduled',
        });
      }
    }
    const inserted = await insertNotifications(tx, rows);
    const dues = new Set(inserted.map((r) => r.dueAt.getTime()));
    for (const due of dues) {
      await enqueueJob(tx, DISPATCH_TASK, { reason: 'wake' }, { runAt: due > now.getTime() ? new Date(due) : null, jobKey: `wake:ntf:${de.id}:${due}` });
    }
    await markDomainEventProcessed(tx, de.id, now, inserted.length);
    return { planned: inserted.length };
  });
}

/** The domain event row (for tests and the operator view). */
export { getDomainEvent };
