/**
 * The last step of planning (issue #9 §3): a rule says *when* and in which words; the person says *how*. Each
 * planned reminder (domain/scheduling/planning.ts) becomes one per channel the booking's contact accepts for `reminders`
 * (email and/or SMS, with an address), and a reminder due inside their quiet hours waits for the end of them
 * when that is before its expiry (domain/notifications/quiet-hours.ts, in the contact's zone, else the tenant's). Pure.
 * Used by every planning path (server/scheduling/planning.ts `planFor`) and by the rule-impact preview (domain/rules/rule-impact.ts).
 */
import type { PlannedReminder } from '@/domain/scheduling/planning';
import { channelsFor, readPreferences } from './preferences';
import { applyQuietHours, parseQuietHours } from './quiet-hours';

/** The contact fields planning reads (channel preferences, quiet hours, addresses, zone). */
export interface PlanningContactFields {
  email: string | null;
  phone: string | null;
  timeZone: string | null;
  /** Stored jsonb as read (domain/notifications/preferences.ts readPreferences). */
  preferences: unknown;
  /** Stored jsonb as read (domain/notifications/quiet-hours.ts parseQuietHours). */
  quietHours: unknown;
}

/**
 * One reminder per channel the booking's contact accepts (none when no channel can reach them), due at the end
 * of their quiet hours when it falls inside them. A booking without a contact in `contacts` keeps the rule's
 * channel and instant.
 * @param contacts booking id → the contact's planning fields.
 * @param tenantZone IANA zone for quiet hours of a contact without a zone.
 */
export function forEachPreferredChannel(
  planned: readonly PlannedReminder[],
  contacts: ReadonlyMap<string, PlanningContactFields>,
  tenantZone: string,
): (PlannedReminder & { deferredFrom: Date | null })[] {
  return planned.flatMap((p): (PlannedReminder & { deferredFrom: Date | null })[] => {
    const c = contacts.get(p.bookingId);
    if (!c) return [{ ...p, deferredFrom: null }];
    const chans = channelsFor({ category: 'reminders', essential: false, prefs: readPreferences(c.preferences), hasEmail: !!c.email, hasPhone: !!c.phone });
    const quiet = parseQuietHours(c.quietHours);
    const q = quiet && p.status === 'scheduled' ? applyQuietHours({ dueAt: p.dueAt, expiresAt: p.expiresAt, quiet, zone: c.timeZone ?? tenantZone }) : { dueAt: p.dueAt, deferredFrom: null };
    return chans.map((channel) => ({ ...p, channel, dueAt: q.dueAt, deferredFrom: q.deferredFrom }));
  });
}
