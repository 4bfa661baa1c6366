/**
 * Reminder rules created and retired (issue #13) against real PostgreSQL: a new rule's impact on the pending
 * reminders of upcoming events is previewed (read-only) and, when chosen, applied in the rule's own transaction
 * with ONE audit entry; "new bookings only" plans nothing now; reminders already due are not planned; a rule in
 * use cannot be deleted; deactivation cancels its pending reminders or lets them go out; a stale version writes
 * nothing; a booking made while the re-plan runs is planned once (message keys).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { lockEvent } from '@/db/queries/scheduling/scheduling';
import { auditLog, bookings, reminderRules, reminders } from '@/db/schema';
import { AppError } from '@/server/platform/errors';
import { createRuleAction, deleteRuleAction, previewRuleImpact, updateRuleWithChoice } from '@/server/rules/rules';
import { addBooking, addBookingsBulk } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { ruleFormView } from '@/server/scheduling/staff-actions';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { tenantWithRules } from '@/test/support/fixtures';
import { waitForLockWaiters } from '@/test/support/lock-wait';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.close());
beforeEach(async () => tdb.reset());
const db = () => tdb.db;

const NOW = new Date('2027-03-01T09:00:00Z');
const H = 3_600_000;
const STARTS = ['2027-03-10T13:00:00Z', '2027-03-11T08:00:00Z', '2027-04-02T16:30:00Z', '2027-05-01T10:00:00Z'];

const twoHoursBefore = {
  name: '2 hours before start',
  anchor: 'start' as const,
  offset: '-PT2H',
  audience: ['attendee' as const, 'external' as const],
  channel: 'email' as const,
  template: 'attendee-reminder' as const,
  lateSendWindowSeconds: 3600,
  active: true,
};

let n = 0;
/** A tenant with a "1 day before" rule, an admin, and 40 upcoming bookings over four events (10 each). */
async function tenantWith40() {
  const { tenant, rules } = await tenantWithRules(db(), [{ offset: '-P1D', name: 'day before' }]);
  const adminId = (await insertStaffUser(db(), { tenantId: tenant.id, email: `ada${++n}@example.test`, name: 'Ada Admin', role: 'admin', passwordHash: 'x' }))!;
  const events = [];
  for (const [i, s] of STARTS.entries()) {
    const e = await createEvent(db(), tenant.id, { title: `Workshop ${i}`, startsAt: s, endsAt: new Date(new Date(s).getTime() + H).toISOString(), timeZone: 'Europe/Amsterdam' });
    const people = Array.from({ length: 10 }, (_, k) => ({ role: 'attendee' as const, contact: { email: `p${i}-${k}@example.test`, name: `P ${i} ${k}` } }));
    await addBookingsBulk(db(), tenant.id, e.id, people, new Date('2027-02-20T09:00:00Z'), { notify: false });
    events.push(e);
  }
  const ctx = { tenantId: tenant.id, actor: `ada${n}@example.test`, actorId: adminId, now: NOW };
  return { tenant, dayBefore: rules[0], events, ctx };
}

const remindersOf = (ruleId: string) => db().select().from(reminders).where(eq(reminders.ruleId, ruleId)).orderBy(asc(reminders.bookingId));
const auditOf = (tenantId: string) => db().select().from(auditLog).where(eq(auditLog.tenantId, tenantId)).orderBy(asc(auditLog.createdAt));

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const r = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(r).toBeInstanceOf(AppError);
  return r as AppError;
}

describe('a new rule', () => {
  it('the issue scenario: "2 hours before start" on a tenant with 40 upcoming bookings → 40 pending reminders; re-plan → exactly 40 new reminders at the new rule\'s due instants, audited once', async () => {
    const s = await tenantWith40();
    const preview = await previewRuleImpact(db(), s.ctx, { rule: twoHoursBefore });
    expect(preview.pending).toBe(40);
    expect(preview.lines[0]).toBe('40 pending reminders: 40 new');
    // The preview wrote nothing.
    expect(await db().select().from(reminderRules).where(eq(reminderRules.tenantId, s.tenant.id))).toHaveLength(1);
    const before = await db().select({ n: sql<number>`count(*)::int` }).from(reminders);

    const r = await createRuleAction(db(), s.ctx, { ...twoHoursBefore, choice: 'replan', previewPending: 40 });
    expect(r.applied).toMatchObject({ pending: 40, added: 40, moved: 0, cancelled: 0, pastDue: 0 });
    expect(r.message).toBe('Created “2 hours before start”. Re-planned 40 pending reminders: 40 new.');

    const planned = await remindersOf(r.rule.id);
    expect(planned).toHaveLength(40);
    const startOf = new Map(s.events.map((e) => [e.id, e.startsAt.getTime()]));
    for (const p of planned) {
      expect(p.status).toBe('scheduled');
      expect(p.dueAt.getTime()).toBe(startOf.get(p.eventId)! - 2 * H);
      expect(p.expiresAt.getTime()).toBe(startOf.get(p.eventId)! - H); // due + the 1 h late-send window
      expect(p.scheduleVersion).toBe(1);
    }
    expect(new Set(planned.map((p) => p.bookingId)).size).toBe(40);
    const [after] = await db().select({ n: sql<number>`count(*)::int` }).from(reminders);
    expect(after.n - before[0].n).toBe(40);
    // One wake-up per event for the new rule.
    const wakes = await db().execute<{ key: string }>(sql`select key from graphile_worker._private_jobs where key like ${`wake:%:${r.rule.id}`}`);
    expect(wakes).toHaveLength(4);

    const audit = await auditOf(s.tenant.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'rule_create', actor: s.ctx.actor });
    expect(audit[0].details).toMatchObject({ ruleId: r.rule.id, name: '2 hours before start', choice: 'replan', pendingPreviewed: 40, pendingApplied: 40, remindersAdded: 40 });

    // Re-planning again (a change that keeps the timing) adds nothing: the business keys are taken.
    const again = await updateRuleWithChoice(db(), s.ctx, r.rule.id, { ...twoHoursBefore, name: '2 h before', version: r.rule.version, choice: 'replan' });
    expect(again.applied?.pending).toBe(0);
    expect(await remindersOf(r.rule.id)).toHaveLength(40);
  });

  it('"new bookings only" plans nothing now; a booking made afterwards gets the rule', async () => {
    const s = await tenantWith40();
    const r = await createRuleAction(db(), s.ctx, { ...twoHoursBefore, choice: 'new_only', previewPending: 40 });
    expect(r.applied).toBeNull();
    expect(await remindersOf(r.rule.id)).toHaveLength(0);
    const audit = await auditOf(s.tenant.id);
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toMatchObject({ choice: 'new_only', pendingPreviewed: 40, pendingApplied: 0 });

    const b = await addBooking(db(), s.tenant.id, { eventId: s.events[0].id, role: 'attendee', contact: { email: 'late@example.test' } }, NOW);
    const mine = await remindersOf(r.rule.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ bookingId: b.id, status: 'scheduled' });
    expect(mine[0].dueAt.toISOString()).toBe('2027-03-10T11:00:00.000Z');
  });

  it('reminders whose due instant is already past are not planned, and are counted', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const ctx = { tenantId: tenant.id, actor: 'seed', now: NOW };
    // Starts in 1 h: "2 hours before" was due an hour ago. Starts tomorrow: planned.
    const soon = await createEvent(db(), tenant.id, { title: 'Soon', startsAt: '2027-03-01T10:00:00Z', endsAt: '2027-03-01T11:00:00Z', timeZone: 'Europe/Amsterdam' });
    const later = await createEvent(db(), tenant.id, { title: 'Later', startsAt: '2027-03-02T10:00:00Z', endsAt: '2027-03-02T11:00:00Z', timeZone: 'Europe/Amsterdam' });
    // An event that already ended is not upcoming at all.
    const past = await createEvent(db(), tenant.id, { title: 'Past', startsAt: '2027-02-27T10:00:00Z', endsAt: '2027-02-27T11:00:00Z', timeZone: 'Europe/Amsterdam' });
    for (const e of [soon, later, past]) await addBooking(db(), tenant.id, { eventId: e.id, role: 'attendee', contact: { email: `x-${e.title}@example.test` } }, new Date('2027-02-01T00:00:00Z'));
    const preview = await previewRuleImpact(db(), ctx, { rule: twoHoursBefore });
    expect([preview.pending, preview.pastDue]).toEqual([1, 1]);
    expect(preview.lines).toEqual(['1 pending reminder: 1 new', '1 would already be due — not planned']);
    const r = await createRuleAction(db(), ctx, { ...twoHoursBefore, choice: 'replan', previewPending: 1 });
    const planned = await remindersOf(r.rule.id);
    expect(planned.map((p) => p.eventId)).toEqual([later.id]);
    expect(r.message).toBe('Created “2 hours before start”. Re-planned 1 pending reminder: 1 new. 1 would already be due — not planned.');
  });

  it('a booking made while the re-plan runs is planned once: preview 40, applied 41, and the answer says both', async () => {
    const s = await tenantWith40();
    const preview = await previewRuleImpact(db(), s.ctx, { rule: twoHoursBefore });
    expect(preview.pending).toBe(40);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const haveLock = new Promise<void>((r) => (locked = r));
    // Someone is booking on event 0: they hold its lock (as addBooking does) while the re-plan starts.
    const booking = db().transaction(async (tx) => {
      await lockEvent(tx, s.tenant.id, s.events[0].id);
      locked();
      await gate;
      return addBooking(tx, s.tenant.id, { eventId: s.events[0].id, role: 'attendee', contact: { email: 'concurrent@example.test' } }, NOW);
    });
    await haveLock;
    const replan = createRuleAction(db(), s.ctx, { ...twoHoursBefore, choice: 'replan', previewPending: 40 });
    await waitForLockWaiters(db()); // the re-plan now waits for event 0's lock
    release();
    const b = await booking;
    const r = await replan;
    expect(r.applied?.pending).toBe(41);
    expect(r.message).toContain('Re-planned 41 pending reminders (the preview said 40: bookings changed meanwhile)');
    const planned = await remindersOf(r.rule.id);
    expect(planned).toHaveLength(41);
    expect(new Set(planned.map((p) => `${p.bookingId}|${p.channel}`)).size).toBe(41);
    expect(planned.filter((p) => p.bookingId === b.id)).toHaveLength(1);
    // And a booking after the commit is planned by addBooking itself, once.
    const late = await addBooking(db(), s.tenant.id, { eventId: s.events[1].id, role: 'attendee', contact: { email: 'after@example.test' } }, NOW);
    expect((await remindersOf(r.rule.id)).filter((p) => p.bookingId === late.id)).toHaveLength(1);
  });
});

describe('retiring a rule', () => {
  it('delete is refused while the rule has produced reminders ("used by N reminders — deactivate it instead"); an unused rule is deleted, audited', async () => {
    const s = await tenantWith40();
    const err = await rejection(deleteRuleAction(db(), s.ctx, s.dayBefore.id, { version: s.dayBefore.version }));
    expect([err.code, err.httpStatus, err.message]).toEqual(['conflict', 409, '“day before” is used by 40 reminders — deactivate it instead']);
    expect(await db().select().from(reminderRules).where(eq(reminderRules.id, s.dayBefore.id))).toHaveLength(1);

    const unused = await createRuleAction(db(), s.ctx, { ...twoHoursBefore, name: 'unused', choice: 'new_only' });
    expect(await deleteRuleAction(db(), s.ctx, unused.rule.id, { version: unused.rule.version })).toEqual({ deleted: true, name: 'unused' });
    expect(await db().select().from(reminderRules).where(eq(reminderRules.id, unused.rule.id))).toHaveLength(0);
    const audit = await auditOf(s.tenant.id);
    expect(audit.map((a) => a.action)).toEqual(['rule_create', 'rule_delete']);
    expect(audit[1].details).toMatchObject({ ruleId: unused.rule.id, name: 'unused' });
  });

  it('deactivate with "cancel its pending reminders": every waiting one is cancelled in the transaction; one already handed to a send is untouched', async () => {
    const s = await tenantWith40();
    const all = await remindersOf(s.dayBefore.id);
    // One reminder is already with the sender.
    await db().update(reminders).set({ status: 'dispatched' }).where(eq(reminders.id, all[0].id));
    const draft = { ...ruleFormView(s.dayBefore), active: false };
    const { id: _id, version, ...fields } = draft;
    const preview = await previewRuleImpact(db(), s.ctx, { ruleId: s.dayBefore.id, rule: fields });
    expect(preview).toMatchObject({ pending: 39, cancelled: 39, handedOver: 1 });
    const r = await updateRuleWithChoice(db(), s.ctx, s.dayBefore.id, { ...fields, version, choice: 'replan', previewPending: 39 });
    expect(r.message).toBe('Saved “day before”: inactive. Cancelled 39 pending reminders.');
    const after = await remindersOf(s.dayBefore.id);
    expect(after.filter((x) => x.status === 'cancelled')).toHaveLength(39);
    expect(after.find((x) => x.id === all[0].id)?.status).toBe('dispatched');
    const [rule] = await db().select().from(reminderRules).where(eq(reminderRules.id, s.dayBefore.id));
    expect([rule.active, rule.pendingGoOut]).toEqual([false, false]);
    const audit = await auditOf(s.tenant.id);
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toMatchObject({ choice: 'replan', pendingReminders: 'cancelled', pendingApplied: 39, remindersCancelled: 39 });
  });

  it('deactivate with "let them go out": nothing is cancelled and the rule remembers it (the send path lets them through)', async () => {
    const s = await tenantWith40();
    const { id: _id, version, ...fields } = { ...ruleFormView(s.dayBefore), active: false };
    const r = await updateRuleWithChoice(db(), s.ctx, s.dayBefore.id, { ...fields, version, choice: 'new_only', previewPending: 40 });
    expect(r.message).toBe('Saved “day before”: inactive. Its pending reminders still go out; nothing new is planned from it.');
    expect((await remindersOf(s.dayBefore.id)).every((x) => x.status === 'scheduled')).toBe(true);
    const [rule] = await db().select().from(reminderRules).where(eq(reminderRules.id, s.dayBefore.id));
    expect([rule.active, rule.pendingGoOut]).toEqual([false, true]);
    // Activating again clears it.
    const again = await updateRuleWithChoice(db(), s.ctx, s.dayBefore.id, { ...fields, active: true, version: rule.version, choice: 'new_only' });
    expect(again.rule.active).toBe(true);
    const [back] = await db().select().from(reminderRules).where(eq(reminderRules.id, s.dayBefore.id));
    expect(back.pendingGoOut).toBe(false);
  });

  it('a changed timing moves waiting reminders in place (same rows, same keys)', async () => {
    const s = await tenantWith40();
    const before = await remindersOf(s.dayBefore.id);
    const { id: _id, version, ...fields } = ruleFormView(s.dayBefore);
    const preview = await previewRuleImpact(db(), s.ctx, { ruleId: s.dayBefore.id, rule: { ...fields, offset: '-P2D' } });
    expect(preview).toMatchObject({ pending: 40, moved: 40, added: 0 });
    const r = await updateRuleWithChoice(db(), s.ctx, s.dayBefore.id, { ...fields, offset: '-P2D', version, choice: 'replan', previewPending: 40 });
    expect(r.applied).toMatchObject({ pending: 40, moved: 40 });
    const after = await remindersOf(s.dayBefore.id);
    expect(after.map((x) => x.id)).toEqual(before.map((x) => x.id));
    const startOf = new Map(s.events.map((e) => [e.id, e.startsAt.getTime()]));
    for (const x of after) expect(x.dueAt.getTime()).toBe(startOf.get(x.eventId)! - 48 * H); // no DST change in these weeks
  });

  it('a stale version is a 409 with the current rule, and nothing is written (rule, reminders, audit)', async () => {
    const s = await tenantWith40();
    const { id: _id, version, ...fields } = ruleFormView(s.dayBefore);
    await updateRuleWithChoice(db(), { ...s.ctx, actor: 'other@example.test', actorId: undefined }, s.dayBefore.id, { ...fields, name: 'Day before (renamed)', version });
    const snapshot = { rule: await db().select().from(reminderRules).where(eq(reminderRules.id, s.dayBefore.id)), rs: await remindersOf(s.dayBefore.id), audit: await auditOf(s.tenant.id) };
    const err = await rejection(updateRuleWithChoice(db(), s.ctx, s.dayBefore.id, { ...fields, active: false, version, choice: 'replan', previewPending: 40 }));
    expect([err.code, err.httpStatus, err.field]).toEqual(['conflict', 409, 'version']);
    expect(err.details).toMatchObject({ current: { name: 'Day before (renamed)', version: version + 1 } });
    const delErr = await rejection(deleteRuleAction(db(), s.ctx, s.dayBefore.id, { version }));
    expect([delErr.code, delErr.field]).toEqual(['conflict', 'version']);
    expect({ rule: await db().select().from(reminderRules).where(eq(reminderRules.id, s.dayBefore.id)), rs: await remindersOf(s.dayBefore.id), audit: await auditOf(s.tenant.id) }).toEqual(snapshot);
  });

  it('a demoted admin cannot create a rule (role re-checked under a lock); bad input is a 400 naming the field', async () => {
    const s = await tenantWith40();
    const err = await rejection(createRuleAction(db(), s.ctx, { ...twoHoursBefore, offset: 'soon', choice: 'replan' }));
    expect([err.code, err.field]).toEqual(['validation', 'offset']);
    const bad = await rejection(createRuleAction(db(), s.ctx, { ...twoHoursBefore, choice: 'sometimes' }));
    expect([bad.code, bad.field]).toEqual(['validation', 'choice']);
    await db().execute(sql`update staff_users set role = 'staff' where id = ${s.ctx.actorId}`);
    const forbidden = await rejection(createRuleAction(db(), s.ctx, { ...twoHoursBefore, choice: 'replan' }));
    expect(forbidden.code).toBe('forbidden');
    expect(await db().select().from(reminderRules).where(and(eq(reminderRules.tenantId, s.tenant.id), eq(reminderRules.name, twoHoursBefore.name)))).toHaveLength(0);
    expect(await db().select().from(bookings).where(eq(bookings.tenantId, s.tenant.id))).toHaveLength(40);
  });
});
