/**
 * Which reminders of an older schedule version a reschedule carries into the new one (issue 8, breaker
 * finding: a reschedule that did not move a reminder's due instant — only the end changed, or only the zone's
 * spelling, Europe/Kiev → Europe/Kyiv — superseded a reminder that had already gone out and planned it
 * afresh under the new version's message key, so the participant got it twice). Pure.
 *
 * Rule: an old rule reminder is carried forward — its row moves to the new schedule version, keeping its
 * delivery — when the new plan has a reminder for the same (rule, booking, channel) with the SAME due instant
 * and the old one is still sendable or already handed over (`scheduled`, `dispatched`, `done`). Everything
 * else of the old versions is superseded and the new plan inserted as before.
 */
import type { PlannedReminder } from './planning';
import type { ReminderStatus } from '@/domain/vocabulary';

export interface OldReminder {
  id: string;
  ruleId: string | null;
  bookingId: string;
  channel: string;
  dueAt: Date;
  status: ReminderStatus;
}

const CARRIED: ReadonlySet<ReminderStatus> = new Set<ReminderStatus>(['scheduled', 'dispatched', 'done']);

/**
 * @returns for each carried old reminder, its id and the planned reminder it stands for (whose expiry instant
 *   it takes). At most one old reminder per planned one (the newest version wins: pass `old` newest first).
 */
export function remindersToCarry(old: readonly OldReminder[], planned: readonly PlannedReminder[]): { id: string; planned: PlannedReminder }[] {
  const key = (r: { ruleId: string | null; bookingId: string; channel: string; dueAt: Date }) => `${r.ruleId}|${r.bookingId}|${r.channel}|${r.dueAt.getTime()}`;
  const byKey = new Map<string, OldReminder>();
  for (const o of old) {
    if (!o.ruleId || !CARRIED.has(o.status)) continue;
    if (!byKey.has(key(o))) byKey.set(key(o), o);
  }
  const out: { id: string; planned: PlannedReminder }[] = [];
  for (const p of planned) {
    const o = byKey.get(key(p));
    if (o) {
      out.push({ id: o.id, planned: p });
      byKey.delete(key(p));
    }
  }
  return out;
}
