/**
 * An email's attachments and calendar invitation in the mailbox (dev/caught-mail.ts, the routes under
 * app/api/mailbox/[id]/): a booking email with an invitation, sent by the real SMTP adapter to the real mail
 * catcher, read back from `caught_messages.raw` — listed (name, type, size), its key calendar lines, each
 * attachment's bytes — and never through another tenant's mailbox scope.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpChannel } from '@/channels/smtp';
import type { OutgoingEmail } from '@/channels/types';
import { getCaughtMessageRaw } from '@/dev/queries/mailbox';
import { caughtMessages, type Tenant } from '@/db/schema';
import { buildCalendarInvite, calendarInviteFilename } from '@/domain/calendar/calendar-invite';
import { caughtAttachment, caughtMessageRawFor, readCaughtMailParts } from '@/dev/caught-mail';
import { startMailCatcher, type MailCatcher } from '@/dev/mail-catcher';
import { createTenant } from '@/server/organisations/tenants';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

let tdb: TestDatabase;
let mail: MailCatcher;
let acme: Tenant;
let other: Tenant;

const ics = (method: 'REQUEST' | 'CANCEL', sequence: number) =>
  buildCalendarInvite({
    method,
    uid: 'booking-42@punctual.local',
    sequence,
    title: 'Evening Yoga',
    description: null,
    location: null,
    url: null,
    startsAt: new Date('2026-12-01T23:00:00Z'),
    endsAt: new Date('2026-12-02T00:30:00Z'),
    allDay: false,
    timeZone: 'America/New_York',
    organizer: { name: 'Acme', email: 'Hi@Acme.test' },
    attendee: { name: 'Grace', email: 'grace@example.test' },
    stamp: new Date('2026-11-30T21:00:00Z'),
  });

/** Sends one email from `from` and returns its caught row's id. */
async function send(from: string, subject: string, calendar?: OutgoingEmail['calendar'], tenantId = acme.id): Promise<string> {
  const smtp = createSmtpChannel({ url: mail.url });
  try {
    const outcome = await smtp.send(
      {
        tenantId,
        from: { name: 'Sender', address: from },
        to: { name: 'Grace', address: 'grace@example.test' },
        subject,
        html: '<p>See you there.</p>',
        text: 'See you there.',
        messageId: `<${subject.replace(/\W/g, '.')}@test>`,
        calendar,
      },
      { idempotencyKey: subject },
    );
    expect(outcome).toMatchObject({ class: 'accepted' });
  } finally {
    await smtp.close();
  }
  const [row] = await tdb.db.select({ id: caughtMessages.id }).from(caughtMessages).where(eq(caughtMessages.subject, subject));
  return row.id;
}

/** A staff member of `t` (not the recipient of any message here) looking at the mailbox. */
const v = (t: Tenant) => ({ tenantId: t.id, viewerEmail: `staff@${t.slug}.test` });

beforeAll(async () => {
  tdb = await createTestDatabase();
  mail = await startMailCatcher({ db: tdb.db });
  acme = await createTenant(tdb.db, { slug: 'acme', name: 'Acme', timeZone: 'Europe/Amsterdam', senderEmail: 'Hi@Acme.test' });
  other = await createTenant(tdb.db, { slug: 'other', name: 'Other', timeZone: 'Europe/London', senderEmail: 'hi@other.test' });
});
afterAll(async () => {
  await mail?.close();
  await tdb?.close();
});

describe('caught email attachments', () => {
  it('lists the text/calendar alternative and invite.ics (type, size), reads the key lines from invite.ics, serves each one’s bytes', async () => {
    const request = ics('REQUEST', 1);
    const id = await send('hi@acme.test', "You're booked: Evening Yoga", { method: 'REQUEST', content: request, filename: calendarInviteFilename('REQUEST') });

    const raw = await caughtMessageRawFor(tdb.db, v(acme), id);
    expect(raw).toMatchObject({ id, channel: 'email' });
    expect(raw!.raw).toMatch(/^Content-Type: application\/ics; name=invite\.ics\r$/m);

    const parts = await readCaughtMailParts(raw!.raw);
    const size = Buffer.byteLength(request);
    expect(parts.attachments).toEqual([
      { index: 0, filename: null, contentType: 'text/calendar; method=REQUEST', size, downloadName: 'part-1.ics' },
      { index: 1, filename: 'invite.ics', contentType: 'application/ics', size, downloadName: 'invite.ics' },
    ]);
    expect(parts.calendar).toEqual({
      index: 1,
      filename: 'invite.ics',
      lines: [
        { name: 'METHOD', line: 'METHOD:REQUEST' },
        { name: 'UID', line: 'UID:booking-42@punctual.local' },
        { name: 'SEQUENCE', line: 'SEQUENCE:1' },
        { name: 'DTSTART', line: 'DTSTART;TZID=America/New_York:20261201T180000' },
        { name: 'DTEND', line: 'DTEND;TZID=America/New_York:20261201T193000' },
        { name: 'STATUS', line: 'STATUS:CONFIRMED' },
        { name: 'SUMMARY', line: 'SUMMARY:Evening Yoga' },
      ],
    });

    const file = await caughtAttachment(tdb.db, v(acme), id, 1);
    expect(file?.attachment.downloadName).toBe('invite.ics');
    expect(file?.contentTypeHeader).toBe('application/ics');
    expect(file?.content.toString('utf8')).toBe(request);
    const alternative = await caughtAttachment(tdb.db, v(acme), id, 0);
    expect(alternative?.contentTypeHeader).toBe('text/calendar; charset=utf-8; method=REQUEST');
    expect(alternative?.content.toString('utf8')).toBe(request);
    // No such attachment.
    expect(await caughtAttachment(tdb.db, v(acme), id, 2)).toBeNull();
    expect(await caughtAttachment(tdb.db, v(acme), id, -1)).toBeNull();
    expect(await caughtAttachment(tdb.db, v(acme), id, 0.5)).toBeNull();
  });

  it('a cancellation: cancel.ics with METHOD:CANCEL and the higher SEQUENCE', async () => {
    const id = await send('hi@acme.test', 'Evening Yoga is cancelled', { method: 'CANCEL', content: ics('CANCEL', 2), filename: calendarInviteFilename('CANCEL') });
    const parts = await readCaughtMailParts((await caughtMessageRawFor(tdb.db, v(acme), id))!.raw);
    expect(parts.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      [null, 'text/calendar; method=CANCEL'],
      ['cancel.ics', 'application/ics'],
    ]);
    expect(parts.calendar?.filename).toBe('cancel.ics');
    expect(parts.calendar?.lines.map((l) => l.line)).toEqual(expect.arrayContaining(['METHOD:CANCEL', 'SEQUENCE:2', 'STATUS:CANCELLED']));
  });

  it('an email without attachments: none listed, no calendar', async () => {
    const id = await send('hi@acme.test', 'Reminder: Evening Yoga');
    expect(await readCaughtMailParts((await caughtMessageRawFor(tdb.db, v(acme), id))!.raw)).toEqual({ attachments: [], calendar: null });
    expect(await caughtAttachment(tdb.db, v(acme), id, 0)).toBeNull();
  });

  it('scoped like the mailbox page: another tenant’s email is not found (raw or attachment), nor a malformed or unknown id', async () => {
    const theirs = await send('hi@other.test', "You're booked: Other's class", { method: 'REQUEST', content: ics('REQUEST', 0), filename: 'invite.ics' }, other.id);
    const ours = await send('HI@acme.test', "You're booked: Acme's class", { method: 'REQUEST', content: ics('REQUEST', 0), filename: 'invite.ics' });
    expect(await caughtMessageRawFor(tdb.db, v(acme), theirs)).toBeNull();
    expect(await caughtAttachment(tdb.db, v(acme), theirs, 1)).toBeNull();
    expect(await caughtMessageRawFor(tdb.db, v(other), ours)).toBeNull();
    expect(await caughtAttachment(tdb.db, v(other), ours, 1)).toBeNull();
    // Each tenant finds its own.
    expect((await caughtAttachment(tdb.db, v(acme), ours, 1))?.attachment.filename).toBe('invite.ics');
    expect((await caughtAttachment(tdb.db, v(other), theirs, 1))?.attachment.filename).toBe('invite.ics');
    const scope = v(acme);
    expect(await getCaughtMessageRaw(tdb.db, 'not-a-uuid', scope)).toBeNull();
    expect(await getCaughtMessageRaw(tdb.db, '00000000-0000-4000-8000-000000000000', scope)).toBeNull();
    // An unknown tenant has no mailbox at all.
    expect(await caughtMessageRawFor(tdb.db, { tenantId: '00000000-0000-4000-8000-000000000000', viewerEmail: 'x@y.test' }, ours)).toBeNull();
  });

  it('a message in scope that is not an email (an SMS) has no attachments to serve, but its raw source is there', async () => {
    const [sms, nobodys] = await tdb.db
      .insert(caughtMessages)
      .values([
        { tenantId: acme.id, channel: 'sms', envelopeFrom: '+15005550006', envelopeTo: ['+31612345678'], headers: {}, text: 'hi', raw: 'To=%2B31612345678&Body=hi' },
        // Stored without a sender's declaration (before it existed, or not from the app): nobody's.
        { channel: 'sms', envelopeFrom: '+15005550006', envelopeTo: ['+31612345678'], headers: {}, text: 'hi', raw: 'To=%2B31612345678&Body=hi' },
      ])
      .returning({ id: caughtMessages.id });
    expect(await caughtMessageRawFor(tdb.db, v(acme), sms.id)).toMatchObject({ channel: 'sms', raw: 'To=%2B31612345678&Body=hi' });
    expect(await caughtAttachment(tdb.db, v(acme), sms.id, 0)).toBeNull();
    expect(await caughtMessageRawFor(tdb.db, v(other), sms.id)).toBeNull();
    expect(await caughtMessageRawFor(tdb.db, v(acme), nobodys.id)).toBeNull();
  });
});
