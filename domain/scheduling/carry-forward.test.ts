import { describe, expect, it } from 'vitest';
import { remindersToCarry, type OldReminder } from './carry-forward';
import type { PlannedReminder } from './planning';

const at = (iso: string) => new Date(iso);
const old = (id: string, status: OldReminder['status'], dueAt = '2027-06-15T07:00:00Z', ruleId: string | null = 'r1', bookingId = 'b1'): OldReminder => ({ id, ruleId, bookingId, channel: 'email', dueAt: at(dueAt), status });
const plan = (dueAt = '2027-06-15T07:00:00Z', ruleId = 'r1', bookingId = 'b1'): PlannedReminder => ({ ruleId, bookingId, channel: 'email', dueAt: at(dueAt), expiresAt: at('2027-06-15T08:00:00Z'), status: 'scheduled', statusReason: null });

describe('remindersToCarry', () => {
  it.each<[string, OldReminder[], PlannedReminder[], string[]]>([
    ['same due instant, already sent: carried (never sent twice)', [old('a', 'done')], [plan()], ['a']],
    ['same due instant, waiting: carried', [old('a', 'scheduled')], [plan()], ['a']],
    ['same due instant, on its way: carried', [old('a', 'dispatched')], [plan()], ['a']],
    ['moved due instant: not carried (superseded, planned afresh)', [old('a', 'done')], [plan('2027-06-15T08:00:00Z')], []],
    ['another booking: not carried', [old('a', 'done', undefined, 'r1', 'b2')], [plan()], []],
    ['another rule: not carried', [old('a', 'done', undefined, 'r2')], [plan()], []],
    ['expired or failed before: not carried (the new plan decides)', [old('a', 'expired'), old('b', 'failed')], [plan()], []],
    ['already superseded or cancelled: not carried', [old('a', 'superseded'), old('b', 'cancelled')], [plan()], []],
    ['a nudge (no rule): never carried', [old('a', 'done', undefined, null)], [plan()], []],
    ['two old versions with the same instant: the first given (newest) is carried, once', [old('new', 'done'), old('older', 'done')], [plan()], ['new']],
  ])('%s', (_name, o, p, ids) => {
    expect(remindersToCarry(o, p).map((c) => c.id)).toEqual(ids);
  });
});
