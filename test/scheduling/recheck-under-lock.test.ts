/**
 * Re-check under the lock (issue #12, DESIGN.md invariant 11): a request that began while its sender held a role
 * must not complete after another admin took that role away. Every staff write re-reads the actor's role FOR SHARE
 * inside the transaction that writes (server/platform/versions.ts `recheckActor`); a role change locks the tenant's staff
 * rows FOR UPDATE. So the two run one after the other, in whichever order they reach the actor's row:
 * - the demotion first → the write waits for it, then finds the new role and is refused (403), writing nothing;
 * - the write first → the demotion waits for it; the write completes under the role it was sent with.
 * Each case runs on two real connections, with the demotion's transaction held open while the write arrives —
 * without the re-check the write would go through at once.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type Db } from '@/db/client';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { auditLog, events, staffUsers } from '@/db/schema';
import { checkAlertsNow, saveAlertSettings } from '@/server/alerts/settings';
import type { AlertSenders } from '@/server/alerts/sender';
import { AppError } from '@/server/platform/errors';
import { nudgeParticipant } from '@/server/sending/nudge';
import { setStaffRoleAction } from '@/server/accounts/staff';
import { addBookingAction, addSuppressionAction, cancelBookingAction, cancelEventAction, createEventAction, removeSuppressionAction, updateEventAction, eventFormView } from '@/server/scheduling/staff-actions';
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
const db = (): Db => tdb.db;

let n = 0;
async function staffMember(tenantId: string, name: string, role: 'admin' | 'staff' | 'viewer') {
  const email = `${name.split(' ')[0].toLowerCase()}${++n}@recheck.test`;
  const id = await insertStaffUser(db(), { tenantId, email, name, role, passwordHash: 'not-used-here' });
  return { id: id!, email, name };
}

async function auditActions(tenantId: string): Promise<string[]> {
  const rows = await db().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.tenantId, tenantId)).orderBy(auditLog.createdAt);
  return rows.map((r) => r.action);
}

/**
 * Ben (admin) changes `victim`'s role to `to` in a transaction on one connection and holds it open while `write`
 * starts on another connection; after 300 ms (the write must still be waiting) Ben commits.
 * @returns the write's outcome.
 */
async function writeDuringDemotion(tenantId: string, ben: { id: string; email: string }, victim: { id: string }, to: 'staff' | 'viewer', write: (db: Db) => Promise<unknown>) {
  const c1 = createDb(tdb.url, { max: 1 });
  const c2 = createDb(tdb.url, { max: 1 });
  try {
    let p: Promise<unknown> | undefined;
    let settledEarly = false;
    await c1.db.transaction(async (tx) => {
      await setStaffRoleAction(tx as unknown as Db, { tenantId, actor: ben.email, actorId: ben.id, now: new Date() }, victim.id, { role: to, version: 1 });
      p = write(c2.db);
      p.then(
        () => (settledEarly = true),
        () => (settledEarly = true),
      );
      await waitForLockWaiters(tdb.db);
      expect(settledEarly).toBe(false); // waiting for the actor's staff row
    });
    return await p!.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  } finally {
    await c1.close();
    await c2.close();
  }
}

function expectForbidden(r: { ok: boolean; error?: unknown }, role: 'staff' | 'viewer') {
  expect(r.ok).toBe(false);
  const e = r.error as AppError;
  expect(e).toBeInstanceOf(AppError);
  expect([e.code, e.httpStatus]).toEqual(['forbidden', 403]);
  expect(e.message).toBe(
    role === 'viewer'
      ? 'Your role (viewer) is read-only: ask a staff member or an admin. (your role was changed while this request was on its way)'
      : 'Your role (staff) cannot do this: it needs an admin. (your role was changed while this request was on its way)',
  );
}

const form = { title: 'Glaze workshop', timeZone: 'Europe/Amsterdam', start: '2030-05-02T10:00', end: '2030-05-02T12:00' };

describe('a write sent by someone whose role is being taken away waits for the change, then is refused (403) and writes nothing', () => {
  it('an admin demoted to viewer cannot create an event', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D' }]);
    const ada = await staffMember(tenant.id, 'Ada Admin', 'admin');
    const ben = await staffMember(tenant.id, 'Ben Boss', 'admin');
    const r = await writeDuringDemotion(tenant.id, ben, ada, 'viewer', (c) => createEventAction(c, { tenantId: tenant.id, actor: ada.email, actorId: ada.id, now: new Date() }, form));
    expectForbidden(r, 'viewer');
    expect(await db().select().from(events).where(eq(events.tenantId, tenant.id))).toHaveLength(0);
    expect(await auditActions(tenant.id)).toEqual(['staff_role']);
  });

  it('a staff member demoted to viewer cannot edit, cancel or book onto an event, nudge, or change the suppression list', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D' }]);
    const ben = await staffMember(tenant.id, 'Ben Boss', 'admin');
    const now = new Date('2030-04-01T08:00:00Z');
    const { event, booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2030-05-02T08:00:00Z', timeZone: 'Europe/Amsterdam' }, now);
    const listed = await addSuppression(db(), tenant.id, { address: 'listed@example.test', reason: 'manual' });
    const { version, status: _s, scheduleVersion: _v, ...opened } = eventFormView(event);
    const writes: [string, (c: Db, ctx: { tenantId: string; actor: string; actorId: string; now: Date }) => Promise<unknown>][] = [
      ['edit event', (c, ctx) => updateEventAction(c, ctx, event.id, { ...opened, title: 'Renamed', version })],
      ['cancel event', (c, ctx) => cancelEventAction(c, ctx, event.id, { reason: 'no longer needed', version })],
      ['add booking', (c, ctx) => addBookingAction(c, ctx, event.id, { name: 'Nia New', email: 'nia@example.test', role: 'attendee' })],
      ['cancel booking', (c, ctx) => cancelBookingAction(c, ctx, booking.id, { reason: 'asked to', version: booking.version })],
      ['nudge', (c, ctx) => nudgeParticipant(c, ctx, { bookingId: booking.id, template: 'attendee-reminder', idempotencyKey: `nudge-key-${ctx.actorId}` })],
      ['add suppression', (c, ctx) => addSuppressionAction(c, ctx, { address: 'new@example.test', reason: 'manual' })],
      ['remove suppression', (c, ctx) => removeSuppressionAction(c, ctx, (listed as { id: string }).id, { reason: 'asked to', version: 1 })],
    ];
    for (const [what, write] of writes) {
      const sam = await staffMember(tenant.id, `Sam ${what}`, 'staff');
      const before = await auditActions(tenant.id);
      const r = await writeDuringDemotion(tenant.id, ben, sam, 'viewer', (c) => write(c, { tenantId: tenant.id, actor: sam.email, actorId: sam.id, now }));
      expectForbidden(r, 'viewer');
      expect(await auditActions(tenant.id), what).toEqual([...before, 'staff_role']);
    }
    const [e] = await db().select().from(events).where(eq(events.id, event.id));
    expect([e.title, e.status, e.version]).toEqual([event.title, 'scheduled', version]);
  });

  it('an admin demoted to staff cannot run "Check now" on the alerts', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D' }]);
    const ada = await staffMember(tenant.id, 'Ada Admin', 'admin');
    const ben = await staffMember(tenant.id, 'Ben Boss', 'admin');
    const now = new Date();
    await saveAlertSettings(db(), { tenantId: tenant.id, actor: ben.email, actorId: ben.id, now }, { emailRecipients: [], slackWebhookUrl: null, lagP95Ms: 60_000, oldestDueSeconds: 600, version: 0 }, { allowHttp: true });
    const states = async () => (await db().execute<{ n: number }>(sql`select count(*)::int as n from alert_states where tenant_id = ${tenant.id}`))[0].n;
    const r = await writeDuringDemotion(tenant.id, ben, ada, 'staff', (c) => checkAlertsNow(c, { tenantId: tenant.id, actor: ada.email, actorId: ada.id, now }, {} as AlertSenders));
    expectForbidden(r, 'staff');
    expect(await states()).toBe(0);
    // As an admin the same call evaluates (and records) the conditions: the refusal above is the re-check, not the setup.
    await checkAlertsNow(db(), { tenantId: tenant.id, actor: ben.email, actorId: ben.id, now }, {} as AlertSenders);
    expect(await states()).toBeGreaterThan(0);
  });
});

describe('a write that reaches the lock first completes; the role change waits for it', () => {
  it('an event created while still an admin stays created, and the demotion then goes through', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D' }]);
    const ada = await staffMember(tenant.id, 'Ada Admin', 'admin');
    const ben = await staffMember(tenant.id, 'Ben Boss', 'admin');
    const c1 = createDb(tdb.url, { max: 1 });
    const c2 = createDb(tdb.url, { max: 1 });
    try {
      let demote: Promise<unknown> | undefined;
      let demotedEarly = false;
      await c2.db.transaction(async (tx) => {
        await createEventAction(tx, { tenantId: tenant.id, actor: ada.email, actorId: ada.id, now: new Date() }, form);
        demote = setStaffRoleAction(c1.db, { tenantId: tenant.id, actor: ben.email, actorId: ben.id, now: new Date() }, ada.id, { role: 'viewer', version: 1 });
        demote.then(() => (demotedEarly = true)).catch(() => {});
        await waitForLockWaiters(tdb.db);
        expect(demotedEarly).toBe(false); // the demotion waits for Ada's write to commit
      });
      await demote;
    } finally {
      await c1.close();
      await c2.close();
    }
    expect(await db().select().from(events).where(eq(events.tenantId, tenant.id))).toHaveLength(1);
    const [a] = await db().select().from(staffUsers).where(and(eq(staffUsers.id, ada.id)));
    expect(a.role).toBe('viewer');
    expect(await auditActions(tenant.id)).toEqual(['event_create', 'staff_role']);
  });
});
