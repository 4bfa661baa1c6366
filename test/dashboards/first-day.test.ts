/**
 * The first-day checklist against real PostgreSQL, the real queue and the real SMTP catcher: a new organisation made
 * the way `npm run tenant -- create` makes it ticks its five steps one by one from what it stores — a proven sender
 * address, a reminder rule, an event, a message to a staff member's own address accepted by the provider, a
 * colleague invited — and an admin hides it once (audited once); staff may not.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, tenants } from '@/db/schema';
import { ensureStaffUser } from '@/server/accounts/staff';
import { inviteStaffAction } from '@/server/accounts/staff-invitations';
import { dismissFirstDayChecklist, firstDayChecklistOf } from '@/server/dashboards/first-day';
import { createTenant } from '@/server/organisations/tenants';
import { createReminderRule } from '@/server/rules/reminder-rule';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { createHarness, type Harness } from '@/test/support/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('a new organisation’s first day', () => {
  it('ticks each step from what is stored, then an admin hides it once; staff cannot', async () => {
    const db = h.tdb.db;
    const now = new Date('2027-03-01T09:00:00Z');
    h.clock.set(now);
    const tenant = await createTenant(db, { slug: 'first-day', name: 'First Day Studio', timeZone: 'Europe/Amsterdam', senderEmail: 'hello@firstday.example' });
    const adminId = (await ensureStaffUser(db, tenant.id, { email: 'Owner@firstday.example', name: 'Olu Owner', role: 'admin', password: 'first-day-password' }))!;
    const staffId = (await ensureStaffUser(db, tenant.id, { email: 'desk@firstday.example', name: 'Dee Desk', role: 'staff', password: 'first-day-password' }))!;
    const done = async () => {
      const [t] = await db.select().from(tenants).where(eq(tenants.id, tenant.id));
      const c = await firstDayChecklistOf(db, t!);
      return c && Object.fromEntries(c.items.map((i) => [i.id, i.done]));
    };

    // The operator's create proves the sender address at once (server/organisations/tenants.ts) …
    expect((await done())!.sender).toBe(true);
    // … an organisation that then changes it has to prove the new one (as the settings page does it: unproven).
    await db.update(tenants).set({ senderVerifiedEmail: null, senderVerifiedVia: null }).where(eq(tenants.id, tenant.id));
    // Two accounts made by the operator already count as a colleague; nothing else is done.
    expect(await done()).toEqual({ sender: false, rule: false, event: false, test: false, colleague: true });

    await db.update(tenants).set({ senderVerifiedEmail: 'hello@firstday.example', senderVerifiedVia: 'link' }).where(eq(tenants.id, tenant.id));
    expect((await done())!.sender).toBe(true);

    await createReminderRule(db, tenant.id, { name: 'Two hours before', anchor: 'start', offset: '-PT2H', audience: ['attendee', 'external'], template: 'attendee-reminder', lateSendWindowSeconds: 1800 });
    expect((await done())!.rule).toBe(true);

    const event = await createEvent(db, tenant.id, { title: 'Try-out', startsAt: '2027-03-01T12:00:00Z', endsAt: '2027-03-01T13:00:00Z', timeZone: 'Europe/Amsterdam' });
    expect(await done()).toMatchObject({ event: true, test: false });

    // A participant who is not staff does not count as the test; the admin booking their own address (any case) does,
    // once the provider accepted the reminder.
    await addBooking(db, tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'guest@example.test', name: 'Guest' } }, now);
    await addBooking(db, tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'owner@FIRSTDAY.example', name: 'Olu Owner' } }, now);
    expect((await done())!.test).toBe(false);
    await h.tick('2027-03-01T10:00:30Z');
    expect((await h.caught()).map((m) => m.envelopeTo[0]).sort()).toEqual(['guest@example.test', 'owner@FIRSTDAY.example']);
    expect((await done())!.test).toBe(true);

    // Staff may not hide it; an admin may, once.
    await expect(dismissFirstDayChecklist(db, { tenantId: tenant.id, actor: 'desk@firstday.example', actorId: staffId, now })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await dismissFirstDayChecklist(db, { tenantId: tenant.id, actor: 'Owner@firstday.example', actorId: adminId, now })).toEqual({ dismissed: true });
    expect(await dismissFirstDayChecklist(db, { tenantId: tenant.id, actor: 'Owner@firstday.example', actorId: adminId, now })).toEqual({ dismissed: false });
    expect(await done()).toBeNull();
    const entries = await db.select().from(auditLog).where(eq(auditLog.tenantId, tenant.id));
    expect(entries.filter((e) => e.action === 'first_day_dismiss').map((e) => e.actor)).toEqual(['Owner@firstday.example']);
  });

  it('an organisation with one account: inviting a colleague ticks that step', async () => {
    const db = h.tdb.db;
    const now = new Date();
    const tenant = await createTenant(db, { slug: 'solo', name: 'Solo Studio', timeZone: 'Europe/Lisbon', senderEmail: 'hi@solo.example' });
    const adminId = (await ensureStaffUser(db, tenant.id, { email: 'me@solo.example', name: 'Me', role: 'admin', password: 'first-day-password' }))!;
    const read = async () => firstDayChecklistOf(db, (await db.select().from(tenants).where(eq(tenants.id, tenant.id)))[0]!);
    expect((await read())!.items.find((i) => i.id === 'colleague')!.done).toBe(false);
    await inviteStaffAction(db, { tenantId: tenant.id, actor: 'me@solo.example', actorId: adminId, now }, { email: 'you@solo.example', name: 'You', role: 'staff' }, 'http://127.0.0.1:3000');
    expect((await read())!.items.find((i) => i.id === 'colleague')!.done).toBe(true);
    expect((await read())!.show).toBe(true);
  });
});
