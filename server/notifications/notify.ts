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
import type { Db, Tx } from '@/db/client';
import { findSuppression } from '@/db/queries/sending/delivery';
import { lockDomainEvent, markDomainEventProcessed } from '@/db/queries/scheduling/domain-events';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { bookingsWithContacts, eventWithTenant, insertNotifications, notificationsWaitingFor, settingsOf } from '@/db/queries/notifications/notify';
import type { Contact, NewReminder } from '@/db/schema';
import { notificationMessageKey } from '@/domain/keys';
import { audienceOf, eventWideTypes, readPolicy } from '@/domain/notifications/notification-policy';
import { channelsFor, readPreferences } from '@/domain/notifications/preferences';
import { applyQuietHours, parseQuietHours } from '@/domain/notifications/quiet-hours';
import { essentialTypes, type Channel, type PersonalChannel } from '@/domain/vocabulary';
import { DISPATCH_TASK } from '@/server/scheduling/planning';

/** How late a notification is still worth sending: 24 h after the change (ms). */
export const NOTIFICATION_LATE_SEND_MS = 24 * 3600_000;

export interface NotifyResult {
  /** Notifications planned by this run (0 when a earlier run already did it). */
  planned: number;
  skipped?: 'not found' | 'already processed';
}

/**
 * Plans the notifications of one domain event (see module doc) in one transaction, with one dispatcher
 * wake-up per distinct due instant. `now`: the database clock's instant (server/platform/clock.ts).
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
    // An event-wide change concerns the people booked when it happened: someone booked afterwards already
    // planned with the new timing (or on a cancelled event could not book at all).
    const people = (await bookingsWithContacts(tx, de.tenantId, de.eventId)).filter(
      (p) => !eventWideTypes.includes(de.type) || p.booking.createdAt.getTime() <= de.createdAt.getTime(),
    );
    const settings = await settingsOf(tx, [de.tenantId]);
    const audience = audienceOf({
      type: de.type,
      policy: readPolicy(settings.get(de.tenantId)?.policy),
      subjectBookingId: de.bookingId,
      bookings: people.map((p) => ({ id: p.booking.id, role: p.booking.role, status: p.booking.status })),
    });
    const essential = essentialTypes.includes(de.type);
    const payload = de.payload as { scheduleVersion?: number };
    const scheduleVersion = payload.scheduleVersion ?? ctx.event.scheduleVersion;
    // Bounded by when the change HAPPENED, not by when this job ran (a worker outage must not send a
    // confirmation days late, nor an "event moved" notice after the event): 24 h, and for anything but a
    // cancellation notice no later than the event's end.
    const happened = de.createdAt;
    const cap = new Date(happened.getTime() + NOTIFICATION_LATE_SEND_MS);
    const expiresAt = essential || de.type === 'booking_cancelled' || ctx.event.endsAt.getTime() > cap.getTime() ? cap : ctx.event.endsAt;
    const hostSettings = settings.get(de.tenantId);
    const rows: NewReminder[] = [];
    for (const a of audience) {
      const p = people.find((x) => x.booking.id === a.bookingId);
      if (!p) continue;
      const sendingTenantIds = [...new Set([de.tenantId, p.booking.guestTenantId ?? de.tenantId])];
      let personal = channelsFor({
        category: 'booking_updates',
        essential,
        prefs: readPreferences(p.contact.preferences),
        hasEmail: !!p.contact.email,
        hasPhone: !!p.contact.phone,
      });
      if (essential) personal = await reachableForEssential(tx, sendingTenantIds, p.contact, personal);
      // The host's own endpoint hears about the host's own people. An external guest's messages are their own
      // organisation's business: they go to no webhook (the host must not learn the guest organisation's
      // endpoint, nor that organisation receive the host's event data).
      const webhook = p.booking.role !== 'external' && hostSettings?.webhookEnabled && hostSettings.webhookUrl;
      const chans: Channel[] = [...personal, ...(webhook ? (['webhook'] as const) : [])];
      const quiet = essential ? null : parseQuietHours(p.contact.quietHours);
      const zone = p.contact.timeZone ?? ctx.tenant.timeZone;
      for (const channel of chans) {
        // Quiet hours are the person's: the organisation's webhook is never held back.
        const q = channel === 'webhook' ? { dueAt: happened, deferredFrom: null } : applyQuietHours({ dueAt: happened, expiresAt, quiet, zone });
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
    await wakeDispatcherAt(tx, inserted, now, `wake:ntf:${de.id}`);
    await markDomainEventProcessed(tx, de.id, now, inserted.length);
    return { planned: inserted.length };
  });
}

/**
 * Channels an essential message can actually reach (issue #9 §3: essential ignores opt-outs, never a
 * suppression): the accepted channels whose address is not suppressed; when none is left, the other channel the
 * person has an address for that is not suppressed (email first) — a person who takes everything by SMS and
 * replied STOP still hears that the event is cancelled, by email.
 */
async function reachableForEssential(tx: Tx, tenantIds: string[], contact: Contact, accepted: PersonalChannel[]): Promise<PersonalChannel[]> {
  const addressOf = (c: PersonalChannel) => (c === 'email' ? contact.email : contact.phone);
  const open = async (c: PersonalChannel) => !!addressOf(c) && !(await findSuppression(tx, tenantIds, addressOf(c)!, c));
  const reachable: PersonalChannel[] = [];
  for (const c of accepted) if (await open(c)) reachable.push(c);
  if (reachable.length > 0) return reachable;
  for (const c of ['email', 'sms'] as const) if (!accepted.includes(c) && (await open(c))) return [c];
  return accepted; // nothing reachable: plan what they accept, and the send path records why it was suppressed
}

/**
 * After a person changed their preferences: a booking-change notification still waiting for them (held for
 * quiet hours, or not yet due) also goes on each channel they accept now and had no message on — the one they
 * dropped is stopped at send time. Same message key rules (a second save plans nothing twice).
 * @returns the number of messages planned.
 */
export async function planPendingNotificationsOnNewChannels(tx: Tx, tenantId: string, contact: Contact, now: Date): Promise<number> {
  const rows = await notificationsWaitingFor(tx, tenantId, contact.id);
  const groups = new Map<string, typeof rows>();
  for (const r of rows) {
    const k = `${r.reminder.domainEventId}:${r.reminder.bookingId}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  const planned: NewReminder[] = [];
  for (const group of groups.values()) {
    const waiting = group.find((g) => g.reminder.status === 'scheduled')!;
    const de = waiting.domainEvent;
    const have = new Set(group.map((g) => g.reminder.channel));
    const chans = channelsFor({
      category: 'booking_updates',
      essential: essentialTypes.includes(de.type),
      prefs: readPreferences(contact.preferences),
      hasEmail: !!contact.email,
      hasPhone: !!contact.phone,
    });
    for (const channel of chans) {
      if (have.has(channel)) continue;
      const { id: _id, createdAt: _c, updatedAt: _u, statusReason: _s, dispatchedAt: _d, ...copy } = waiting.reminder;
      planned.push({
        ...copy,
        channel,
        status: 'scheduled',
        messageKey: notificationMessageKey({ tenantId, type: de.type, entityId: de.entityId, revision: de.revision, recipientId: contact.id, channel }),
      });
    }
  }
  const inserted = await insertNotifications(tx, planned);
  await wakeDispatcherAt(tx, inserted, now, `wake:prefs:${contact.id}`);
  return inserted.length;
}

/**
 * One dispatcher wake-up per distinct due instant of the planned messages (now for those already due), keyed
 * `<keyPrefix>:<due ms>` so planning twice adds no second job.
 */
async function wakeDispatcherAt(tx: Tx, planned: { dueAt: Date }[], now: Date, keyPrefix: string): Promise<void> {
  for (const due of new Set(planned.map((r) => r.dueAt.getTime()))) {
    await enqueueJob(tx, DISPATCH_TASK, { reason: 'wake' }, { runAt: due > now.getTime() ? new Date(due) : null, jobKey: `${keyPrefix}:${due}` });
  }
}
