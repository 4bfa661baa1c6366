/**
 * One-click unsubscribe (issue #10 §5; RFC 8058 with RFC 2369) against real PostgreSQL, the real queue and the
 * real SMTP catcher: the headers and footer link of real emails, the unsubscribe itself (the function the
 * `/u/<token>` route calls), and the next send reading it. The route's HTTP behaviour is in e2e/unsubscribe.spec.ts.
 */
import { and, asc, eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, contacts, deliveries, notificationSettings, reminders, type CaughtMessage } from '@/db/schema';
import { defaultPolicy } from '@/domain/notifications/notification-policy';
import { readContactPreferences, saveContactPreferences } from '@/server/notifications/contact-preferences';
import { AppError } from '@/server/platform/errors';
import { preferencesSecret } from '@/server/sending/preference-link';
import { addBooking } from '@/server/scheduling/bookings';
import { cancelEvent, createEvent } from '@/server/scheduling/events';
import { unsubscribeByToken } from '@/server/suppressions/unsubscribe';
import { signUnsubscribeToken, unsubscribeExpiry, unsubscribeSecrets, verifyUnsubscribeToken } from '@/server/sending/unsubscribe-link';
import { createHarness, type Harness } from '@/test/support/harness';
import { tenantWithRules } from '@/test/support/fixtures';

const SESSION = 'test-session-secret-for-unsubscribe-0123456789';
const keys = unsubscribeSecrets({ BETTER_AUTH_SECRET: SESSION });

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    deps: { links: { publicUrl: 'http://punctual.test', secret: preferencesSecret({ BETTER_AUTH_SECRET: SESSION }), unsubscribeSecret: keys[0] } },
  });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.tdb.reset();
});
const db = () => h.tdb.db;

/** A tenant with the default notification policy and a reminder 24 hours before the start. */
async function tenant() {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D', name: '24 hours before', window: 6 * 3600 }], 'Europe/Amsterdam');
  await db().insert(notificationSettings).values({ tenantId: tenant.id, policy: defaultPolicy });
  return tenant;
}

/** An event starting 2027-08-05T08:00Z (its reminder is due 2027-08-04T08:00Z) with attendee-b booked on 2027-08-01. */
async function scenario() {
  const t = await tenant();
  const event = await createEvent(db(), t.id, { title: 'Pottery evening', startsAt: '2027-08-05T08:00:00Z', endsAt: '2027-08-05T10:00:00Z', timeZone: 'Europe/Amsterdam' });
  h.clock.set('2027-08-01T10:00:00Z');
  const booking = await addBooking(db(), t.id, { eventId: event.id, role: 'attendee', contact: { email: 'attendee-b@example.test', name: 'Bea Attendee' } }, h.clock.now());
  await h.drain(); // the booking confirmation
  return { t, event, booking };
}

/** A header of a caught email as sent (unfolded), or undefined. */
async function header(m: CaughtMessage, name: string): Promise<string | undefined> {
  const parsed = await simpleParser(m.raw);
  const line = parsed.headerLines.find((l) => l.key === name.toLowerCase());
  return line ? line.line.slice(line.line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim() : undefined;
}

const tokenIn = (listUnsubscribe: string | undefined) => /^<http:\/\/punctual\.test\/u\/([\w.-]+)>$/.exec(listUnsubscribe ?? '')?.[1];

async function contactRow(id: string) {
  const [c] = await db().select().from(contacts).where(eq(contacts.id, id));
  return c;
}

/** The token with one byte of its payload changed (the contact id's last byte). */
function flipPayloadByte(token: string, index = 31): string {
  const [hd, p, s] = token.split('.');
  const bytes = Buffer.from(p, 'base64url');
  bytes[index] ^= 0x01;
  return `${hd}.${bytes.toString('base64url')}.${s}`;
}

describe('one-click unsubscribe (issue #10 §5)', () => {
  it('one-click POST at 2027-08-03T12:00Z for reminders → the next reminder is suppressed (unsubscribed) while the essential cancellation still goes out', async () => {
    const { t, event, booking } = await scenario();
    const token = await signUnsubscribeToken(
      { tenantId: t.id, contactId: booking.contactId, category: 'reminders', expiresAt: unsubscribeExpiry(new Date('2027-08-01T10:00:00Z')) },
      keys[0],
    );
    const before = await contactRow(booking.contactId);

    const at = new Date('2027-08-03T12:00:00Z');
    const r = await unsubscribeByToken(db(), token, keys, at);
    expect(r).toMatchObject({ status: 'unsubscribed', category: 'reminders', contactName: 'Bea Attendee', tenantName: 'Test Org', unsubscribedAt: '2027-08-03T12:00:00.000Z' });
    const after = await contactRow(booking.contactId);
    expect(after.preferences).toEqual({ announcements: ['email'], reminders: [], booking_updates: ['email'], unsubscribed: { reminders: '2027-08-03T12:00:00.000Z' } });
    expect(after.version).toBe(before.version + 1);
    expect(after.updatedBy).toBe('recipient attendee-b@example.test');
    const audit = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, t.id), eq(auditLog.action, 'unsubscribe')));
    expect(audit).toHaveLength(1);
    expect(audit[0].actor).toBe('recipient attendee-b@example.test');
    expect(audit[0].details).toMatchObject({ contactId: booking.contactId, category: 'reminders', changes: { 'preferences.reminders': { from: ['email'], to: [] } } });

    // A second POST (the mail client retries, the person clicks again): 200 again, nothing changes.
    const again = await unsubscribeByToken(db(), token, keys, new Date('2027-08-03T12:05:00Z'));
    expect(again.status).toBe('already_unsubscribed');
    expect(again.unsubscribedAt).toBe('2027-08-03T12:00:00.000Z');
    expect((await contactRow(booking.contactId)).version).toBe(after.version);
    expect(await db().select().from(auditLog).where(and(eq(auditLog.tenantId, t.id), eq(auditLog.action, 'unsubscribe')))).toHaveLength(1);

    // The next reminder, due 2027-08-04T08:00Z: no provider call, the delivery ends suppressed.
    const mailBefore = (await h.caught()).length;
    await h.tick('2027-08-04T08:00:30Z');
    expect((await h.caught()).length).toBe(mailBefore);
    const [reminderDelivery] = await db()
      .select({ d: deliveries })
      .from(deliveries)
      .innerJoin(reminders, eq(reminders.id, deliveries.reminderId))
      .where(and(eq(deliveries.tenantId, t.id), eq(reminders.kind, 'rule')));
    expect(reminderDelivery.d.status).toBe('suppressed');
    expect(reminderDelivery.d.statusReason).toBe('unsubscribed from reminders (one-click link, 2027-08-03T12:00:00.000Z)');
    expect(reminderDelivery.d.attemptCount).toBe(0);

    // The essential cancellation still goes out by email — and carries no unsubscribe link.
    h.clock.set('2027-08-04T09:00:00Z');
    await cancelEvent(db(), t.id, event.id, 'the kiln broke', h.clock.now());
    await h.drain();
    const caught = await h.caught();
    const cancellation = caught.find((m) => m.envelopeTo.includes('attendee-b@example.test') && /cancel/i.test(m.subject ?? ''));
    expect(cancellation, caught.map((m) => m.subject).join(' | ')).toBeDefined();
    expect(cancellation!.text).toContain('the kiln broke');
    expect(await header(cancellation!, 'List-Unsubscribe')).toBeUndefined();
    expect(await header(cancellation!, 'List-Unsubscribe-Post')).toBeUndefined();
    expect(cancellation!.html).not.toContain('/u/');
    expect(cancellation!.text).not.toMatch(/Unsubscribe from/);
    const ds = await db().select().from(deliveries).where(eq(deliveries.tenantId, t.id)).orderBy(asc(deliveries.createdAt));
    expect(ds.map((d) => d.status)).toEqual(['accepted', 'suppressed', 'accepted']);
  });

  it('a token with one byte changed → 400 naming the token, and nothing changes (preferences, version, audit)', async () => {
    const { t, booking } = await scenario();
    const token = await signUnsubscribeToken({ tenantId: t.id, contactId: booking.contactId, category: 'reminders', expiresAt: new Date('2028-08-02T00:00:00Z') }, keys[0]);
    const before = await contactRow(booking.contactId);
    // Also the signature's last character changed to each of its siblings that differ only in the unused low bits
    // (base64url decoders ignore them, so before the canonical check these verified).
    const lastChars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const at = lastChars.indexOf(token.at(-1)!);
    const siblings = [0, 1, 2, 3].map((k) => lastChars[(at & ~3) + k]).filter((c) => c !== token.at(-1));
    expect(siblings).toHaveLength(3);
    for (const bad of [flipPayloadByte(token), flipPayloadByte(token, 32), flipPayloadByte(token, 0), ...siblings.map((c) => token.slice(0, -1) + c)]) {
      const e = await unsubscribeByToken(db(), bad, keys, new Date('2027-08-03T12:00:00Z')).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).httpStatus).toBe(400);
      expect((e as AppError).field).toBe('token');
      expect((e as AppError).message).toMatch(/^token: this unsubscribe link is not valid/);
    }
    // Expired: 400 saying so, pointing at the preferences link.
    const expired = await unsubscribeByToken(db(), token, keys, new Date('2028-08-02T00:00:00Z')).catch((x: unknown) => x);
    expect((expired as AppError).httpStatus).toBe(400);
    expect((expired as AppError).message).toMatch(/expired on 2028-08-02 .*preferences link/);
    // Signed with another secret.
    const [otherKey] = unsubscribeSecrets({ BETTER_AUTH_SECRET: 'some-other-session-secret-0123456789' });
    const foreign = await signUnsubscribeToken({ tenantId: t.id, contactId: booking.contactId, category: 'reminders', expiresAt: new Date('2028-08-02T00:00:00Z') }, otherKey);
    await expect(unsubscribeByToken(db(), foreign, keys, new Date('2027-08-03T12:00:00Z'))).rejects.toThrow(/not valid/);

    const after = await contactRow(booking.contactId);
    expect(after.version).toBe(before.version);
    expect(after.preferences).toEqual(before.preferences);
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'unsubscribe'))).toHaveLength(0);
  });

  it('a real reminder email carries List-Unsubscribe and List-Unsubscribe-Post: One-Click, its token verifies (reminders, 365 days), and the footer shows the link; the confirmation is for booking updates', async () => {
    const { t, booking } = await scenario();
    await h.tick('2027-08-04T08:00:30Z');
    const caught = await h.caught();
    const reminder = caught.find((m) => /^Reminder:/.test(m.subject ?? ''));
    expect(reminder, caught.map((m) => m.subject).join(' | ')).toBeDefined();
    const list = await header(reminder!, 'List-Unsubscribe');
    expect(await header(reminder!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const token = tokenIn(list);
    expect(token, list).toBeDefined();
    // Due 2027-08-04T08:00Z + 365 days = 2028-08-03T08:00Z, rounded up to the next UTC midnight.
    expect(await verifyUnsubscribeToken(token!, keys, new Date('2027-08-04T09:00:00Z'))).toEqual({
      tenantId: t.id,
      contactId: booking.contactId,
      category: 'reminders',
      expiresAt: new Date('2028-08-04T00:00:00Z'),
    });
    // The visible footer link, in the HTML and the text part, next to the preferences link.
    expect(reminder!.html).toContain(`href="http://punctual.test/u/${token}"`);
    expect(reminder!.html).toMatch(/>Unsubscribe from reminders<\/a>/);
    expect(reminder!.text).toContain(`Unsubscribe from reminders http://punctual.test/u/${token}`);
    expect(reminder!.text).toMatch(/Choose how Test Org reaches you: http:\/\/punctual\.test\/preferences\//);

    // The booking confirmation (not essential) carries a booking-updates link.
    const confirmation = caught.find((m) => m !== reminder && m.envelopeTo.includes('attendee-b@example.test'))!;
    const confirmToken = tokenIn(await header(confirmation, 'List-Unsubscribe'));
    expect(await verifyUnsubscribeToken(confirmToken!, keys, new Date('2027-08-04T09:00:00Z'))).toMatchObject({ category: 'booking_updates' });
    expect(confirmation.text).toContain('Unsubscribe from booking updates');

    // The delivery was sent (not suppressed) and its headers are what the catcher saw.
    const [d] = await db().select().from(deliveries).where(and(eq(deliveries.tenantId, t.id), eq(deliveries.status, 'accepted'), eq(deliveries.subject, reminder!.subject!)));
    expect(d).toBeDefined();
  });

  it('re-subscribing on the preferences page clears the marker; a save that leaves reminders empty keeps it', async () => {
    const { t, booking } = await scenario();
    const token = await signUnsubscribeToken({ tenantId: t.id, contactId: booking.contactId, category: 'reminders', expiresAt: new Date('2028-08-02T00:00:00Z') }, keys[0]);
    await unsubscribeByToken(db(), token, keys, new Date('2027-08-03T12:00:00Z'));
    const ctx = { tenantId: t.id, now: new Date('2027-08-03T13:00:00Z') };
    let c = await contactRow(booking.contactId);
    // Quiet hours changed, reminders still empty: the record of the unsubscribe stays.
    await saveContactPreferences(db(), ctx, booking.contactId, { preferences: { reminders: [], booking_updates: ['email'] }, quietHours: { start: '22:00', end: '07:00' }, version: c.version }, { kind: 'participant' });
    c = await contactRow(booking.contactId);
    expect(c.preferences).toEqual({ announcements: ['email'], reminders: [], booking_updates: ['email'], unsubscribed: { reminders: '2027-08-03T12:00:00.000Z' } });
    // Email ticked again for reminders: subscribed, no marker.
    await saveContactPreferences(db(), ctx, booking.contactId, { preferences: { reminders: ['email'], booking_updates: ['email'] }, quietHours: null, version: c.version }, { kind: 'participant' });
    c = await contactRow(booking.contactId);
    expect(c.preferences).toEqual({ announcements: ['email'], reminders: ['email'], booking_updates: ['email'] });
    // And the reminder goes out again.
    await h.tick('2027-08-04T08:00:30Z');
    expect((await h.caught()).filter((m) => /^Reminder:/.test(m.subject ?? ''))).toHaveLength(1);
  });
  it('staff cannot silently re-subscribe someone who unsubscribed: the staff view says so; re-enabling the category is a 409 naming it unless confirmRecipientConsent, and the audit says so', async () => {
    const { t, booking } = await scenario();
    const token = await signUnsubscribeToken({ tenantId: t.id, contactId: booking.contactId, category: 'booking_updates', expiresAt: new Date('2028-08-02T00:00:00Z') }, keys[0]);
    await unsubscribeByToken(db(), token, keys, new Date('2027-08-03T12:00:00Z'));
    const staff = { kind: 'staff' as const, actor: 'sam@example.test' };
    const ctx = { tenantId: t.id, now: new Date('2027-08-03T13:00:00Z') };

    // GET /api/contacts/<id>/preferences: the marker and a sentence saying who unsubscribed, when and how.
    const view = (await readContactPreferences(db(), t.id, booking.contactId))!;
    expect(view.unsubscribed).toEqual({ booking_updates: '2027-08-03T12:00:00.000Z' });
    expect(view.sentences).toContain('Unsubscribed from booking updates by the recipient on Tue 3 Aug 2027 (one-click link).');

    // A staff save that ticks booking updates again: 409 naming preferences.booking_updates; nothing written.
    const before = await contactRow(booking.contactId);
    const input = { preferences: { reminders: ['email'], booking_updates: ['email', 'sms'] }, quietHours: null, version: before.version };
    const err = await saveContactPreferences(db(), ctx, booking.contactId, input, staff).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(AppError);
    expect([(err as AppError).httpStatus, (err as AppError).field]).toEqual([409, 'preferences.booking_updates']);
    expect((err as AppError).message).toBe(
      'preferences.booking_updates: Bea Attendee unsubscribed from booking updates on Tue 3 Aug 2027 with the one-click link in a message. Only they can subscribe again (with the preferences link in their messages) — unless they asked you to: then tick “They asked us to send these again” and save.',
    );
    expect((err as AppError).details).toMatchObject({ unsubscribed: { booking_updates: '2027-08-03T12:00:00.000Z' }, current: { version: before.version } });
    let c = await contactRow(booking.contactId);
    expect([c.version, c.preferences]).toEqual([before.version, before.preferences]);
    expect(await db().select().from(auditLog).where(eq(auditLog.action, 'preferences_update'))).toHaveLength(0);
    // confirmRecipientConsent: false is no confirmation.
    await expect(saveContactPreferences(db(), ctx, booking.contactId, { ...input, confirmRecipientConsent: false }, staff)).rejects.toThrow(/Only they can subscribe again/);

    // A staff save that leaves booking updates empty goes through and keeps the marker.
    await saveContactPreferences(db(), ctx, booking.contactId, { preferences: { reminders: ['email'], booking_updates: [] }, quietHours: { start: '22:00', end: '07:00' }, version: before.version }, staff);
    c = await contactRow(booking.contactId);
    expect(c.preferences).toEqual({ announcements: ['email'], reminders: ['email'], booking_updates: [], unsubscribed: { booking_updates: '2027-08-03T12:00:00.000Z' } });

    // With the person's consent confirmed: saved, marker dropped, and the audit entry says whose consent and which unsubscribe it overrides.
    const r = await saveContactPreferences(db(), ctx, booking.contactId, { ...input, version: c.version, confirmRecipientConsent: true }, staff);
    expect(r.changed).toBe(true);
    expect(r.preferences.unsubscribed).toEqual({});
    c = await contactRow(booking.contactId);
    expect(c.preferences).toEqual({ announcements: ['email'], reminders: ['email'], booking_updates: ['email', 'sms'] });
    const audits = await db().select().from(auditLog).where(eq(auditLog.action, 'preferences_update')).orderBy(asc(auditLog.createdAt));
    expect(audits).toHaveLength(2);
    const last = audits[1];
    expect(last.actor).toBe('sam@example.test');
    expect(last.reason).toBe('Re-subscribed to booking updates at the recipient’s request, confirmed by sam@example.test (they had unsubscribed with the one-click link on 2027-08-03T12:00:00.000Z).');
    expect(last.details).toMatchObject({ recipientConsent: { confirmedBy: 'sam@example.test', overrides: { booking_updates: '2027-08-03T12:00:00.000Z' } } });
    expect(audits[0].details).not.toHaveProperty('recipientConsent');
  });

  it('the person re-subscribing on their own page needs no confirmation; a staff save of another category leaves their marker alone', async () => {
    const { t, booking } = await scenario();
    const token = await signUnsubscribeToken({ tenantId: t.id, contactId: booking.contactId, category: 'booking_updates', expiresAt: new Date('2028-08-02T00:00:00Z') }, keys[0]);
    await unsubscribeByToken(db(), token, keys, new Date('2027-08-03T12:00:00Z'));
    const ctx = { tenantId: t.id, now: new Date('2027-08-03T13:00:00Z') };
    let c = await contactRow(booking.contactId);
    // Staff change reminders only: no confirmation needed, the marker stays.
    await saveContactPreferences(db(), ctx, booking.contactId, { preferences: { reminders: ['email', 'sms'], booking_updates: [] }, quietHours: null, version: c.version }, { kind: 'staff', actor: 'sam@example.test' });
    c = await contactRow(booking.contactId);
    expect(c.preferences).toEqual({ announcements: ['email'], reminders: ['email', 'sms'], booking_updates: [], unsubscribed: { booking_updates: '2027-08-03T12:00:00.000Z' } });
    // The person ticks booking updates again on their own page: saved, marker dropped.
    await saveContactPreferences(db(), ctx, booking.contactId, { preferences: { reminders: ['email', 'sms'], booking_updates: ['email'] }, quietHours: null, version: c.version }, { kind: 'participant' });
    c = await contactRow(booking.contactId);
    expect(c.preferences).toEqual({ announcements: ['email'], reminders: ['email', 'sms'], booking_updates: ['email'] });
    expect((await readContactPreferences(db(), t.id, booking.contactId))!.sentences.join(' ')).not.toMatch(/Unsubscribed/);
    // The person's page may not send the staff-only confirmation.
    await expect(
      saveContactPreferences(db(), ctx, booking.contactId, { preferences: { reminders: [], booking_updates: [] }, quietHours: null, version: c.version, confirmRecipientConsent: true }, { kind: 'participant' }),
    ).rejects.toThrow(/confirmRecipientConsent: cannot be changed here/);
  });
});
