/**
 * Writing to the people of an event (announcements) against real PostgreSQL, the real graphile-worker queue, the real
 * SMTP catcher and a Twilio-compatible SMS peer: the announcement is claimed by the `send_announcement` job at its send
 * instant, each recipient's message goes through the send path like every reminder (claim of the message key,
 * preferences and suppression at send time), and staff see who did not hear it and why.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSmsChannel } from '@/channels/sms';
import { auditLog, contacts, deliveries, reminders } from '@/db/schema';
import { cancelAnnouncement, createAnnouncement, listAnnouncements } from '@/server/messages/announcements';
import { claimAnnouncement } from '@/server/messages/announcement-send';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { AppError } from '@/server/platform/errors';
import { createHarness, type Harness } from '@/test/support/harness';
import { tenantWithRules } from '@/test/support/fixtures';
import { startSmsPeer, type SmsPeer } from '@/test/support/sms-peer';

let h: Harness;
let sms: SmsPeer;
beforeAll(async () => {
  sms = await startSmsPeer();
  h = await createHarness({
    deps: {
      sms: createSmsChannel({ baseUrl: sms.url, accountSid: sms.accountSid, authToken: sms.authToken }),
      smsFrom: '+15005550006',
      links: { publicUrl: 'http://punctual.test', secret: 'test-preferences-key-0123456789abcdef', unsubscribeSecret: 'test-unsubscribe-key-0123456789abcdef' },
      random: () => 0,
    },
  });
});
afterAll(async () => {
  await h?.close();
  await sms?.close();
});
beforeEach(async () => {
  await h.tdb.reset();
  sms.messages.length = 0;
  sms.script('accept');
});
const db = () => h.tdb.db;

const NOW = new Date('2027-06-01T10:00:00Z');
const texts = {
  en: { subject: 'Bring an apron to {eventTitle}', body: 'Hello all,\n\nPlease **bring an apron**: the glaze stains.\n\n- aprons\n- old shoes\n\nSee [the studio page](https://studio.example.com/glaze).', sms: '{tenantName}: bring an apron to {eventTitle}, {when}.' },
};
const everyone = { roles: ['attendee'], statuses: ['confirmed'], channels: ['email', 'sms'] };

/** An event on 2027-06-20 in Amsterdam with three attendees: Ann (email), Olli (opted out of announcements), Sam (SMS only). */
async function scenario() {
  const { tenant } = await tenantWithRules(db(), []);
  h.clock.set(NOW);
  const event = await createEvent(db(), tenant.id, { title: 'Glaze night', startsAt: '2027-06-20T17:00:00Z', endsAt: '2027-06-20T19:00:00Z', timeZone: 'Europe/Amsterdam' });
  const book = (email: string, name: string, phone?: string) => addBooking(db(), tenant.id, { eventId: event.id, role: 'attendee', contact: { email, name, ...(phone ? { phone } : {}) } }, NOW);
  const ann = await book('ann@example.test', 'Ann Email');
  const olli = await book('olli@example.test', 'Olli Out', '+31612000111');
  const sam = await book('sam@example.test', 'Sam Sms', '+31612000222');
  await db().update(contacts).set({ preferences: { reminders: ['email'], booking_updates: ['email'], announcements: [] } }).where(eq(contacts.id, olli.contactId));
  await db().update(contacts).set({ preferences: { reminders: ['sms'], booking_updates: ['sms'], announcements: ['sms'] } }).where(eq(contacts.id, sam.contactId));
  await h.drain(); // the bookings' own domain events (no notification policy: nothing is sent)
  const ctx = { tenantId: tenant.id, actor: 'staff@x.test', now: NOW };
  return { tenant, event, ann, olli, sam, ctx };
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  if (!(e instanceof AppError)) throw new Error(`expected an AppError, got ${String(e)}`);
  return e;
}

const announcementEmails = async () => (await h.caught()).filter((m) => m.channel === 'email' && m.subject?.startsWith('Bring an apron'));

describe('announcements', () => {
  it('to 3 attendees (one opted out, one SMS only) → 1 email + 1 SMS, one suppressed with the reason; a double click still sends 2', async () => {
    const s = await scenario();
    const input = { audience: everyone, texts, idempotencyKey: 'dialog-key-0001' };
    const [first, second] = await Promise.all([createAnnouncement(db(), s.ctx, s.event.id, input), createAnnouncement(db(), s.ctx, s.event.id, input)]);
    expect(first.announcement.id).toBe(second.announcement.id);
    expect([first.replayed, second.replayed].sort()).toEqual([false, true]);
    await h.drain();
    // And once more after it went out (a late retry of the request): the same announcement, nothing new.
    const third = await createAnnouncement(db(), s.ctx, s.event.id, input);
    expect(third).toMatchObject({ replayed: true, announcement: { id: first.announcement.id } });
    await h.drain();

    const mail = await announcementEmails();
    expect(mail.map((m) => m.envelopeTo)).toEqual([['ann@example.test']]);
    expect(mail[0].subject).toBe('Bring an apron to Glaze night');
    expect(mail[0].html).toContain('<strong>bring an apron</strong>');
    expect(mail[0].html).toContain('href="https://studio.example.com/glaze"');
    expect(mail[0].text).toContain('Hello Ann Email,');
    // The one-click unsubscribe link names the announcements category, and the footer says so.
    expect(mail[0].raw).toMatch(/^List-Unsubscribe:\s*<http:\/\/punctual\.test\/u\//im);
    expect(mail[0].text).toContain('Unsubscribe from announcements');
    expect(sms.messages.map((m) => m.to)).toEqual(['+31612000222']);
    expect(sms.messages[0].body).toMatch(/^Test Org: bring an apron to Glaze night, .*Jun 20.*7:00.* Manage: http:\/\/punctual\.test\//);

    const ds = await db().select().from(deliveries).where(eq(deliveries.tenantId, s.tenant.id));
    const byAddress = Object.fromEntries(ds.map((d) => [d.address, [d.channel, d.status, d.statusReason, d.template]]));
    expect(byAddress).toEqual({
      'ann@example.test': ['email', 'accepted', null, 'announcement'],
      'olli@example.test': ['email', 'suppressed', 'opted out of announcements by email', 'announcement'],
      '+31612000222': ['sms', 'accepted', null, 'announcement'],
    });
    expect(ds.map((d) => d.messageKey).sort()).toEqual(
      [`ann:${s.tenant.id}:${first.announcement.id}:${s.ann.id}:email`, `ann:${s.tenant.id}:${first.announcement.id}:${s.olli.id}:email`, `ann:${s.tenant.id}:${first.announcement.id}:${s.sam.id}:sms`].sort(),
    );
    const [list] = await listAnnouncements(db(), s.ctx, s.event.id);
    expect(list).toMatchObject({ status: 'sent', plannedCount: 3, outcomes: { accepted: 2, suppressed: 1 } });
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, s.tenant.id), eq(auditLog.action, 'announcement_create')));
    expect(audits).toHaveLength(1);
    expect(audits[0].details).toMatchObject({ eventId: s.event.id, announcementId: first.announcement.id, subject: texts.en.subject, sendNow: true });
  });

  it('a scheduled announcement cancelled before its due instant sends nothing; a cancel after the claim is refused', async () => {
    const s = await scenario();
    const at = '2027-06-01T18:00'; // local time in the organisation's zone (Amsterdam, CEST) = 16:00Z
    const a = (await createAnnouncement(db(), s.ctx, s.event.id, { audience: everyone, texts, sendAt: at, idempotencyKey: 'dialog-key-0002' })).announcement;
    expect(a).toMatchObject({ status: 'scheduled', sendAt: '2027-06-01T16:00:00.000Z' });
    await h.tick('2027-06-01T15:59:00Z');
    expect(await db().select().from(reminders).where(eq(reminders.kind, 'announcement'))).toHaveLength(0);
    const stale = await refusal(cancelAnnouncement(db(), s.ctx, a.id, { version: a.version + 1 }));
    expect([stale.code, stale.field]).toEqual(['conflict', 'version']);
    const cancelled = await cancelAnnouncement(db(), { ...s.ctx, now: new Date('2027-06-01T15:59:00Z') }, a.id, { version: a.version });
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelledBy: 'staff@x.test' });
    await h.tick('2027-06-01T16:01:00Z');
    expect(await db().select().from(reminders).where(eq(reminders.kind, 'announcement'))).toHaveLength(0);
    expect(await announcementEmails()).toHaveLength(0);
    expect(sms.messages).toHaveLength(0);
    const again = await refusal(cancelAnnouncement(db(), s.ctx, a.id, { version: cancelled.version }));
    expect(again.code).toBe('invalid_state');
    expect(again.message).toContain('already cancelled by staff@x.test');

    // Another one, claimed by the worker (the claim alone, as a worker that has not planned yet): no cancel.
    const b = (await createAnnouncement(db(), s.ctx, s.event.id, { audience: everyone, texts, sendAt: '2027-06-01T17:00:00Z', idempotencyKey: 'dialog-key-0003' })).announcement;
    expect(await claimAnnouncement(db(), b.id, new Date('2027-06-01T17:00:00Z'))).toMatchObject({ status: 'sending' });
    const late = await refusal(cancelAnnouncement(db(), s.ctx, b.id, { version: b.version }));
    expect([late.code, late.httpStatus]).toEqual(['invalid_state', 409]);
    expect(late.message).toMatch(/can no longer be cancelled: the worker already claimed it/);
    // The claimed one still goes out when its job runs (resumed after the claim).
    await h.tick('2027-06-01T17:00:00Z');
    expect((await announcementEmails()).map((m) => m.envelopeTo)).toEqual([['ann@example.test']]);
    const audits = await db().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.tenantId, s.tenant.id));
    expect(audits.map((x) => x.action).filter((x) => x.startsWith('announcement')).sort()).toEqual(['announcement_cancel', 'announcement_create', 'announcement_create']);
  });

  it.each([
    ['an empty subject', { texts: { en: { ...texts.en, subject: '  ' } } }, 'texts.en.subject', /write a subject/],
    ['an empty text', { texts: { en: { ...texts.en, body: '' } } }, 'texts.en.body', /write the text/],
    ['raw HTML in the text', { texts: { en: { ...texts.en, body: 'Hi <b>all</b>' } } }, 'texts.en.body', /raw HTML/],
    ['a javascript: link', { texts: { en: { ...texts.en, body: '[x](javascript:alert(1))' } } }, 'texts.en.body', /not an http\(s\) address/],
    ['an unknown variable', { texts: { en: { ...texts.en, subject: 'About {eventTitel}' } } }, 'texts.en.subject', /did you mean \{eventTitle\}/],
    ['an unknown language', { texts: { xx: texts.en } }, 'texts', /unknown language "xx"/],
    ['an unknown role', { audience: { ...everyone, roles: ['vip'] } }, 'audience.roles', /unknown role "vip" \(expected attendee, external, host\)/],
    ['an unknown booking status', { audience: { ...everyone, statuses: ['maybe'] } }, 'audience.statuses', /unknown booking status "maybe"/],
    ['an unknown channel', { audience: { ...everyone, channels: ['fax'] } }, 'audience.channels', /unknown channel "fax"/],
    ['no channel', { audience: { ...everyone, channels: [] } }, 'audience.channels', /choose at least one channel/],
    ['a send time in the past', { sendAt: '2027-06-01T11:59' }, 'sendAt', /is in the past/],
    ['an unreadable send time', { sendAt: 'tomorrow' }, 'sendAt', /not a date and time/],
    ['no idempotency key', { idempotencyKey: undefined }, 'idempotencyKey', /required/],
  ])('%s → 400 naming the field, nothing stored', async (_what, over, field, message) => {
    const s = await scenario();
    const e = await refusal(createAnnouncement(db(), s.ctx, s.event.id, { audience: everyone, texts, idempotencyKey: 'dialog-key-0004', ...over }));
    expect([e.httpStatus, e.field]).toEqual([400, field]);
    expect(e.message).toMatch(message);
    expect(e.message.startsWith(`${field}:`)).toBe(true);
    expect(await listAnnouncements(db(), s.ctx, s.event.id)).toEqual([]);
  });
});
