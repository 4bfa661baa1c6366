/**
 * The notification module (issue #9, invariant 12): turns one domain event into notifications. Which recipients
 * hear about it, on which channel, with which template and when is the pure plan (domain/notifications/plan.ts);
 * this module only loads its inputs and stores its output. Runs in the notify task, once per domain event:
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
import { findSuppression } from '@/db/queries/suppressions/send-time';
import { lockDomainEvent, markDomainEventProcessed } from '@/db/queries/scheduling/domain-events';
import { enqueueJob } from '@/db/queries/platform/jobs';
import { bookingsWithContacts, eventWithTenant, insertNotifications, notificationsWaitingFor, settingsOf } from '@/db/queries/notifications/notify';
import type { Contact } from '@/db/schema';
import { isEssentialType, planNotifications, planOnNewChannels, recipientsOf, sendingTenantIds, type PlanInput, type PlanPerson } from '@/domain/notifications/plan';
import { personalChannels, type PersonalChannel } from '@/domain/vocabulary';
import { TASK } from '@/jobs/registry';

interface NotifyResult {
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
    const settings = await settingsOf(tx, [de.tenantId]);
    const input: PlanInput = {
      domainEvent: de,
      event: ctx.event,
      tenantTimeZone: ctx.tenant.timeZone,
      settings: settings.get(de.tenantId),
      people: await bookingsWithContacts(tx, de.tenantId, de.eventId),
    };
    // An essential message ignores opt-outs but never a suppression: the plan needs the recipients' suppressed addresses.
    if (isEssentialType(de.type)) input.suppressed = await suppressedChannels(tx, de.tenantId, recipientsOf(input).map((r) => r.person));
    const inserted = await insertNotifications(tx, planNotifications(input));
    await wakeDispatcherAt(tx, inserted, now, `wake:ntf:${de.id}`);
    await markDomainEventProcessed(tx, de.id, now, inserted.length);
    return { planned: inserted.length };
  });
}

/**
 * By booking id, the personal channels whose address (email, phone) has an active suppression in any of the
 * booking's sending tenants (domain/notifications/plan.ts `sendingTenantIds`).
 */
async function suppressedChannels(
  tx: Tx,
  hostTenantId: string,
  people: PlanPerson[],
): Promise<Map<string, Set<PersonalChannel>>> {
  const out = new Map<string, Set<PersonalChannel>>();
  for (const p of people) {
    const tenantIds = sendingTenantIds(hostTenantId, p.booking);
    const found = new Set<PersonalChannel>();
    for (const c of personalChannels) {
      const address = c === 'email' ? p.contact.email : p.contact.phone;
      if (address && (await findSuppression(tx, tenantIds, address, c))) found.add(c);
    }
    out.set(p.booking.id, found);
  }
  return out;
}

/**
 * After a person changed their preferences: a booking-change notification still waiting for them (held for
 * quiet hours, or not yet due) also goes on each channel they accept now and had no message on — the one they
 * dropped is stopped at send time (domain/notifications/plan.ts `planOnNewChannels`). Same message key rules (a
 * second save plans nothing twice).
 * @returns the number of messages planned.
 */
export async function planPendingNotificationsOnNewChannels(tx: Tx, tenantId: string, contact: Contact, now: Date): Promise<number> {
  const rows = await notificationsWaitingFor(tx, tenantId, contact.id);
  const inserted = await insertNotifications(tx, planOnNewChannels({ tenantId, contact, rows }));
  await wakeDispatcherAt(tx, inserted, now, `wake:prefs:${contact.id}`);
  return inserted.length;
}

/**
 * One dispatcher wake-up per distinct due instant of the planned messages (now for those already due), keyed
 * `<keyPrefix>:<due ms>` so planning twice adds no second job.
 */
async function wakeDispatcherAt(tx: Tx, planned: { dueAt: Date }[], now: Date, keyPrefix: string): Promise<void> {
  for (const due of new Set(planned.map((r) => r.dueAt.getTime()))) {
    await enqueueJob(tx, TASK.dispatchDue, { reason: 'wake' }, { runAt: due > now.getTime() ? new Date(due) : null, jobKey: `${keyPrefix}:${due}` });
  }
}
