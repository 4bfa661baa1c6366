/**
 * The reminder pipeline end to end, in process: real PostgreSQL, real graphile-worker queue, real SMTP
 * catcher, injectable clock. Values are the exact ones from issue #2.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveries, deliveryAttempts, events, reminders } from '@/db/schema';
import { allowGuestsFrom, createTenant } from '@/server/organisations/tenants';
import { addSuppression } from '@/server/suppressions/suppressions';
import { addBooking, cancelBooking } from '@/server/scheduling/bookings';
import { createEvent, rescheduleEvent } from '@/server/scheduling/events';
import { createHarness, type Harness } from '@/test/support/harness';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';
import { waitForLockWaiters } from '@/test/support/lock-wait';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());
beforeEach(async () => h.tdb.reset());

const db = () => h.tdb.db;
const remindersOf = (bookingId: string) =>
  db().select().from(reminders).where(eq(reminders.bookingId, bookingId)).orderBy(reminders.scheduleVersion, reminders.dueAt);

describe('due instants are stored as planned (DST, via the database)', () => {
  it.each([
    ['2027-03-28T09:00:00Z', 'Europe/Amsterdam', '-PT24H', false, '2027-03-27T09:00:00.000Z'],
    ['2027-03-28T09:00:00Z', 'Europe/Amsterdam', '-P1D', false, '2027-03-27T10:00:00.000Z'],
    ['2027-11-07T17:00:00Z', 'America/New_York', '-PT24H', false, '2027-11-06T17:00:00.000Z'],
    ['2027-11-07T17:00:00Z', 'America/New_York', '-P1D', false, '2027-11-06T16:00:00.000Z'],
    ['2027-03-15T06:30:00Z', 'America/New_York', '-P1D', false, '2027-03-14T07:30:00.000Z'],
    ['2027-10-17T22:00:00Z', 'Europe/Berlin', '-PT15H', true, '2027-10-17T07:00:00.000Z'],
    ['2027-10-18T04:00:00Z', 'America/New_York', '-PT15H', true, '2027-10-17T13:00:00.000Z'],
  ])('event %s %s, offset %s (all-day %s) → due %s', async (startsAt, zone, offset, allDay, due) => {
    const { tenant } = await tenantWithRules(db(), [{ offset, window: 3600 }], zone);
    const { booking } = await eventWithBooking(
      db(),
      tenant.id,
      { startsAt, timeZone: zone, allDay, endsAt: allDay ? new Date(new Date(startsAt).getTime() + 86_400_000).toISOString() : undefined },
      new Date('2027-01-01T00:00:00Z'),
    );
    const [r] = await remindersOf(booking.id);
    expect(r.dueAt.toISOString()).toBe(due);
    expect(r.status).toBe('scheduled');
  });
});

describe('reschedule', () => {
  it('moving the event before the reminder is due sends exactly one email, for the new date, keyed v2', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    const { event, booking } = await eventWithBooking(
      db(),
      tenant.id,
      { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam', title: 'Pottery' },
      new Date('2027-06-01T00:00:00Z'),
    );
    await rescheduleEvent(
      db(),
      tenant.id,
      event.id,
      { startsAt: '2027-06-16T08:00:00Z', endsAt: '2027-06-16T09:00:00Z', timeZone: 'Europe/Amsterdam' },
      new Date('2027-06-10T00:00:00Z'),
    );
    // Walk the clock through both due instants (old 15 June 07:00Z, new 16 June 07:00Z).
    await h.tick('2027-06-15T07:00:00Z');
    await h.tick('2027-06-15T07:30:00Z');
    await h.tick('2027-06-16T07:00:00Z');
    const mail = await h.caught();
    expect(mail).toHaveLength(1);
    // The contact's locale is "en": CLDR American English writes "June 16, 2027".
    expect(mail[0].text).toContain('June 16, 2027');
    expect(mail[0].text).not.toContain('June 15, 2027');
    const rs = await remindersOf(booking.id);
    expect(rs.map((r) => [r.scheduleVersion, r.status])).toEqual([
      [1, 'superseded'],
      [2, 'done'],
    ]);
    expect(rs[0].statusReason).toBe('superseded by schedule version 2');
    const [d] = await db().select().from(deliveries);
    expect(d.messageKey).toMatch(/:v2:email$/);
    expect(d.status).toBe('accepted');
    expect(mail[0].headers).toMatchObject({ 'x-punctual-message-key': d.messageKey });
  });

  it('a superseded reminder that was already dispatched ends superseded at send time, not sent', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    const { event, booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    // Dispatcher claims (status dispatched, send job queued) but no worker runs it yet.
    h.clock.set('2027-06-15T07:00:00Z');
    const { dispatchDue } = await import('@/server/sending/dispatch');
    await dispatchDue(db(), h.clock.now());
    // Reschedule marks it superseded; force it back to `dispatched` to model a reschedule that raced the
    // claim, so the send-time re-read must catch the version change on its own.
    await rescheduleEvent(db(), tenant.id, event.id, { startsAt: '2027-06-20T08:00:00Z', endsAt: '2027-06-20T09:00:00Z', timeZone: 'Europe/Amsterdam' }, h.clock.now());
    await db().update(reminders).set({ status: 'dispatched' }).where(eq(reminders.scheduleVersion, 1));
    await h.drain();
    expect(await h.caught()).toHaveLength(0);
    const [old] = await remindersOf(booking.id);
    expect(old.status).toBe('superseded');
    expect(old.statusReason).toBe('superseded by schedule version 2');
  });
});

describe('a reschedule that does not move a reminder', () => {
  it.each([
    ['only the zone’s spelling changes (Europe/Kiev → Europe/Kyiv)', { startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T09:00:00Z', timeZone: 'Europe/Kyiv' }],
    ['only the end moves', { startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T10:00:00Z', timeZone: 'Europe/Kiev' }],
  ])('%s after the reminder went out: it is carried into the new version, never sent again', async (_name, timing) => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H', window: 3600 }, { offset: '-PT30M', window: 1200 }]);
    const { event, booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Kiev' }, new Date('2027-06-01T00:00:00Z'));
    await h.tick('2027-06-15T07:00:00Z'); // the 1-hour reminder goes out
    expect(await h.caught()).toHaveLength(1);
    const updated = await rescheduleEvent(db(), tenant.id, event.id, timing, new Date('2027-06-15T07:10:00Z'));
    expect(updated.scheduleVersion).toBe(2);
    await h.tick('2027-06-15T07:20:00Z');
    await h.tick('2027-06-15T07:30:00Z'); // the 30-minute reminder, still waiting at the reschedule, goes out once
    await h.tick('2027-06-15T07:45:00Z');
    expect(await h.caught()).toHaveLength(2);
    const rs = await remindersOf(booking.id);
    expect(rs.map((r) => [r.scheduleVersion, r.status]).sort()).toEqual([
      [2, 'done'],
      [2, 'done'],
    ]);
    expect(await db().select().from(deliveries)).toHaveLength(2);
  });
});

describe('cancel', () => {
  it('booking cancelled one second before the due instant → no email, cancelled', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    await cancelBooking(db(), tenant.id, booking.id, 'guest cancelled', new Date('2027-06-15T06:59:59Z'));
    await h.tick('2027-06-15T07:00:00Z');
    expect(await h.caught()).toHaveLength(0);
    const [r] = await remindersOf(booking.id);
    expect(r.status).toBe('cancelled');
    expect(r.statusReason).toBe('booking cancelled: guest cancelled');
    expect(await db().select().from(deliveries)).toHaveLength(0);
  });

  it('booking cancelled after the dispatcher claimed the reminder, before the send → no email, cancelled', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    h.clock.set('2027-06-15T07:00:00Z');
    const { dispatchDue } = await import('@/server/sending/dispatch');
    expect((await dispatchDue(db(), h.clock.now())).dispatched).toBe(1);
    expect((await remindersOf(booking.id))[0].status).toBe('dispatched');
    await cancelBooking(db(), tenant.id, booking.id, 'guest cancelled', h.clock.now());
    await h.drain(); // the queued send job runs now
    expect(await h.caught()).toHaveLength(0);
    expect((await remindersOf(booking.id))[0].status).toBe('cancelled');
  });

  it('booking cancelled after the message-key claim, before the provider call → delivery cancelled, no email', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    h.clock.set('2027-06-15T07:00:00Z');
    const [r] = await remindersOf(booking.id);
    const { sendReminder } = await import('@/server/sending/send-reminder');
    // Step 1 only: the claim commits and the provider call is queued as a `deliver` job.
    const res = await sendReminder(h.ctx.sendDeps, r.id, { deliverInline: false });
    expect(res.kind).toBe('delivered');
    await cancelBooking(db(), tenant.id, booking.id, 'guest cancelled', h.clock.now());
    await h.drain();
    expect(await h.caught()).toHaveLength(0);
    const [d] = await db().select().from(deliveries);
    expect(d.status).toBe('cancelled');
    expect(d.statusReason).toBe('booking cancelled');
    expect(await db().select().from(deliveryAttempts)).toHaveLength(0);
  });
});

describe('a cancellation committing while the send re-reads', () => {
  it('the send waits for it, sees it, and does not send', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    h.clock.set('2027-06-15T07:00:00Z');
    const [r] = await remindersOf(booking.id);
    const { sendReminder, deliver } = await import('@/server/sending/send-reminder');
    const res = await sendReminder(h.ctx.sendDeps, r.id, { deliverInline: false });
    const deliveryId = (res as { deliveryId: string }).deliveryId;
    // A cancellation is in flight: the booking row is updated but not yet committed.
    let commit!: () => void;
    const released = new Promise<void>((r2) => (commit = r2));
    let updated!: () => void;
    const isUpdated = new Promise<void>((r2) => (updated = r2));
    const cancelling = h.tdb.sql.begin(async (tx) => {
      await tx`update bookings set status = 'cancelled', status_reason = 'cancelled at the due instant' where id = ${booking.id}`;
      await tx`update reminders set status = 'cancelled' where booking_id = ${booking.id} and status in ('scheduled','dispatched')`;
      updated();
      await released;
    });
    await isUpdated;
    const sending = deliver(h.ctx.sendDeps, deliveryId);
    await waitForLockWaiters(h.tdb.db); // the send is now waiting on the booking's row lock
    commit();
    await cancelling;
    const result = await sending;
    expect(result.status).toBe('cancelled');
    expect(await h.caught()).toHaveLength(0);
  });
});

describe('late booking (Vienna, 2027-06-05T19:00 local, -P1D and -PT1H, 1-hour windows)', () => {
  const rules = [
    { offset: '-P1D', window: 3600, name: 'day before' },
    { offset: '-PT1H', window: 3600, name: 'hour before' },
  ];

  it('booked at 08:00Z on the day: 1-day reminder stored expired with a reason, 1-hour reminder sent at 16:00Z', async () => {
    const { tenant } = await tenantWithRules(db(), rules, 'Europe/Vienna');
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-05T17:00:00Z', timeZone: 'Europe/Vienna' }, new Date('2027-06-05T08:00:00Z'));
    const rs = await remindersOf(booking.id);
    const day = rs.find((r) => r.dueAt.toISOString() === '2027-06-04T17:00:00.000Z')!;
    expect(day.status).toBe('expired');
    expect(day.statusReason).toContain('after its expiry instant');
    await h.tick('2027-06-05T08:00:00Z');
    expect(await h.caught()).toHaveLength(0);
    await h.tick('2027-06-05T15:59:59Z');
    expect(await h.caught()).toHaveLength(0);
    await h.tick('2027-06-05T16:00:00Z');
    const mail = await h.caught();
    expect(mail).toHaveLength(1);
    const [d] = await db().select().from(deliveries);
    const [a] = await db().select().from(deliveryAttempts);
    expect(a.startedAt.toISOString()).toBe('2027-06-05T16:00:00.000Z');
    expect(d.status).toBe('accepted');
  });

  it('booked at 2027-06-02T08:00Z: both reminders, each at its due instant', async () => {
    const { tenant } = await tenantWithRules(db(), rules, 'Europe/Vienna');
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-05T17:00:00Z', timeZone: 'Europe/Vienna' }, new Date('2027-06-02T08:00:00Z'));
    await h.tick('2027-06-04T16:59:59Z');
    expect(await h.caught()).toHaveLength(0);
    await h.tick('2027-06-04T17:00:00Z');
    expect(await h.caught()).toHaveLength(1);
    await h.tick('2027-06-05T16:00:00Z');
    expect(await h.caught()).toHaveLength(2);
    const starts = (await db().select().from(deliveryAttempts)).map((a) => a.startedAt.toISOString()).sort();
    expect(starts).toEqual(['2027-06-04T17:00:00.000Z', '2027-06-05T16:00:00.000Z']);
    expect((await remindersOf(booking.id)).every((r) => r.status === 'done')).toBe(true);
  });
});

describe('outage (Madrid 2027-01-20T10:00 local, -PT30M, 1-hour window, worker down from 08:00Z)', () => {
  async function setup() {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT30M', window: 3600 }], 'Europe/Madrid');
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-01-20T09:00:00Z', timeZone: 'Europe/Madrid' }, new Date('2027-01-10T00:00:00Z'));
    await h.tick('2027-01-20T08:00:00Z'); // last run before the outage: nothing due yet
    expect(await h.caught()).toHaveLength(0);
    return booking;
  }

  it('worker back at 08:50Z → sent once, at once', async () => {
    const booking = await setup();
    await h.tick('2027-01-20T08:50:00Z');
    await h.tick('2027-01-20T08:51:00Z');
    expect(await h.caught()).toHaveLength(1);
    const [a] = await db().select().from(deliveryAttempts);
    expect(a.startedAt.toISOString()).toBe('2027-01-20T08:50:00.000Z');
    expect((await remindersOf(booking.id))[0].status).toBe('done');
  });

  it('worker back at 12:00Z → no email, expired', async () => {
    const booking = await setup();
    await h.tick('2027-01-20T12:00:00Z');
    expect(await h.caught()).toHaveLength(0);
    const [r] = await remindersOf(booking.id);
    expect(r.status).toBe('expired');
    // Both instants in the event's zone, no raw ISO instant (issue #12).
    expect(r.statusReason).toBe('not dispatched before its expiry instant Wed 20 Jan, 10:00 Europe/Madrid (the dispatcher next ran Wed 20 Jan, 13:00:00 — the worker was down or behind)');
  });
});

describe('a stored zone PostgreSQL does not know (legacy data)', () => {
  it('never stops the dispatcher: the overdue reminder expires with a UTC reason and another event’s due reminder is still sent', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H', window: 600 }]);
    const a = await eventWithBooking(db(), tenant.id, { startsAt: '2027-03-10T09:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-03-01T00:00:00Z'), { email: 'a@example.test' });
    const b = await eventWithBooking(db(), tenant.id, { startsAt: '2027-03-10T10:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-03-01T00:00:00Z'), { email: 'b@example.test' });
    // A zone ICU knows and PostgreSQL does not, as an older version let through.
    await db().update(events).set({ timeZone: 'AET' }).where(eq(events.id, a.event.id));
    // 09:00Z: A's reminder (due 08:00Z, useful until 08:10Z) is overdue; B's (due 09:00Z) is due.
    await h.tick('2027-03-10T09:00:00Z');
    const [ra] = await remindersOf(a.booking.id);
    expect(ra.status).toBe('expired');
    expect(ra.statusReason).toContain('not dispatched before its expiry instant Wed 10 Mar, 08:10 UTC');
    expect((await remindersOf(b.booking.id))[0].status).toBe('done');
    expect((await h.caught()).map((m) => m.envelopeTo)).toEqual([['b@example.test']]);
  });
});

describe('suppression', () => {
  it('an address suppressed after planning, before due → no email, delivery suppressed', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'), { email: 'Gone@Example.test' });
    await addSuppression(db(), tenant.id, { address: 'gone@example.test', reason: 'unsubscribed', source: 'test' });
    await h.tick('2027-06-15T07:00:00Z');
    expect(await h.caught()).toHaveLength(0);
    const [d] = await db().select().from(deliveries);
    expect(d.status).toBe('suppressed');
    expect(d.statusReason).toContain('unsubscribed');
    expect((await remindersOf(booking.id))[0].status).toBe('done');
  });
});

describe('external guests are reminded by their own tenant (invariant 9)', () => {
  async function guestSetup() {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H', audience: ['external'] }]);
    const guestTenant = await createTenant(db(), { slug: `guest-${Date.now().toString(36)}`, name: 'Guest Collective', timeZone: 'Europe/London', senderEmail: 'hello@guest.test' });
    const event = await createEvent(db(), tenant.id, { title: 'Joint session', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T09:00:00Z', timeZone: 'Europe/Amsterdam' });
    await allowGuestsFrom(db(), guestTenant.id, tenant.id);
    await addBooking(db(), tenant.id, { eventId: event.id, role: 'external', guestTenantId: guestTenant.id, contact: { email: 'guest@elsewhere.test', name: 'Gus' } }, new Date('2027-06-01T00:00:00Z'));
    return { tenant, guestTenant, event };
  }

  it('without the guest organisation’s agreement, an external booking is refused and nothing is stored', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H', audience: ['external'] }]);
    const other = await createTenant(db(), { slug: `other-${Date.now().toString(36)}`, name: 'Unrelated Org', timeZone: 'UTC', senderEmail: 'hello@other.test' });
    const event = await createEvent(db(), tenant.id, { title: 'Spoof attempt', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T09:00:00Z', timeZone: 'UTC' });
    await expect(
      addBooking(db(), tenant.id, { eventId: event.id, role: 'external', guestTenantId: other.id, contact: { email: 'victim@anywhere.test', name: 'V' } }, new Date('2027-06-01T00:00:00Z')),
    ).rejects.toMatchObject({ code: 'forbidden', field: 'guestTenantId' });
    expect(await db().select().from(reminders)).toHaveLength(0);
  });

  it("another tenant's suppression entry is named to the host, never described", async () => {
    const { guestTenant } = await guestSetup();
    await addSuppression(db(), guestTenant.id, { address: 'guest@elsewhere.test', reason: 'complained', source: 'private note of the guest org' });
    await h.tick('2027-06-15T07:00:00Z');
    const [d] = await db().select().from(deliveries);
    expect(d.statusReason).toBe("address suppressed by the guest's own organisation (Guest Collective)");
  });

  it("the guest's reminder goes out in the guest tenant's name", async () => {
    await guestSetup();
    await h.tick('2027-06-15T07:00:00Z');
    const [m] = await h.caught();
    expect(m.envelopeFrom).toBe('hello@guest.test');
    expect((m.headers as Record<string, string>).from).toContain('Guest Collective');
    expect(m.text).toContain('Guest Collective');
  });

  it("the guest tenant's suppression list applies", async () => {
    const { guestTenant } = await guestSetup();
    await addSuppression(db(), guestTenant.id, { address: 'guest@elsewhere.test', reason: 'unsubscribed', source: 'guest tenant' });
    await h.tick('2027-06-15T07:00:00Z');
    expect(await h.caught()).toHaveLength(0);
    const [d] = await db().select().from(deliveries);
    expect(d.status).toBe('suppressed');
  });
});

describe('template data', () => {
  it('a room-opening reminder whose room was removed fails naming the field; nothing claimed or sent', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: 'PT0S', anchor: 'room_open', template: 'room-opening' }]);
    const { event, booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam', roomUrl: 'https://rooms.example/abc' }, new Date('2027-06-01T00:00:00Z'));
    await db().update(events).set({ roomUrl: null }).where(eq(events.id, event.id));
    await h.tick('2027-06-15T07:30:00Z');
    expect(await h.caught()).toHaveLength(0);
    const [r] = await remindersOf(booking.id);
    expect(r.status).toBe('failed');
    expect(r.statusReason).toMatch(/roomUrl/);
    expect(await db().select().from(deliveries)).toHaveLength(0);
  });

  it('a missing start time fails naming startsAt; nothing claimed or sent', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-06-01T00:00:00Z'));
    const { sendReminder } = await import('@/server/sending/send-reminder');
    const sendMod = await import('@/server/sending/send-checks');
    h.clock.set('2027-06-15T07:00:00Z');
    const [r] = await remindersOf(booking.id);
    const res = await sendReminder({ ...h.ctx.sendDeps, templateData: (w) => ({ ...sendMod.buildTemplateData(w), startsAt: undefined }) }, r.id);
    expect(res).toMatchObject({ kind: 'terminated', status: 'failed' });
    const [after] = await remindersOf(booking.id);
    expect(after.status).toBe('failed');
    expect(after.statusReason).toContain('startsAt');
    expect(await db().select().from(deliveries)).toHaveLength(0);
    expect(await h.caught()).toHaveLength(0);
  });
});
