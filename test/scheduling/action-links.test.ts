/**
 * Acting from a message: the signed "I'll be there" / "I can't come" links (server/sending/action-link.ts), their page
 * (app/a/[token]/route.ts) and the one attendance use-case (server/scheduling/attendance.ts). Real PostgreSQL, the real
 * worker tasks and the real SMTP catcher: the hosts' "can't come" notification is delivered by SMTP.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, domainEvents, events, notificationSettings, reminders } from '@/db/schema';
import { defaultPolicy } from '@/domain/notifications/notification-policy';
import { actionLinkExpiry } from '@/domain/scheduling/attendance';
import { addBooking } from '@/server/scheduling/bookings';
import { createReminderRule } from '@/server/rules/reminder-rule';
import { answerBooking } from '@/server/scheduling/attendance';
import { answerByToken, readActionView } from '@/server/scheduling/booking-actions';
import { actionLinkSecrets, signActionToken, verifyActionToken } from '@/server/sending/action-link';
import { createHarness, type Harness } from '@/test/support/harness';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';

let h: Harness;
const saved = { secret: process.env.BETTER_AUTH_SECRET, url: process.env.DATABASE_URL };
const db = () => h.tdb.db;

beforeAll(async () => {
  process.env.BETTER_AUTH_SECRET = 'action-links-test-secret-0123456789abcdef';
  h = await createHarness({ deps: { links: { publicUrl: 'http://127.0.0.1:3000', actionSecret: actionLinkSecrets()[0] } } });
  process.env.DATABASE_URL = h.tdb.url;
  delete (globalThis as { __punctualDb?: unknown }).__punctualDb;
});
afterAll(async () => {
  const g = globalThis as { __punctualDb?: { close(): Promise<void> } };
  await g.__punctualDb?.close();
  delete g.__punctualDb;
  process.env.BETTER_AUTH_SECRET = saved.secret;
  process.env.DATABASE_URL = saved.url;
  await h?.close();
});

/** An event on 2027-06-15 10:00 Amsterdam with reminders 1 day and 1 hour before, one attendee (Ana) and one host (Hugo). */
async function scenario() {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D' }, { offset: '-PT1H' }]);
  await db().insert(notificationSettings).values({ tenantId: tenant.id, policy: defaultPolicy });
  const bookedAt = new Date('2027-06-01T00:00:00Z');
  const { event, booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam', title: 'Pottery evening' }, bookedAt, {
    email: `ana-${tenant.id.slice(0, 8)}@example.test`,
    name: 'Ana Lima',
  });
  const host = await addBooking(db(), tenant.id, { eventId: event.id, role: 'host', contact: { email: `hugo-${tenant.id.slice(0, 8)}@example.test`, name: 'Hugo Host' } }, bookedAt);
  const sign = (answer: 'confirmed' | 'declined') =>
    signActionToken({ tenantId: tenant.id, bookingId: booking.id, answer, expiresAt: actionLinkExpiry(event.endsAt) }, actionLinkSecrets()[0]);
  await h.drain(); // the booking-confirmed notifications of the setup
  return { tenant, event, booking, host, sign };
}

const bookingRow = async (id: string) => (await db().select().from(bookings).where(eq(bookings.id, id)))[0];
const pendingReminders = async (bookingId: string) => db().select().from(reminders).where(and(eq(reminders.bookingId, bookingId), eq(reminders.kind, 'rule')));

describe('"I can\'t come" from the link', () => {
  it('clicked twice (two POSTs 300 ms apart) → one cancellation, one staff notification, pending reminders ended cancelled "declined by the participant"', async () => {
    const s = await scenario();
    const token = await s.sign('declined');
    expect((await pendingReminders(s.booking.id)).map((r) => r.status)).toEqual(['scheduled', 'scheduled']);
    const now = new Date('2027-06-10T09:00:00Z');
    const first = answerByToken(db(), token, actionLinkSecrets(), { reason: 'My train is cancelled', now });
    await new Promise((r) => setTimeout(r, 300));
    const second = answerByToken(db(), token, actionLinkSecrets(), { reason: 'again', now: new Date(now.getTime() + 300) });
    const results = await Promise.all([first, second]);
    expect(results.map((r) => r.result.kind)).toEqual(['applied', 'already']);

    const b = await bookingRow(s.booking.id);
    expect(b).toMatchObject({ status: 'cancelled', statusReason: 'My train is cancelled', attendance: 'declined', attendanceSource: 'link', attendanceBy: expect.stringMatching(/^recipient ana-/) });
    expect(b.attendanceAt?.toISOString()).toBe(now.toISOString());
    const rs = await pendingReminders(s.booking.id);
    expect(rs.map((r) => [r.status, r.statusReason])).toEqual([
      ['cancelled', 'declined by the participant'],
      ['cancelled', 'declined by the participant'],
    ]);
    const facts = await db().select().from(domainEvents).where(and(eq(domainEvents.bookingId, s.booking.id), eq(domainEvents.type, 'booking_declined')));
    expect(facts).toHaveLength(1);
    expect(facts[0].payload).toMatchObject({ reason: 'My train is cancelled', participantName: 'Ana Lima', source: 'link' });

    // The notify task plans ONE message: to the host (staff), not to Ana.
    await h.drain();
    const notes = await db().select().from(reminders).where(and(eq(reminders.tenantId, s.tenant.id), eq(reminders.notificationType, 'booking_declined')));
    expect(notes.map((n) => n.bookingId)).toEqual([s.host.id]);
    await h.tick(now);
    await h.tick(new Date(now.getTime() + 60_000));
    const mail = (await h.caught()).filter((m) => m.subject?.includes('can’t come to Pottery evening'));
    expect(mail).toHaveLength(1);
    expect(mail[0].envelopeTo.join(',')).toContain('hugo-');
    expect(mail[0].text).toContain('My train is cancelled');

    // Staff cannot lose the answer: the page shows "already done" for a later GET.
    const view = await readActionView(db(), token, actionLinkSecrets(), now);
    expect(view.bookingStatus).toBe('cancelled');
  });

  it('a GET (page view) changes nothing; the route answers 200 with a form and no script', async () => {
    const s = await scenario();
    const token = await s.sign('declined');
    const before = { booking: await bookingRow(s.booking.id), reminders: await pendingReminders(s.booking.id) };
    const { GET } = await import('@/app/a/[token]/route');
    for (let i = 0; i < 3; i++) {
      const r = await GET(new Request(`http://127.0.0.1:3000/a/${token}`), { params: Promise.resolve({ token }) });
      expect(r.status).toBe(200);
      const page = await r.text();
      expect(page).toContain('<form class="stack" method="post"');
      expect(page).toContain('name="reason"');
      expect(page).not.toMatch(/<script/i);
      expect(page).toContain('Pottery evening');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    }
    expect(await bookingRow(s.booking.id)).toEqual(before.booking);
    expect(await pendingReminders(s.booking.id)).toEqual(before.reminders);
    expect(await db().select().from(domainEvents).where(and(eq(domainEvents.bookingId, s.booking.id), eq(domainEvents.type, 'booking_declined')))).toHaveLength(0);

    // A tampered token is 400, an unknown booking 404.
    const bad = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    expect((await GET(new Request(`http://127.0.0.1:3000/a/${bad}`), { params: Promise.resolve({ token: bad }) })).status).toBe(400);
  });

  it('the route POST acts once; "I\'ll be there" sets confirmed; a repeat says already', async () => {
    const s = await scenario();
    const token = await s.sign('confirmed');
    const { POST } = await import('@/app/a/[token]/route');
    const post = () => POST(new Request(`http://127.0.0.1:3000/a/${token}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' }), { params: Promise.resolve({ token }) });
    const r1 = await post();
    expect(r1.status).toBe(200);
    expect(await r1.text()).toContain('see you there');
    const b = await bookingRow(s.booking.id);
    expect(b).toMatchObject({ status: 'confirmed', attendance: 'confirmed', attendanceSource: 'link' });
    const r2 = await post();
    expect(await r2.text()).toContain('You had already confirmed');
    expect((await bookingRow(s.booking.id)).attendanceAt).toEqual(b.attendanceAt);
  });

  it('a reason holding a text-direction control or a NUL is refused (400 naming why, nothing changes); a plain one is kept', async () => {
    const s = await scenario();
    const token = await s.sign('declined');
    const { POST } = await import('@/app/a/[token]/route');
    const post = (reason: string) =>
      POST(new Request(`http://127.0.0.1:3000/a/${token}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ reason }).toString() }), { params: Promise.resolve({ token }) });
    const before = await bookingRow(s.booking.id);
    for (const reason of ['ill\u202Etxt.exe', 'away \u2066x\u2069', 'abc\u0000def']) {
      const r = await post(reason);
      expect(r.status, JSON.stringify(reason)).toBe(400);
      expect(await r.text()).toContain('Your reason could not be kept');
      expect(await bookingRow(s.booking.id)).toEqual(before);
    }
    await expect(answerBooking(db(), { tenantId: s.tenant.id, bookingId: s.booking.id, answer: 'declined', source: 'link', reason: 'x\u202Ey', now: new Date('2027-06-10T08:00:00Z') })).rejects.toMatchObject({ field: 'reason' });
    const ok = await post('Sick, sorry');
    expect(ok.status).toBe(200);
    expect(await bookingRow(s.booking.id)).toMatchObject({ status: 'cancelled', statusReason: 'Sick, sorry' });
  });

  it('after the event is cancelled, the page of someone who had confirmed says it is cancelled, not that they are expected', async () => {
    const s = await scenario();
    const token = await s.sign('confirmed');
    const { GET, POST } = await import('@/app/a/[token]/route');
    await POST(new Request(`http://127.0.0.1:3000/a/${token}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' }), { params: Promise.resolve({ token }) });
    await db().update(events).set({ status: 'cancelled' }).where(eq(events.id, s.booking.eventId));
    const page = await (await GET(new Request(`http://127.0.0.1:3000/a/${token}`), { params: Promise.resolve({ token }) })).text();
    expect(page).not.toContain('You had already confirmed');
    expect(page).toMatch(/cancelled/i);
  });
});

describe('links in messages', () => {
  it("a participant's reminder email carries both signed links (the same on every render); the host's does not", async () => {
    const s = await scenario();
    await h.tick('2027-06-14T08:00:00Z');
    const mail = (await h.caught()).filter((m) => m.envelopeTo.join(',').includes(`ana-${s.tenant.id.slice(0, 8)}`) && m.subject?.startsWith('Reminder'));
    expect(mail).toHaveLength(1);
    const urls = [...new Set(mail[0].text!.match(/http:\/\/127\.0\.0\.1:3000\/a\/[\w.-]+/g) ?? [])];
    expect(urls).toHaveLength(2);
    const verdicts = await Promise.all(urls.map((u) => verifyActionToken(u.split('/a/')[1], actionLinkSecrets(), new Date('2027-06-14T08:00:00Z'))));
    expect(verdicts.map((v) => (v && 'answer' in v ? v.answer : null)).sort()).toEqual(['confirmed', 'declined']);
    expect(mail[0].text).toContain('I’ll be there');
    const hostMail = (await h.caught()).filter((m) => m.envelopeTo.join(',').includes(`hugo-${s.tenant.id.slice(0, 8)}`));
    for (const m of hostMail) expect(m.text ?? '').not.toMatch(/\/a\//);
  });
});

describe('a confirmation-request rule for people who have not confirmed', () => {
  it('48 h before; Ana confirms 50 h before → her reminder ends cancelled "already confirmed", never sent; Ben, who did not confirm, gets it with both links', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const rule = await createReminderRule(db(), tenant.id, {
      name: 'Ask to confirm',
      anchor: 'start',
      offset: '-PT48H',
      audience: ['attendee', 'external'],
      template: 'confirmation-request',
      onlyUnconfirmed: true,
      lateSendWindowSeconds: 3600,
    });
    const bookedAt = new Date('2027-06-01T00:00:00Z');
    const tag = tenant.id.slice(0, 8);
    const { event, booking: ana } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-06-15T08:00:00Z', timeZone: 'Europe/Amsterdam', title: 'Glaze night' }, bookedAt, { email: `ana-${tag}@example.test`, name: 'Ana' });
    const ben = await addBooking(db(), tenant.id, { eventId: event.id, role: 'attendee', contact: { email: `ben-${tag}@example.test`, name: 'Ben' } }, bookedAt);
    const ruleReminder = async (bookingId: string) => (await db().select().from(reminders).where(and(eq(reminders.bookingId, bookingId), eq(reminders.ruleId, rule.id))))[0];
    expect((await ruleReminder(ana.id)).dueAt.toISOString()).toBe('2027-06-13T08:00:00.000Z');

    const r = await answerBooking(db(), { tenantId: tenant.id, bookingId: ana.id, answer: 'confirmed', source: 'link', now: new Date('2027-06-13T06:00:00Z') });
    expect(r).toMatchObject({ kind: 'applied', attendance: 'confirmed', remindersEnded: 1 });
    expect(await ruleReminder(ana.id)).toMatchObject({ status: 'cancelled', statusReason: 'already confirmed' });
    expect(await ruleReminder(ben.id)).toMatchObject({ status: 'scheduled' });

    await h.tick('2027-06-13T08:00:00Z');
    await h.tick('2027-06-13T08:01:00Z');
    const mail = (await h.caught()).filter((m) => m.subject?.startsWith('Will you be at Glaze night?'));
    expect(mail.map((m) => m.envelopeTo.join(','))).toEqual([`ben-${tag}@example.test`]);
    expect(mail[0].text).toMatch(/I’ll be there[\s\S]*\/a\//);
    expect(await ruleReminder(ana.id)).toMatchObject({ status: 'cancelled', statusReason: 'already confirmed' });
    expect(await ruleReminder(ben.id)).toMatchObject({ status: 'done' });
  });

  it('re-checked at send time by the shared decision: a reminder still waiting when its person is already confirmed ends cancelled "already confirmed"', async () => {
    const { tenant } = await tenantWithRules(db(), []);
    const rule = await createReminderRule(db(), tenant.id, { name: 'Ask', anchor: 'start', offset: '-PT48H', audience: ['attendee'], template: 'confirmation-request', onlyUnconfirmed: true });
    const tag = tenant.id.slice(0, 8);
    const { booking } = await eventWithBooking(db(), tenant.id, { startsAt: '2027-07-15T08:00:00Z', timeZone: 'Europe/Amsterdam', title: 'Raku day' }, new Date('2027-07-01T00:00:00Z'), { email: `cy-${tag}@example.test` });
    // Confirmed by a path that did not end the reminder (e.g. before the rule existed): only the send-time check stops it.
    await db().update(bookings).set({ attendance: 'confirmed', attendanceSource: 'staff' }).where(eq(bookings.id, booking.id));
    await h.tick('2027-07-13T08:00:00Z');
    const [rem] = await db().select().from(reminders).where(and(eq(reminders.bookingId, booking.id), eq(reminders.ruleId, rule.id)));
    expect(rem).toMatchObject({ status: 'cancelled', statusReason: 'already confirmed' });
    expect((await h.caught()).filter((m) => m.subject?.includes('Raku day'))).toHaveLength(0);
  });
});

describe('Today alert: unconfirmed people above the organisation threshold', () => {
  it('an event starting within 24 h with more unconfirmed participants than the threshold is listed; off (null) lists nothing', async () => {
    const s = await scenario();
    const { loadToday } = await import('@/server/dashboards/today');
    const now = new Date('2027-06-14T12:00:00Z'); // 20 h before the start
    const tenant = { id: s.tenant.id, timeZone: 'Europe/Amsterdam' };
    // One unconfirmed attendee (Ana; the host does not count).
    expect((await loadToday(db(), { ...tenant, unconfirmedAlertThreshold: 0 }, now, 3)).unconfirmed.items).toMatchObject([{ id: s.event.id, unconfirmed: 1 }]);
    expect((await loadToday(db(), { ...tenant, unconfirmedAlertThreshold: 1 }, now, 3)).unconfirmed.items).toEqual([]);
    expect((await loadToday(db(), { ...tenant, unconfirmedAlertThreshold: null }, now, 3)).unconfirmed).toEqual({ threshold: null, items: [] });
    // More than 24 h ahead: no alert yet.
    expect((await loadToday(db(), { ...tenant, unconfirmedAlertThreshold: 0 }, new Date('2027-06-13T07:00:00Z'), 3)).unconfirmed.items).toEqual([]);
    // Once Ana confirms, the event is off the list.
    await answerBooking(db(), { tenantId: s.tenant.id, bookingId: s.booking.id, answer: 'confirmed', source: 'link', now });
    expect((await loadToday(db(), { ...tenant, unconfirmedAlertThreshold: 0 }, now, 3)).unconfirmed.items).toEqual([]);
  });
});

describe('answerBooking', () => {
  it('tentative is noted only; staff and calendar replies are recorded with their source; a declined booking cannot be confirmed', async () => {
    const s = await scenario();
    const now = new Date('2027-06-10T09:00:00Z');
    const t = await answerBooking(db(), { tenantId: s.tenant.id, bookingId: s.booking.id, answer: 'tentative', source: 'calendar_reply', actor: 'ana@example.test', now });
    expect(t).toMatchObject({ kind: 'applied', attendance: 'unconfirmed' });
    expect(await bookingRow(s.booking.id)).toMatchObject({ attendance: 'unconfirmed', tentativeSource: 'calendar_reply', status: 'confirmed' });
    const c = await answerBooking(db(), { tenantId: s.tenant.id, bookingId: s.booking.id, answer: 'confirmed', source: 'staff', actor: 'desk@studio.test', now });
    expect(c).toMatchObject({ kind: 'applied', attendance: 'confirmed' });
    expect(await bookingRow(s.booking.id)).toMatchObject({ attendance: 'confirmed', attendanceSource: 'staff', attendanceBy: 'desk@studio.test' });
    const d = await answerBooking(db(), { tenantId: s.tenant.id, bookingId: s.booking.id, answer: 'declined', source: 'calendar_reply', now });
    expect(d).toMatchObject({ kind: 'applied', attendance: 'declined' });
    const again = await answerBooking(db(), { tenantId: s.tenant.id, bookingId: s.booking.id, answer: 'confirmed', source: 'link', now });
    expect(again).toMatchObject({ kind: 'refused', reason: 'booking_cancelled' });
    await expect(answerBooking(db(), { tenantId: s.tenant.id, bookingId: '00000000-0000-4000-8000-000000000000', answer: 'confirmed', source: 'link', now })).rejects.toMatchObject({ code: 'not_found' });
  });
});
