/**
 * No lost updates (issue 8 §3, DESIGN.md invariant 11) against real PostgreSQL: every edit carries the row
 * version its editor saw; a stale save is a 409 naming who changed the record and when, hands back the
 * current record, and writes nothing. Checks that guard a write (the actor's role, "at least one admin")
 * run under the lock that writes: two admins demoting each other at once never leave a tenant without one.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type Db } from '@/db/client';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { auditLog, bookings, events, reminderRules, reminders, staffInvitations, staffUsers, suppressions } from '@/db/schema';
import { mergeEdits } from '@/domain/platform/edit-conflict';
import { AppError } from '@/server/platform/errors';
import { setStaffRoleAction } from '@/server/accounts/staff';
import { inviteStaffAction } from '@/server/accounts/staff-invitations';
import {
  cancelBookingAction,
  cancelEventAction,
  eventFormView,
  removeSuppressionAction,
  ruleFormView,
  updateEventAction,
} from '@/server/scheduling/staff-actions';
import { importIcs } from '@/server/calendar/import-ics';
import { updateRuleWithChoice } from '@/server/rules/rules';
import { addSuppression } from '@/server/suppressions/suppressions';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';
import { waitForLockWaiters } from '@/test/support/lock-wait';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.close());
beforeEach(async () => tdb.reset());
const db = () => tdb.db;

let n = 0;
async function staffMember(tenantId: string, name: string, role: 'admin' | 'staff' | 'viewer') {
  const email = `${name.split(' ')[0].toLowerCase()}${++n}@example.test`;
  const id = await insertStaffUser(db(), { tenantId, email, name, role, passwordHash: 'not-used-here' });
  return { id: id!, email, name };
}

/** What a stale save must leave untouched: the event row, every reminder, the audit log. */
async function snapshot(tenantId: string, eventId: string) {
  const [event] = await db().select().from(events).where(eq(events.id, eventId));
  const rs = await db().select().from(reminders).where(eq(reminders.eventId, eventId)).orderBy(asc(reminders.id));
  const audit = await db().select().from(auditLog).where(eq(auditLog.tenantId, tenantId)).orderBy(asc(auditLog.createdAt));
  return { event, reminders: rs, audit };
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const r = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(r).toBeInstanceOf(AppError);
  return r as AppError;
}

describe('two people edit one event (the issue’s scenario)', () => {
  it('A’s stale title-only save is a 409 naming B and when, with the current record; nothing is written; A’s merged save then keeps B’s date and room', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D' }, { offset: '-PT1H' }]);
    const sam = await staffMember(tenant.id, 'Sam Staff', 'staff');
    const bea = await staffMember(tenant.id, 'Bea Booker', 'staff');
    const { event } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam', title: 'Pottery' }, new Date('2027-06-01T00:00:00Z'));
    await db().update(events).set({ location: 'Room A' }).where(eq(events.id, event.id));

    // A (Sam) opens the edit form.
    const [atOpen] = await db().select().from(events).where(eq(events.id, event.id));
    const openedView = eventFormView(atOpen);
    const { version: openedVersion, status: _s, scheduleVersion: _sv, ...opened } = openedView;
    expect(opened).toEqual({ title: 'Pottery', description: '', location: 'Room A', roomUrl: '', timeZone: 'Europe/Amsterdam', allDay: false, start: '2027-06-15T10:00', end: '2027-06-15T11:00', eventNote: {} });

    // B (Bea) opened the same form, moves the event to 16 June and changes the room.
    const beaNow = new Date('2027-06-10T12:34:00Z');
    const b = await updateEventAction(db(), { tenantId: tenant.id, actor: bea.email, now: beaNow }, event.id, { ...opened, version: openedVersion, start: '2027-06-16T10:00', end: '2027-06-16T11:00', location: 'Room B' });
    expect(b.rescheduled).toBe(true);
    expect(b.event.scheduleVersion).toBe(2);
    expect(b.event.version).toBeGreaterThan(openedVersion);
    expect(b.event.updatedBy).toBe(bea.email);
    const afterB = await snapshot(tenant.id, event.id);

    // A changes only the title and saves with the version A opened.
    const mine = { ...opened, title: 'Pottery for beginners' };
    const samCtx = { tenantId: tenant.id, actor: sam.email, now: new Date('2027-06-10T12:40:00Z') };
    const err = await rejection(updateEventAction(db(), samCtx, event.id, { ...mine, version: openedVersion }));
    expect(err.code).toBe('conflict');
    expect(err.httpStatus).toBe(409);
    expect(err.field).toBe('version');
    expect(err.message).toBe('This event was changed by Bea Booker at Thu 10 Jun 2027, 14:34 CEST since you opened it.');
    expect(err.details).toMatchObject({
      version: b.event.version,
      changedBy: 'Bea Booker',
      changedAt: '2027-06-10T12:34:00.000Z',
      current: { version: b.event.version, title: 'Pottery', location: 'Room B', start: '2027-06-16T10:00', end: '2027-06-16T11:00', timeZone: 'Europe/Amsterdam', scheduleVersion: 2 },
    });
    // Nothing written: not back to 15 June, not back to Room A, no re-planning, no audit entry.
    expect(await snapshot(tenant.id, event.id)).toEqual(afterB);
    expect(afterB.event.startsAt.toISOString()).toBe('2027-06-16T08:00:00.000Z');
    expect(afterB.event.location).toBe('Room B');

    // "Apply my changes to the latest version": A's title on B's record, saved with the latest version.
    const { version: latestVersion, status: _s2, scheduleVersion: _sv2, ...latest } = err.details!.current as typeof openedView;
    const { merged } = mergeEdits(opened, mine, latest);
    const a = await updateEventAction(db(), samCtx, event.id, { ...merged, version: latestVersion });
    expect(a.rescheduled).toBe(false);
    const [final] = await db().select().from(events).where(eq(events.id, event.id));
    expect({ title: final.title, location: final.location, startsAt: final.startsAt.toISOString(), scheduleVersion: final.scheduleVersion, updatedBy: final.updatedBy }).toEqual({
      title: 'Pottery for beginners',
      location: 'Room B',
      startsAt: '2027-06-16T08:00:00.000Z',
      scheduleVersion: 2,
      updatedBy: sam.email,
    });
    // Reminders are still those B's reschedule planned (version 2), none re-planned for 15 June.
    const live = (await db().select().from(reminders).where(eq(reminders.eventId, event.id))).filter((r) => r.status === 'scheduled');
    expect(live.map((r) => [r.scheduleVersion, r.dueAt.toISOString()]).sort()).toEqual([
      [2, '2027-06-15T08:00:00.000Z'],
      [2, '2027-06-16T07:00:00.000Z'],
    ]);
  });

  it('a save that changes nothing does not bump the version (other open forms stay valid)', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const { event } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    const { version, status: _s, scheduleVersion: _v, ...form } = eventFormView(event);
    await updateEventAction(db(), { tenantId: tenant.id, actor: 'x@example.test', now: new Date('2027-06-02T00:00:00Z') }, event.id, { ...form, version });
    const [after] = await db().select().from(events).where(eq(events.id, event.id));
    expect(after.version).toBe(version);
  });

  it('If the event was cancelled meanwhile, the stale cancel is a 409 too (the first reason stays)', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D' }]);
    const bea = await staffMember(tenant.id, 'Bea Booker', 'staff');
    const { event } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    await cancelEventAction(db(), { tenantId: tenant.id, actor: bea.email, now: new Date('2027-06-10T12:34:00Z') }, event.id, { reason: 'room flooded', version: event.version });
    const err = await rejection(cancelEventAction(db(), { tenantId: tenant.id, actor: 'sam@example.test', now: new Date('2027-06-10T12:35:00Z') }, event.id, { reason: 'speaker ill', version: event.version }));
    expect(err.message).toBe('This event was changed by Bea Booker at Thu 10 Jun 2027, 14:34 CEST since you opened it.');
    expect(err.details).toMatchObject({ current: { status: 'cancelled' } });
    const [after] = await db().select().from(events).where(eq(events.id, event.id));
    expect(after.statusReason).toBe('room flooded');
    expect(await db().select().from(auditLog).where(eq(auditLog.tenantId, tenant.id))).toHaveLength(1);
  });
});

describe('every edit carries a version', () => {
  it('a missing or malformed version is a 400 naming `version`, for each edit', async () => {
    const { tenant, rules } = await tenantWithRules(db(), [{ offset: '-P1D' }]);
    const admin = await staffMember(tenant.id, 'Ada Admin', 'admin');
    const other = await staffMember(tenant.id, 'Vic Viewer', 'viewer');
    const { event, booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    await addSuppression(db(), tenant.id, { address: 'gone@example.test', reason: 'bounced' });
    const [sup] = await db().select().from(suppressions).where(eq(suppressions.tenantId, tenant.id));
    const ctx = { tenantId: tenant.id, actor: admin.email, actorId: admin.id, now: new Date('2027-06-02T00:00:00Z') };
    const { version: _v, status: _s, scheduleVersion: _sv, ...form } = eventFormView(event);
    const { id: _id, version: _rv, ...rule } = ruleFormView(rules[0]);
    const calls: [string, (version: unknown) => Promise<unknown>][] = [
      ['event edit', (version) => updateEventAction(db(), ctx, event.id, { ...form, version })],
      ['event cancel', (version) => cancelEventAction(db(), ctx, event.id, { reason: 'because', version })],
      ['booking cancel', (version) => cancelBookingAction(db(), ctx, booking.id, { reason: 'because', version })],
      ['suppression remove', (version) => removeSuppressionAction(db(), ctx, sup.id, { reason: 'because', version })],
      ['rule edit', (version) => updateRuleWithChoice(db(), ctx, rules[0].id, { ...rule, version } as never)],
      ['role change', (version) => setStaffRoleAction(db(), ctx, other.id, { role: 'staff', version })],
    ];
    for (const [what, call] of calls) {
      for (const bad of [undefined, '1', 0, 1.5, null]) {
        const err = await rejection(call(bad));
        expect({ what, bad, code: err.code, field: err.field }).toEqual({ what, bad, code: 'validation', field: 'version' });
      }
    }
    expect(await db().select().from(auditLog).where(eq(auditLog.tenantId, tenant.id))).toHaveLength(0);
  });

  it('booking cancel: stale → 409 "changed by import" (a non-staff actor is named as it is); nothing cancelled', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D' }]);
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    await db().transaction(async (tx) => {
      await tx.execute(sql`select set_config('punctual.actor', 'import', true)`);
      await tx.update(bookings).set({ statusReason: 'touched by the importer', updatedAt: new Date('2027-06-03T07:00:00Z') }).where(eq(bookings.id, booking.id));
    });
    const err = await rejection(cancelBookingAction(db(), { tenantId: tenant.id, actor: 'sam@example.test', now: new Date('2027-06-04T00:00:00Z') }, booking.id, { reason: 'asked to', version: booking.version }));
    expect([err.code, err.field, err.message]).toEqual(['conflict', 'version', 'This booking was changed by import at Thu 3 Jun 2027, 09:00 CEST since you opened it.']);
    expect(err.details).toMatchObject({ current: { id: booking.id, status: 'confirmed', version: booking.version + 1 } });
    const [b] = await db().select().from(bookings).where(eq(bookings.id, booking.id));
    expect(b.status).toBe('confirmed');
    const rs = await db().select().from(reminders).where(eq(reminders.bookingId, booking.id));
    expect(rs.map((r) => r.status)).toEqual(['scheduled']);
    // With the version it now shows, the cancel goes through and is recorded with its actor.
    await cancelBookingAction(db(), { tenantId: tenant.id, actor: 'sam@example.test', now: new Date('2027-06-04T00:00:00Z') }, booking.id, { reason: 'asked to', version: booking.version + 1 });
    const [after] = await db().select().from(bookings).where(eq(bookings.id, booking.id));
    expect([after.status, after.updatedBy]).toEqual(['cancelled', 'sam@example.test']);
  });

  it('suppression remove: stale → 409 (no change time is kept for suppressions); the entry stays', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    await addSuppression(db(), tenant.id, { address: 'gone@example.test', reason: 'bounced' });
    const [sup] = await db().select().from(suppressions).where(eq(suppressions.tenantId, tenant.id));
    await db().transaction(async (tx) => {
      await tx.execute(sql`select set_config('punctual.actor', 'import', true)`);
      await tx.update(suppressions).set({ reason: 'complained' }).where(eq(suppressions.id, sup.id));
    });
    const err = await rejection(removeSuppressionAction(db(), { tenantId: tenant.id, actor: 'sam@example.test', now: new Date() }, sup.id, { reason: 'they asked', version: sup.version }));
    expect([err.code, err.message]).toEqual(['conflict', 'The suppression of gone@example.test was changed by import since you opened it.']);
    expect(err.details).toMatchObject({ current: { reason: 'complained', version: 2 } });
    expect(await db().select().from(suppressions).where(eq(suppressions.id, sup.id))).toHaveLength(1);
    await removeSuppressionAction(db(), { tenantId: tenant.id, actor: 'sam@example.test', now: new Date() }, sup.id, { reason: 'they asked', version: 2 });
    // A soft delete (issue #10 §3): the entry stays as history, marked removed.
    const [removed] = await db().select().from(suppressions).where(eq(suppressions.id, sup.id));
    expect([removed.removedBy, removed.removedReason, removed.removedAt !== null]).toEqual(['sam@example.test', 'they asked', true]);
  });

  it('suppression remove from two tabs at once: one removes it, the other gets 409 "already removed by <who> at <when>: <reason>" with the current entry; one audit entry', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const sam = await staffMember(tenant.id, 'Sam Staff', 'staff');
    const tess = await staffMember(tenant.id, 'Tess Tab', 'staff');
    await addSuppression(db(), tenant.id, { address: 'gone@example.test', reason: 'bounced' });
    const [sup] = await db().select().from(suppressions).where(eq(suppressions.tenantId, tenant.id));
    const now = new Date('2027-06-16T08:04:00Z');
    const results = await Promise.allSettled([
      removeSuppressionAction(db(), { tenantId: tenant.id, actor: sam.email, now }, sup.id, { reason: 'mailbox works again', version: sup.version }),
      removeSuppressionAction(db(), { tenantId: tenant.id, actor: tess.email, now }, sup.id, { reason: 'mailbox works again', version: sup.version }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const err = (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as AppError;
    const [removed] = await db().select().from(suppressions).where(eq(suppressions.id, sup.id));
    const winner = removed.removedBy === sam.email ? sam : tess;
    expect([err.code, err.httpStatus, err.field]).toEqual(['conflict', 409, 'version']);
    expect(err.message).toBe(`The suppression of gone@example.test was already removed by ${winner.name} at Wed 16 Jun 2027, 10:04 CEST: “mailbox works again”.`);
    expect(err.details).toMatchObject({
      current: { id: sup.id, version: removed.version, address: 'gone@example.test', removed: { at: '2027-06-16T08:04:00.000Z', by: winner.email, reason: 'mailbox works again' } },
      version: removed.version,
      changedBy: winner.name,
      changedAt: '2027-06-16T08:04:00.000Z',
    });
    expect(await db().select().from(auditLog).where(and(eq(auditLog.tenantId, tenant.id), eq(auditLog.action, 'suppression_remove')))).toHaveLength(1);

    // Later, from a tab still showing the old list (any version): the same 409, nothing written.
    const late = await rejection(removeSuppressionAction(db(), { tenantId: tenant.id, actor: sam.email, now: new Date('2027-06-17T00:00:00Z') }, sup.id, { reason: 'again', version: removed.version }));
    expect([late.code, late.message]).toEqual(['conflict', `The suppression of gone@example.test was already removed by ${winner.name} at Wed 16 Jun 2027, 10:04 CEST: “mailbox works again”.`]);
    const [still] = await db().select().from(suppressions).where(eq(suppressions.id, sup.id));
    expect([still.version, still.removedReason, still.removedBy]).toEqual([removed.version, 'mailbox works again', winner.email]);
    // An id that never existed is still 404.
    const missing = await rejection(removeSuppressionAction(db(), { tenantId: tenant.id, actor: sam.email, now }, '00000000-0000-4000-8000-000000000000', { reason: 'again', version: 1 }));
    expect([missing.code, missing.httpStatus]).toEqual(['not_found', 404]);
  });

  it('suppression remove with a version higher than the entry has → 400 naming `version` (never issued), not "changed by system"; nothing written', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    await addSuppression(db(), tenant.id, { address: 'gone@example.test', reason: 'bounced' });
    const [sup] = await db().select().from(suppressions).where(eq(suppressions.tenantId, tenant.id));
    expect(sup.version).toBe(1);
    const err = await rejection(removeSuppressionAction(db(), { tenantId: tenant.id, actor: 'sam@example.test', now: new Date() }, sup.id, { reason: 'they asked', version: 7 }));
    expect([err.code, err.httpStatus, err.field]).toEqual(['validation', 400, 'version']);
    expect(err.message).toBe('version: 7 was never issued for this record (it is at version 1) — reload the page and try again');
    expect(err.message).not.toMatch(/system/);
    const [after] = await db().select().from(suppressions).where(eq(suppressions.id, sup.id));
    expect([after.version, after.removedAt]).toEqual([1, null]);
    expect(await db().select().from(auditLog).where(eq(auditLog.tenantId, tenant.id))).toHaveLength(0);
  });

  it('rule edit: stale → 409 with the current rule; nothing written', async () => {
    const { tenant, rules } = await tenantWithRules(db(), [{ offset: '-P1D', name: 'Day before' }], 'America/New_York');
    const ada = await staffMember(tenant.id, 'Ada Admin', 'admin');
    const ben = await staffMember(tenant.id, 'Ben Boss', 'admin');
    const opened = ruleFormView(rules[0]);
    const { id: _id, version, ...fields } = opened;
    await updateRuleWithChoice(db(), { tenantId: tenant.id, actor: ben.email, actorId: ben.id, now: new Date('2027-03-14T07:30:00Z') }, rules[0].id, { ...fields, offset: '-PT2H', version } as never);
    const err = await rejection(updateRuleWithChoice(db(), { tenantId: tenant.id, actor: ada.email, actorId: ada.id, now: new Date('2027-03-14T08:00:00Z') }, rules[0].id, { ...fields, name: 'Day-before reminder', version } as never));
    expect([err.code, err.field, err.message]).toEqual(['conflict', 'version', 'This rule was changed by Ben Boss at Sun 14 Mar 2027, 03:30 EDT since you opened it.']);
    expect(err.details).toMatchObject({ current: { name: 'Day before', offset: '-PT2H', version: version + 1 } });
    const [r] = await db().select().from(reminderRules).where(eq(reminderRules.id, rules[0].id));
    expect([r.name, r.offset, r.version, r.updatedBy]).toEqual(['Day before', '-PT2H', version + 1, ben.email]);
  });

  it('role change: stale → 409 naming the account', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const ada = await staffMember(tenant.id, 'Ada Admin', 'admin');
    const ben = await staffMember(tenant.id, 'Ben Boss', 'admin');
    const vic = await staffMember(tenant.id, 'Vic Viewer', 'viewer');
    await setStaffRoleAction(db(), { tenantId: tenant.id, actor: ben.email, actorId: ben.id, now: new Date('2027-06-10T12:34:00Z') }, vic.id, { role: 'staff', version: 1 });
    const err = await rejection(setStaffRoleAction(db(), { tenantId: tenant.id, actor: ada.email, actorId: ada.id, now: new Date('2027-06-10T12:35:00Z') }, vic.id, { role: 'admin', version: 1 }));
    expect([err.code, err.field, err.message]).toEqual(['conflict', 'version', "Vic Viewer's account was changed by Ben Boss at Thu 10 Jun 2027, 14:34 CEST since you opened it."]);
    expect(err.details).toMatchObject({ current: { role: 'staff', version: 2 } });
    const [v] = await db().select().from(staffUsers).where(eq(staffUsers.id, vic.id));
    expect(v.role).toBe('staff');
  });
});

describe('checks that guard a write run under its lock', () => {
  it('two admins demote each other at the same moment (separate connections, 12 tries): the tenant always keeps an admin; the loser gets a 403 saying why', async () => {
    const c1 = createDb(tdb.url, { max: 1 });
    const c2 = createDb(tdb.url, { max: 1 });
    const outcomes: string[] = [];
    try {
      for (let i = 0; i < 12; i++) {
        const { tenant } = await tenantWithRules(db(), []);
        const x = await staffMember(tenant.id, 'Xena Admin', 'admin');
        const y = await staffMember(tenant.id, 'Yuri Admin', 'admin');
        const now = new Date();
        const [rx, ry] = await Promise.allSettled([
          setStaffRoleAction(c1.db, { tenantId: tenant.id, actor: x.email, actorId: x.id, now }, y.id, { role: 'staff', version: 1 }),
          setStaffRoleAction(c2.db, { tenantId: tenant.id, actor: y.email, actorId: y.id, now }, x.id, { role: 'staff', version: 1 }),
        ]);
        const admins = await db().select().from(staffUsers).where(eq(staffUsers.tenantId, tenant.id));
        expect(admins.filter((s) => s.role === 'admin')).toHaveLength(1);
        expect([rx.status, ry.status].sort()).toEqual(['fulfilled', 'rejected']);
        const loser = (rx.status === 'rejected' ? rx : ry) as PromiseRejectedResult;
        expect(loser.reason).toBeInstanceOf(AppError);
        expect([loser.reason.code, loser.reason.httpStatus]).toEqual(['forbidden', 403]);
        expect(loser.reason.message).toBe('Your role (staff) cannot do this: it needs an admin. (your role was changed while this request was on its way)');
        const audit = await db().select().from(auditLog).where(eq(auditLog.tenantId, tenant.id));
        expect(audit).toHaveLength(1);
        outcomes.push(rx.status === 'fulfilled' ? 'x' : 'y');
      }
    } finally {
      await c1.close();
      await c2.close();
    }
    expect(outcomes).toHaveLength(12);
  });

  it('a rule edit sent by an admin who is being demoted waits for the demotion and is then refused (403); the rule is unchanged', async () => {
    const { tenant, rules } = await tenantWithRules(db(), [{ offset: '-P1D', name: 'Day before' }]);
    const ada = await staffMember(tenant.id, 'Ada Admin', 'admin');
    const ben = await staffMember(tenant.id, 'Ben Boss', 'admin');
    const c1 = createDb(tdb.url, { max: 1 });
    const c2 = createDb(tdb.url, { max: 1 });
    try {
      const { id: _id, version, ...fields } = ruleFormView(rules[0]);
      let edit: Promise<unknown> | undefined;
      let settledEarly = false;
      // Ben's demotion of Ada holds its locks while Ada's rule edit arrives.
      await c1.db.transaction(async (tx) => {
        const demote = setStaffRoleAction(tx as unknown as Db, { tenantId: tenant.id, actor: ben.email, actorId: ben.id, now: new Date() }, ada.id, { role: 'staff', version: 1 });
        await demote;
        edit = updateRuleWithChoice(c2.db, { tenantId: tenant.id, actor: ada.email, actorId: ada.id, now: new Date() }, rules[0].id, { ...fields, offset: '-PT1H', version } as never);
        edit.then(
          () => (settledEarly = true),
          () => (settledEarly = true),
        );
        await waitForLockWaiters(db());
        expect(settledEarly).toBe(false); // blocked on Ada's staff row
      });
      const err = await rejection(edit!);
      expect([err.code, err.message]).toEqual(['forbidden', 'Your role (staff) cannot do this: it needs an admin. (your role was changed while this request was on its way)']);
      const [r] = await db().select().from(reminderRules).where(eq(reminderRules.id, rules[0].id));
      expect([r.offset, r.version]).toEqual(['-P1D', version]);
    } finally {
      await c1.close();
      await c2.close();
    }
  });
});

describe('an invitation sent by an admin who is being demoted', () => {
  it('waits for the demotion and is then refused (403); no invitation or account is created', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D' }]);
    const ada = await staffMember(tenant.id, 'Ada Admin', 'admin');
    const ben = await staffMember(tenant.id, 'Ben Boss', 'admin');
    const c1 = createDb(tdb.url, { max: 1 });
    const c2 = createDb(tdb.url, { max: 1 });
    try {
      let add: Promise<unknown> | undefined;
      await c1.db.transaction(async (tx) => {
        await setStaffRoleAction(tx as unknown as Db, { tenantId: tenant.id, actor: ben.email, actorId: ben.id, now: new Date() }, ada.id, { role: 'viewer', version: 1 });
        add = inviteStaffAction(c2.db, { tenantId: tenant.id, actor: ada.email, actorId: ada.id, now: new Date() }, { email: 'backdoor@example.test', name: 'Back Door', role: 'admin' }, 'http://127.0.0.1:3000');
        add.catch(() => {});
        await waitForLockWaiters(db());
      });
      const err = await rejection(add!);
      expect(err.code).toBe('forbidden');
      expect(await db().select().from(staffUsers).where(eq(staffUsers.email, 'backdoor@example.test'))).toHaveLength(0);
      expect(await db().select().from(staffInvitations).where(eq(staffInvitations.email, 'backdoor@example.test'))).toHaveLength(0);
    } finally {
      await c1.close();
      await c2.close();
    }
  });
});

describe('an import is an editor too', () => {
  it('a re-import that moves an event names "import" as its last editor: a staff save from before it is a 409 saying so', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    const sam = await staffMember(tenant.id, 'Sam Staff', 'staff');
    const ics = (start: string) => Buffer.from(`BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:moved-by-import@test\r\nDTSTAMP:20270101T000000Z\r\nDTSTART:${start}\r\nDURATION:PT1H\r\nSUMMARY:Kiln safety\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`);
    const now = new Date('2027-06-01T00:00:00Z');
    await importIcs(db(), tenant.slug, ics('20270615T080000Z'), now);
    const [atOpen] = await db().select().from(events).where(eq(events.externalUid, 'moved-by-import@test'));
    const { version, status: _s, scheduleVersion: _sv, ...opened } = eventFormView(atOpen);
    await importIcs(db(), tenant.slug, ics('20270616T080000Z'), new Date('2027-06-02T09:00:00Z'));
    const [moved] = await db().select().from(events).where(eq(events.id, atOpen.id));
    expect([moved.updatedBy, moved.scheduleVersion]).toEqual(['import', 2]);
    const err = await rejection(updateEventAction(db(), { tenantId: tenant.id, actor: sam.email, now }, atOpen.id, { ...opened, version, title: 'Kiln safety (bring gloves)' }));
    expect([err.code, err.field]).toEqual(['conflict', 'version']);
    expect(err.message).toMatch(/^This event was changed by import at .* since you opened it\.$/);
  });
});
