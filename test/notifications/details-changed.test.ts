/**
 * Every change of an event reaches people's calendars: staff change an event's title, place, online-room link or
 * description from the event form (server/scheduling/staff-actions.ts updateEventAction) and choose whether to tell
 * its people; a told change sends each booked person a "details changed" message with the updated calendar
 * invitation (same UID, next SEQUENCE). The calendar SEQUENCE is one counter per booking across timing changes,
 * details changes and cancellations (domain/calendar/invite-sequence.ts), fixed on a message at its claim so a retry
 * after a later change keeps its own value.
 *
 * Real PostgreSQL, the real queue, the real fault-injecting SMTP peer (test/support/smtp-peer.ts) the messages
 * arrive at, and Punctual's own iCalendar importer reading the invitations back.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpChannel } from '@/channels/smtp';
import { auditLog, bookings, deliveries, domainEvents, events, notificationSettings, type Event } from '@/db/schema';
import { inviteSequenceOf } from '@/domain/calendar/invite-sequence';
import { defaultPolicy } from '@/domain/notifications/notification-policy';
import { importIcs } from '@/server/calendar/import-ics';
import { createTenant } from '@/server/organisations/tenants';
import { processDomainEvent } from '@/server/notifications/notify';
import { addBooking } from '@/server/scheduling/bookings';
import { defaultDispatchPolicy, dispatchDue } from '@/server/sending/dispatch';
import { createEvent } from '@/server/scheduling/events';
import { cancelBookingAction, eventFormView, updateEventAction, type ActionContext } from '@/server/scheduling/staff-actions';
import { createHarness, type Harness } from '@/test/support/harness';
import { tenantWithRules } from '@/test/support/fixtures';
import { startSmtpPeer, type SmtpPeer } from '@/test/support/smtp-peer';

let h: Harness;
let smtp: SmtpPeer;

beforeAll(async () => {
  smtp = await startSmtpPeer(['accept']);
  h = await createHarness({ channel: createSmtpChannel({ url: smtp.url }), deps: { random: () => 0 } });
});
afterAll(async () => {
  await h?.close();
  await smtp?.close();
});
afterEach(async () => {
  await h.tdb.reset();
  smtp.received.length = 0;
  smtp.script('accept');
});

const db = () => h.tdb.db;

/** A tenant in Amsterdam with the default notification policy and a reminder 24 hours before the start. */
async function amsterdam() {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D', name: '24 hours before', window: 6 * 3600 }], 'Europe/Amsterdam');
  await db().insert(notificationSettings).values({ tenantId: tenant.id, policy: defaultPolicy });
  return tenant;
}

/** Summer picnic on 2027-07-01, 10:00–12:00 in Amsterdam (08:00Z), in Room A, and Ana booked on 1 June. */
async function picnicWithAna(tenantId: string) {
  const event = await createEvent(db(), tenantId, {
    title: 'Summer picnic',
    description: 'Brign a hat.',
    location: 'Room A',
    startsAt: '2027-07-01T08:00:00Z',
    endsAt: '2027-07-01T10:00:00Z',
    timeZone: 'Europe/Amsterdam',
  });
  h.clock.set('2027-06-01T12:00:00Z');
  const booking = await addBooking(db(), tenantId, { eventId: event.id, role: 'attendee', contact: { email: 'ana@example.test', name: 'Ana', locale: 'en-GB' } }, h.clock.now());
  await h.drain();
  return { event, booking };
}

const staff = (tenantId: string): ActionContext => ({ tenantId, actor: 'sam@studio.test', now: h.clock.now() });
const current = async (id: string): Promise<Event> => (await db().select().from(events).where(eq(events.id, id)))[0];
/** Saves the event form as staff would: the form as it is now, with `change` typed over it. */
async function save(tenantId: string, eventId: string, change: Record<string, unknown>) {
  return updateEventAction(db(), staff(tenantId), eventId, { ...eventFormView(await current(eventId)), ...change } as never);
}

/** The messages the SMTP peer received, parsed: subject, text, and the calendar attachment's text (or null). */
async function received() {
  return Promise.all(
    smtp.received.map(async (r) => {
      const m = await simpleParser(r.raw);
      const ics = m.attachments.find((a) => /calendar/.test(a.contentType) || /\.ics$/.test(a.filename ?? ''));
      return { key: r.messageKey, subject: m.subject ?? '', text: m.text ?? '', ics: ics ? ics.content.toString('utf8') : null };
    }),
  );
}
const prop = (ics: string, name: string) => new RegExp(`^${name}(?:;[^:\\r\\n]*)?:(.*)$`, 'm').exec(ics)?.[1]?.trim() ?? null;
const sequenceOfBooking = async (id: string) => inviteSequenceOf((await db().select().from(bookings).where(eq(bookings.id, id)))[0]);

describe('a details change reaches the calendars of the booked people', () => {
  it('Amsterdam, one booking, SEQUENCE 0 sent; the place changes from "Room A" to "Garden B" → one updated invitation (SEQUENCE 1, LOCATION Garden B) and one "details changed" message; the later reminder agrees', async () => {
    const t = await amsterdam();
    const { event, booking } = await picnicWithAna(t.id);
    const [confirmation] = await received();
    expect(confirmation.ics).not.toBeNull();
    expect(prop(confirmation.ics!, 'SEQUENCE')).toBe('0');
    expect(prop(confirmation.ics!, 'LOCATION')).toBe('Room A');

    h.clock.set('2027-06-10T09:00:00Z');
    const r = await save(t.id, event.id, { location: 'Garden B' }); // no choice sent: the default for a new place is to tell
    expect(r.detailsNotified).toBe(true);
    expect(r.rescheduled).toBe(false);
    await h.drain();
    await h.drain(); // a second pass sends nothing again
    const mail = await received();
    expect(mail).toHaveLength(2);
    const update = mail[1];
    expect(update.subject).toBe('New details for Summer picnic');
    expect(update.text).toContain('Room A → Garden B');
    expect(update.ics).not.toBeNull();
    expect(prop(update.ics!, 'METHOD')).toBe('REQUEST');
    expect(prop(update.ics!, 'SEQUENCE')).toBe('1');
    expect(prop(update.ics!, 'LOCATION')).toBe('Garden B');
    expect(prop(update.ics!, 'UID')).toBe(prop(confirmation.ics!, 'UID'));
    expect(prop(update.ics!, 'UID')).toBe(`booking-${booking.id}@punctual`);
    // The timing is untouched: still 10:00 in Amsterdam.
    expect(update.ics).toContain('DTSTART;TZID=Europe/Amsterdam:20270701T100000');
    const notices = await db().select().from(deliveries).where(eq(deliveries.template, 'event-details-changed'));
    expect(notices.map((d) => [d.status, d.inviteSequence])).toEqual([['accepted', 1]]);
    expect(await sequenceOfBooking(booking.id)).toBe(1);

    // The reminder 24 hours before says the same place as the calendar entry.
    await h.tick('2027-06-30T08:00:30Z');
    const all = await received();
    expect(all).toHaveLength(3);
    expect(all[2].ics).toBeNull();
    expect(all[2].text).toContain('Garden B');
    expect(all[2].text).not.toContain('Room A');

    // The choice is audited: what changed, that people were told, and that it was the default.
    const [entry] = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, t.id), eq(auditLog.action, 'event_update')));
    expect(entry.details).toMatchObject({ eventId: event.id, changes: [{ field: 'location', from: 'Room A', to: 'Garden B' }], notify: true, notifyChoice: 'default' });
  });

  it("Punctual's own importer reads the updated invitation back: the same event, now in Garden B", async () => {
    const t = await amsterdam();
    const { event } = await picnicWithAna(t.id);
    h.clock.set('2027-06-10T09:00:00Z');
    await save(t.id, event.id, { location: 'Garden B', title: 'Summer picnic (outdoors)', description: 'Bring a hat and a blanket.' });
    await h.drain();
    const [first, update] = await received();
    await createTenant(db(), { slug: 'mirror', name: 'Mirror', timeZone: 'Asia/Tokyo' });
    const uid = prop(first.ics!, 'UID')!;
    expect(await importIcs(db(), 'mirror', first.ics!, h.clock.now())).toMatchObject({ created: 1 });
    expect(await importIcs(db(), 'mirror', update.ics!, h.clock.now())).toMatchObject({ created: 0, updated: 1 });
    const rows = await db().select().from(events).where(eq(events.externalUid, uid));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      title: 'Summer picnic (outdoors)',
      location: 'Garden B',
      description: 'Bring a hat and a blanket.',
      timeZone: 'Europe/Amsterdam',
      startsAt: new Date('2027-07-01T08:00:00.000Z'),
    });
    // All three changes are in the message, old → new.
    expect(update.text).toContain('Summer picnic → Summer picnic (outdoors)');
    expect(update.text).toContain('Brign a hat. → Bring a hat and a blanket.');
  });

  it('a typo fixed in the description with the default choice → no message, SEQUENCE unchanged; staff may still choose to tell', async () => {
    const t = await amsterdam();
    const { event, booking } = await picnicWithAna(t.id);
    h.clock.set('2027-06-10T09:00:00Z');
    const r = await save(t.id, event.id, { description: 'Bring a hat.' });
    expect(r.detailsNotified).toBe(false);
    await h.drain();
    expect(smtp.received).toHaveLength(1); // the confirmation only
    expect(await db().select().from(domainEvents).where(eq(domainEvents.type, 'event_details_changed'))).toHaveLength(0);
    expect(await sequenceOfBooking(booking.id)).toBe(0);
    expect((await current(event.id)).description).toBe('Bring a hat.');
    const [entry] = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, t.id), eq(auditLog.action, 'event_update')));
    expect(entry.details).toMatchObject({ changes: [{ field: 'description', from: 'Brign a hat.', to: 'Bring a hat.' }], notify: false, notifyChoice: 'default' });

    // A new place, but staff choose not to tell: nothing goes out either.
    await save(t.id, event.id, { location: 'Garden B', notify: false });
    await h.drain();
    expect(smtp.received).toHaveLength(1);
    // A description change staff choose to tell about: the message and the invitation go.
    await save(t.id, event.id, { description: 'Bring a hat and sunscreen.', notify: true });
    await h.drain();
    const mail = await received();
    expect(mail).toHaveLength(2);
    expect(prop(mail[1].ics!, 'SEQUENCE')).toBe('1');
    expect(prop(mail[1].ics!, 'LOCATION')).toBe('Garden B'); // the invitation states the event as it is
    const entries = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, t.id), eq(auditLog.action, 'event_update'))).orderBy(asc(auditLog.createdAt));
    expect(entries.map((e) => [(e.details as { notify: boolean }).notify, (e.details as { notifyChoice: string }).notifyChoice])).toEqual(
      expect.arrayContaining([
        [false, 'default'],
        [false, 'staff'],
        [true, 'staff'],
      ]),
    );
  });

  it('a notify choice that is not true or false is refused naming the field, and nothing is written', async () => {
    const t = await amsterdam();
    const { event } = await picnicWithAna(t.id);
    await expect(save(t.id, event.id, { location: 'Garden B', notify: 'yes' })).rejects.toMatchObject({ code: 'validation', field: 'notify' });
    expect((await current(event.id)).location).toBe('Room A');
  });

  it('a save from a form opened before another save is refused (409): nothing written, nobody told', async () => {
    const t = await amsterdam();
    const { event, booking } = await picnicWithAna(t.id);
    const opened = eventFormView(await current(event.id));
    await save(t.id, event.id, { description: 'Bring a hat.', notify: false });
    await expect(updateEventAction(db(), staff(t.id), event.id, { ...opened, location: 'Garden B' } as never)).rejects.toMatchObject({ code: 'conflict', field: 'version' });
    await h.drain();
    expect((await current(event.id)).location).toBe('Room A');
    expect(smtp.received).toHaveLength(1);
    expect(await sequenceOfBooking(booking.id)).toBe(0);
  });

  it('timing change, then details change, then cancellation → SEQUENCE 1, 2, 3 for that booking, one UID', async () => {
    const t = await amsterdam();
    const { event, booking } = await picnicWithAna(t.id);
    h.clock.set('2027-06-10T09:00:00Z');
    expect((await save(t.id, event.id, { start: '2027-07-01T11:00', end: '2027-07-01T13:00' })).rescheduled).toBe(true);
    await h.drain();
    h.clock.set('2027-06-11T09:00:00Z');
    await save(t.id, event.id, { location: 'Garden B' });
    await h.drain();
    h.clock.set('2027-06-12T09:00:00Z');
    const [b] = await db().select().from(bookings).where(eq(bookings.id, booking.id));
    await cancelBookingAction(db(), staff(t.id), booking.id, { reason: 'asked to cancel', version: b.version });
    await h.drain();
    const mail = await received();
    expect(mail.map((m) => [prop(m.ics!, 'METHOD'), prop(m.ics!, 'SEQUENCE')])).toEqual([
      ['REQUEST', '0'],
      ['REQUEST', '1'],
      ['REQUEST', '2'],
      ['CANCEL', '3'],
    ]);
    expect(new Set(mail.map((m) => prop(m.ics!, 'UID'))).size).toBe(1);
    expect(prop(mail[1].ics!, 'LOCATION')).toBe('Room A');
    expect(mail[1].ics).toContain('DTSTART;TZID=Europe/Amsterdam:20270701T110000');
    expect(prop(mail[2].ics!, 'LOCATION')).toBe('Garden B');
    expect(mail[2].ics).toContain('DTSTART;TZID=Europe/Amsterdam:20270701T110000');
    expect(await sequenceOfBooking(booking.id)).toBe(3);
    // Bumping the SEQUENCE alone is not an edit of the booking: its row version moved only with the cancellation.
    const [after] = await db().select().from(bookings).where(eq(bookings.id, booking.id));
    expect(after.version).toBe(b.version + 1);
  });

  it('three booked people, sent as one batch: each their own UID, each SEQUENCE 1 (the batch claims like the single path)', async () => {
    const t = await amsterdam();
    const { event, booking } = await picnicWithAna(t.id);
    const others = [];
    for (const [email, name] of [['ben@example.test', 'Ben'], ['cy@example.test', 'Cy']]) {
      others.push(await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email, name } }, h.clock.now()));
    }
    await h.drain();
    expect(smtp.received).toHaveLength(3);
    h.clock.set('2027-06-10T09:00:00Z');
    await save(t.id, event.id, { roomUrl: 'https://meet.example/r/picnic' });
    const [de] = await db().select().from(domainEvents).where(eq(domainEvents.type, 'event_details_changed'));
    expect(await processDomainEvent(db(), de.id, h.clock.now())).toEqual({ planned: 3 });
    // The dispatcher hands the three notices to ONE send_reminders job (one tenant, one channel).
    await dispatchDue(db(), h.clock.now(), { ...defaultDispatchPolicy, sendBatchSpread: 1 });
    const batches = await h.tdb.sql<{ payload: { reminderIds: string[] } }[]>`
      select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = 'send_reminders'`;
    expect(batches).toHaveLength(1);
    expect(batches[0].payload.reminderIds).toHaveLength(3);
    await h.drain();
    const notices = (await received()).slice(3);
    expect(notices).toHaveLength(3);
    expect(notices.map((m) => prop(m.ics!, 'SEQUENCE'))).toEqual(['1', '1', '1']);
    expect(notices.map((m) => prop(m.ics!, 'URL'))).toEqual(['https://meet.example/r/picnic', 'https://meet.example/r/picnic', 'https://meet.example/r/picnic']);
    expect(new Set(notices.map((m) => prop(m.ics!, 'UID')))).toEqual(new Set([booking, ...others].map((b) => `booking-${b.id}@punctual`)));
    const ds = await db().select().from(deliveries).where(eq(deliveries.template, 'event-details-changed'));
    expect(ds.map((d) => d.inviteSequence)).toEqual([1, 1, 1]);
  });

  it('the upgrade (migration 0035) starts every booking at the SEQUENCE its invitations may already have carried', async () => {
    // Before the upgrade a REQUEST carried schedule_version − 1 and a CANCEL schedule_version.
    const t = await amsterdam();
    const { event, booking } = await picnicWithAna(t.id);
    const ben = await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'ben@example.test' } }, h.clock.now());
    const other = await createEvent(db(), t.id, { title: 'Called off', startsAt: '2027-07-02T08:00:00Z', endsAt: '2027-07-02T09:00:00Z', timeZone: 'Europe/Amsterdam' });
    const cy = await addBooking(db(), t.id, { eventId: other.id, role: 'attendee', contact: { email: 'cy@example.test' } }, h.clock.now());
    await db().update(events).set({ scheduleVersion: 3 }).where(eq(events.id, event.id));
    await db().update(events).set({ scheduleVersion: 2, status: 'cancelled' }).where(eq(events.id, other.id));
    await db().update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, ben.id));
    await db().update(bookings).set({ inviteSequence: 0 });
    const versions = await db().select({ id: bookings.id, version: bookings.version }).from(bookings);
    const sql = readFileSync(path.join(process.cwd(), 'db/migrations/0035_invite_sequence_backfill.sql'), 'utf8');
    for (const statement of sql.split('--> statement-breakpoint')) await h.tdb.sql.unsafe(statement);
    const after = new Map((await db().select().from(bookings)).map((b) => [b.id, b]));
    expect(after.get(booking.id)!.inviteSequence).toBe(2); // confirmed, version 3: its last REQUEST was SEQUENCE 2
    expect(after.get(ben.id)!.inviteSequence).toBe(3); // cancelled: its CANCEL was SEQUENCE 3
    expect(after.get(cy.id)!.inviteSequence).toBe(2); // event cancelled at version 2: its CANCEL was SEQUENCE 2
    // The backfill is no edit of the bookings: their row versions stay.
    for (const v of versions) expect(after.get(v.id)!.version).toBe(v.version);
  });

  it('a retry after another change keeps the SEQUENCE and DTSTAMP fixed at its claim; the later change carries the higher one', async () => {
    const t = await amsterdam();
    const { event, booking } = await picnicWithAna(t.id);
    // The next message (the first details notice) meets a temporary failure; everything after is accepted.
    smtp.script('tempfail-rcpt', 'accept');
    h.clock.set('2027-06-10T09:00:00Z');
    await save(t.id, event.id, { location: 'Garden B' });
    await h.drain();
    expect(smtp.received).toHaveLength(1);
    const [first] = await db().select().from(deliveries).where(eq(deliveries.template, 'event-details-changed'));
    expect(first).toMatchObject({ status: 'retrying', inviteSequence: 1 });

    // Before its retry, staff change the place again: that notice is claimed with SEQUENCE 2 and goes out.
    h.clock.set('2027-06-10T09:00:20Z');
    await save(t.id, event.id, { location: 'Garden C' });
    await h.drain();
    let mail = await received();
    expect(mail).toHaveLength(2);
    expect(prop(mail[1].ics!, 'SEQUENCE')).toBe('2');
    expect(mail[1].text).toContain('Garden B → Garden C');

    // The retry: its own SEQUENCE 1 and the DTSTAMP of its claim, stating the event as it is now.
    await h.tick(new Date(first.nextAttemptAt!.getTime() + 1000));
    mail = await received();
    expect(mail).toHaveLength(3);
    const retry = mail[2];
    expect(retry.text).toContain('Room A → Garden B');
    expect(prop(retry.ics!, 'SEQUENCE')).toBe('1');
    expect(prop(retry.ics!, 'DTSTAMP')).toBe(first.createdAt.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, ''));
    expect(prop(retry.ics!, 'LOCATION')).toBe('Garden C');
    expect(await sequenceOfBooking(booking.id)).toBe(2);
  });
});
