/**
 * iTIP REPLY ingest against real PostgreSQL (server/calendar/replies.ts), through the real `replies:ingest` command
 * and the signed inbound route: an Outlook DECLINED from the attendee's own address cancels the booking (reminders
 * ended, `booking_declined` recorded); the same from another address is stored unmatched and changes nothing; a
 * reply to an older SEQUENCE is stored, not applied; Google's ACCEPTED and Apple's TENTATIVE are noted; the inbound
 * route refuses unsigned and badly signed bodies with 401 and stores nothing.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, calendarReplies, domainEvents, reminders } from '@/db/schema';
import { inboundSignature } from '@/server/calendar/inbound-reply';
import { DECLINED_REASON, ingestReply } from '@/server/calendar/replies';
import { rescheduleEvent } from '@/server/scheduling/events';
import { runCli } from '@/test/support/cli';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';
import { startRouteServer, type RouteServer } from '@/test/support/route-server';
import { FIXTURE_ATTENDEE, replyFor } from './itip-harness';

let t: TestDatabase;
let server: RouteServer;
const db = () => t.db;
const NOW = new Date();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'replies-'));
const SECRET = 'inbound-secret-0123456789';

beforeAll(async () => {
  t = await createTestDatabase();
  server = await startRouteServer(t.url, [{ pattern: /^\/api\/replies\/inbound$/, load: () => import('@/app/api/replies/inbound/route') }]);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
  process.env.PUNCTUAL_INBOUND_REPLY_SECRET = SECRET;
});

/** An Amsterdam event in 10 days with a 1-day-before rule and one booking of `email`. */
async function booked(email: string) {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D' }]);
  const startsAt = new Date(NOW.getTime() + 10 * 86_400_000).toISOString();
  const { event, booking } = await eventWithBooking(db(), tenant.id, { startsAt, timeZone: 'Europe/Amsterdam', title: 'Pottery workshop' }, NOW, { email, name: 'Ana López' });
  return { tenant, event, booking };
}
const bookingRow = async (id: string) => (await db().select().from(bookings).where(eq(bookings.id, id)))[0];
const replies = () => db().select().from(calendarReplies);

describe('replies:ingest — an Outlook-style REPLY with PARTSTAT=DECLINED', () => {
  it("from the attendee's own address (other case) → booking cancelled, reminders ended, booking_declined recorded; again → already ingested; a bad file → exit 1 with a stderr line", async () => {
    const { booking } = await booked('Ana.Lopez@example.ORG');
    const pending = await db().select().from(reminders).where(eq(reminders.bookingId, booking.id));
    expect(pending.filter((r) => r.status === 'scheduled').length).toBeGreaterThan(0);
    const file = path.join(tmp, `decline-${booking.id}.eml`);
    writeFileSync(file, replyFor('outlook-declined.eml', booking.id));

    const first = await runCli('scripts/replies-ingest.ts', [file], { DATABASE_URL: t.url });
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe(`applied (booking ${booking.id}) — DECLINED: booking cancelled\n`);
    expect(first.code).toBe(0);
    expect(await bookingRow(booking.id)).toMatchObject({ status: 'cancelled', statusReason: DECLINED_REASON });
    const after = await db().select().from(reminders).where(eq(reminders.bookingId, booking.id));
    expect(after.filter((r) => r.kind === 'rule').every((r) => r.status === 'cancelled')).toBe(true);
    const facts = await db().select().from(domainEvents).where(and(eq(domainEvents.bookingId, booking.id), eq(domainEvents.type, 'booking_declined')));
    expect(facts).toHaveLength(1);
    expect(await replies()).toMatchObject([{ bookingId: booking.id, outcome: 'applied', partstat: 'DECLINED', attendee: 'ana.lopez@example.org', source: 'file', sequence: 0 }]);

    const bad = path.join(tmp, 'not-a-reply.eml');
    writeFileSync(bad, 'From: a@example.org\r\nSubject: hello\r\n\r\njust text\r\n');
    const again = await runCli('scripts/replies-ingest.ts', [file, bad, path.join(tmp, 'missing.eml')], { DATABASE_URL: t.url });
    expect(again.stdout).toBe(`${file}: already ingested: applied (booking ${booking.id}) — DECLINED: booking cancelled\n`);
    expect(again.stderr.split('\n').filter(Boolean)).toEqual([`${bad}: no text/calendar part: not a calendar reply`, `${path.join(tmp, 'missing.eml')}: cannot read: ENOENT`]);
    expect(again.code).toBe(1);
    expect(await replies()).toHaveLength(1);
    expect(await db().select().from(domainEvents).where(and(eq(domainEvents.bookingId, booking.id), eq(domainEvents.type, 'booking_declined')))).toHaveLength(1);
  });

  it('from another address → stored as unmatched (shown to the booking’s tenant), nothing changes; exit 2', async () => {
    const { tenant, booking } = await booked('someone.else@example.org');
    const file = path.join(tmp, `other-${booking.id}.eml`);
    writeFileSync(file, replyFor('outlook-declined.eml', booking.id));
    const run = await runCli('scripts/replies-ingest.ts', [file], { DATABASE_URL: t.url });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain("unmatched (booking");
    expect(run.stdout).toContain(`ATTENDEE ${FIXTURE_ATTENDEE} is not the booking's address`);
    expect(await bookingRow(booking.id)).toMatchObject({ status: 'confirmed', version: booking.version });
    expect(await replies()).toMatchObject([{ tenantId: tenant.id, bookingId: booking.id, outcome: 'unmatched' }]);
    expect(await db().select().from(domainEvents).where(and(eq(domainEvents.bookingId, booking.id), eq(domainEvents.type, 'booking_declined')))).toHaveLength(0);
  });

  it('to an older SEQUENCE (the event was rescheduled since: the last invitation sent is SEQUENCE 1) → stored, not applied', async () => {
    const { tenant, event, booking } = await booked(FIXTURE_ATTENDEE);
    await rescheduleEvent(db(), tenant.id, event.id, { startsAt: new Date(event.startsAt.getTime() + 3_600_000), endsAt: new Date(event.endsAt.getTime() + 3_600_000), timeZone: event.timeZone }, NOW);
    const r = await ingestReply(db(), replyFor('outlook-declined.eml', booking.id), { source: 'file', now: NOW });
    expect(r).toMatchObject({ outcome: 'ignored', reason: 'SEQUENCE 0 is older than the last sent (1)', duplicate: false });
    expect((await bookingRow(booking.id)).status).toBe('confirmed');
    expect(await replies()).toMatchObject([{ outcome: 'ignored', sequence: 0 }]);
  });

  it('a UID naming no booking → stored unmatched without a tenant', async () => {
    const r = await ingestReply(db(), replyFor('outlook-declined.eml', '00000000-0000-4000-8000-000000000000'), { source: 'file', now: NOW });
    expect(r).toMatchObject({ outcome: 'unmatched', tenantId: null, bookingId: null });
  });
});

describe('a reply carrying a NUL byte', () => {
  it('is stored with the NUL replaced (PostgreSQL text cannot hold it) and applied, not an error', async () => {
    const { booking } = await booked(FIXTURE_ATTENDEE);
    const raw = replyFor('outlook-declined.eml', booking.id).toString('utf8').replace(/^(Message-ID:\s*<)/im, '$1\u0000');
    expect(raw).toContain('\u0000');
    const r = await ingestReply(db(), Buffer.from(raw, 'utf8'), { source: 'file', now: NOW });
    expect(r.outcome).toBe('applied');
    const [row] = await replies();
    expect(row.messageId).toContain('\uFFFD');
    expect((await bookingRow(booking.id)).status).toBe('cancelled');
  });
});

describe('Google ACCEPTED and Apple TENTATIVE', () => {
  it('ACCEPTED confirms attendance (source: calendar reply); TENTATIVE is noted; the booking stays booked', async () => {
    const { booking } = await booked(FIXTURE_ATTENDEE);
    const g = await ingestReply(db(), replyFor('google-accepted.eml', booking.id), { source: 'file', now: NOW });
    const a = await ingestReply(db(), replyFor('apple-tentative.eml', booking.id), { source: 'file', now: NOW });
    expect([g.outcome, a.outcome]).toEqual(['applied', 'noted']);
    expect(g.reason).toContain('ACCEPTED');
    expect(a.reason).toContain('TENTATIVE');
    expect(await bookingRow(booking.id)).toMatchObject({ status: 'confirmed', attendance: 'confirmed', attendanceSource: 'calendar_reply' });
  });
});

describe('POST /api/replies/inbound (signed inbound-parse webhook)', () => {
  const post = (body: Buffer, headers: Record<string, string>) => fetch(`${server.origin}/api/replies/inbound`, { method: 'POST', body: new Uint8Array(body), headers });

  it('unsigned or badly signed → 401, nothing stored; signed with the secret → 200 applied; JSON { raw } works too', async () => {
    const { booking } = await booked(FIXTURE_ATTENDEE);
    const raw = replyFor('outlook-declined.eml', booking.id);
    expect((await post(raw, { 'content-type': 'message/rfc822' })).status).toBe(401);
    expect((await post(raw, { 'content-type': 'message/rfc822', 'x-punctual-signature': inboundSignature(raw, 'wrong-secret') })).status).toBe(401);
    const tampered = Buffer.concat([raw, Buffer.from('\r\n')]);
    expect((await post(tampered, { 'content-type': 'message/rfc822', 'x-punctual-signature': inboundSignature(raw, SECRET) })).status).toBe(401);
    expect(await replies()).toHaveLength(0);
    expect((await bookingRow(booking.id)).status).toBe('confirmed');

    const ok = await post(raw, { 'content-type': 'message/rfc822', 'x-punctual-signature': inboundSignature(raw, SECRET) });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ outcome: 'applied', duplicate: false });
    expect((await bookingRow(booking.id)).status).toBe('cancelled');

    const json = Buffer.from(JSON.stringify({ raw: raw.toString('latin1') }));
    const again = await post(json, { 'content-type': 'application/json', 'x-punctual-signature': inboundSignature(json, SECRET) });
    expect(again.status).toBe(200);
    const noRaw = Buffer.from('{}');
    const missing = await post(noRaw, { 'content-type': 'application/json', 'x-punctual-signature': inboundSignature(noRaw, SECRET) });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ field: 'raw' });
  });

  it('without a configured secret → 503; a body over the limit → 413', async () => {
    delete process.env.PUNCTUAL_INBOUND_REPLY_SECRET;
    expect((await post(Buffer.from('x'), { 'content-type': 'message/rfc822', 'x-punctual-signature': inboundSignature(Buffer.from('x'), SECRET) })).status).toBe(503);
    process.env.PUNCTUAL_INBOUND_REPLY_SECRET = SECRET;
    const big = Buffer.alloc(2 * 1_048_576 + 10, 'a');
    expect((await post(big, { 'content-type': 'message/rfc822', 'x-punctual-signature': inboundSignature(big, SECRET) })).status).toBe(413);
  });
});
