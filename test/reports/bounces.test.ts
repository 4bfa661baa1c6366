/**
 * Asynchronous SMTP bounces (issue #10 §4) against real PostgreSQL and real SMTP (the built-in catcher): the VERP
 * envelope sender of a real reminder, RFC 3464 DSNs read from files by `bounces:ingest` (spawned as the real
 * command), a DSN as Postfix writes it, and the catcher's `+bounce-later` mailbox that bounces a few moments
 * after accepting. Effects are asserted through the database: delivery `bounced`, address suppressed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EmailChannel, OutgoingEmail } from '@/channels/types';
import { listCaughtMessages } from '@/dev/queries/mailbox';
import { caughtMessages, deliveries, deliveryAttempts, deliveryReports, suppressions, tenants } from '@/db/schema';
import { messageIdFor } from '@/domain/keys';
import { parseVerpAddress, verpAddress } from '@/domain/sending/verp';
import { bounceAddressKey } from '@/server/sending/bounce-address';
import { DsnError, ingestDsn, parseDsn, type DsnIngestResult } from '@/server/reports/bounces';
import { createTenant } from '@/server/organisations/tenants';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';
import { createHarness, type Harness } from '@/test/support/harness';

const SECRET = 'test-bounces-secret-0123456789abcdef';
const key = bounceAddressKey({ BETTER_AUTH_SECRET: SECRET });
const BOUNCE_LATER_MS = 200;
const fixture = path.join(import.meta.dirname, '..', 'fixtures', 'dsn', 'postfix-5.1.1.eml');
/** The fixture's own identifiers (a delivery that exists in no database), replaced to point it at a real delivery. */
const FIXTURE = {
  deliveryId: '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9',
  verp: 'bounces+0f1e2d3c4b5a49788695a4b3c2d1e0f9-909e7cea32@demo.punctual.local',
  messageKey: 'rem:5d3c1b2a-0e9f-4a8b-9c7d-6e5f4a3b2c1d:7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d:9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b:v1:email',
  messageId: '<94371b2935091b492eeb672505a3463c@punctual.local>',
};

let h: Harness;
/** What ingesting each DSN the catcher made gave (in the order they were made). */
let catcherDsns: Promise<DsnIngestResult>[] = [];
/** Runs after the catcher stored a message and before it answers (set by a test; reset before each). */
let beforeReply: ((stored: { id: string; messageId: string | null }) => Promise<void>) | null = null;
beforeAll(async () => {
  h = await createHarness({
    deps: { bounceKey: key },
    catcher: {
      bounceLaterMs: BOUNCE_LATER_MS,
      // What scripts/start.ts wires: the catcher's DSN is ingested like a file given to bounces:ingest.
      onDsn: (raw, envelope) => {
        const p = ingestDsn(h.tdb.db, raw, { key, now: h.clock.now(), envelopeTo: envelope.to });
        catcherDsns.push(p);
        return p;
      },
      beforeReply: async (stored) => beforeReply?.(stored),
    },
  });
});
afterAll(async () => h?.close());
beforeEach(async () => {
  catcherDsns = [];
  beforeReply = null;
  await h.tdb.reset();
});
const db = () => h.tdb.db;

/**
 * A tenant with a "1 day before" reminder and one booking for `email` on an event at 2027-08-03T10:00Z, whose
 * reminder goes out over SMTP at 2027-08-02T10:00Z. Returns the delivery and the caught message.
 */
async function sentReminder(email: string, opts: { bounceDomain?: string } = {}) {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D', window: 3600 }], 'Europe/Amsterdam');
  if (opts.bounceDomain) await db().update(tenants).set({ bounceDomain: opts.bounceDomain }).where(eq(tenants.id, tenant.id));
  await eventWithBooking(db(), tenant.id, { startsAt: '2027-08-03T10:00:00Z', timeZone: 'Europe/Amsterdam', title: 'Tile painting' }, new Date('2027-07-01T00:00:00Z'), { email, name: 'Attendee B' });
  await h.tick('2027-08-02T10:00:00Z');
  const [delivery] = await db().select().from(deliveries).where(eq(deliveries.tenantId, tenant.id));
  const caught = (await h.caught()).filter((m) => m.envelopeTo.includes(email));
  return { tenant, delivery, caught };
}

const liveSuppressions = (tenantId: string) =>
  db().select().from(suppressions).where(and(eq(suppressions.tenantId, tenantId), isNull(suppressions.removedAt)));
const deliveryStatus = async (id: string) => (await db().select({ s: deliveries.status }).from(deliveries).where(eq(deliveries.id, id)))[0].s;

/** Runs `node --import tsx scripts/bounces-ingest.ts ARGS` against the test database. */
function ingestCli(args: string[], opts: { stdin?: string; secret?: string | null } = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: h.tdb.url, BETTER_AUTH_SECRET: opts.secret ?? SECRET, PUNCTUAL_DATA_DIR: tmp };
    if (opts.secret === null) delete env.BETTER_AUTH_SECRET;
    delete env.AUTH_SECRET;
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bounces-ingest.ts', ...args], { cwd: process.cwd(), env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(opts.stdin ?? '');
  });
}
const tmp = mkdtempSync(path.join(tmpdir(), 'punctual-dsn-'));

/** The Postfix fixture pointed at a real delivery: its bounce address, Message-ID and message key replaced. */
function dsnFor(d: { id: string; messageKey: string }, verp: string, name: string): string {
  const text = readFileSync(fixture, 'utf8').replaceAll(FIXTURE.verp, verp).replaceAll(FIXTURE.messageKey, d.messageKey).replaceAll(FIXTURE.messageId, messageIdFor(d.messageKey));
  const file = path.join(tmp, name);
  writeFileSync(file, text);
  return file;
}

async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('VERP envelope sender', () => {
  it('a reminder sent over SMTP has MAIL FROM / Return-Path bounces+<token>@<sender domain> naming its delivery', async () => {
    const { tenant, delivery, caught } = await sentReminder('attendee-b@example.test');
    expect(delivery.status).toBe('accepted');
    expect(delivery.provider).toBe('smtp');
    expect(caught).toHaveLength(1);
    const [m] = caught;
    const expected = verpAddress(delivery.id, 'punctual.local', key);
    expect(m.envelopeFrom).toBe(expected);
    expect(m.envelopeFrom).toMatch(/^bounces\+[0-9a-f]{32}-[0-9a-f]{10}@punctual\.local$/);
    expect(parseVerpAddress(m.envelopeFrom!, key)).toBe(delivery.id);
    // The catcher, as the final delivery agent, records it as Return-Path (RFC 5321 §4.4); From is unchanged.
    expect(m.raw.startsWith(`Return-Path: <${expected}>\r\n`)).toBe(true);
    expect((m.headers as Record<string, string>)['return-path']).toBe(`<${expected}>`);
    expect((m.headers as Record<string, string>).from).toContain('reminders@punctual.local');
    // Still in the sending tenant's mailbox although the envelope sender is no longer the sender address.
    const other = await createTenant(db(), { slug: 'other-org', name: 'Other', timeZone: 'UTC', senderEmail: 'hi@other.test' });
    expect((await listCaughtMessages(db(), { limit: 10, offset: 0 }, { tenantId: tenant.id, viewerEmail: 'staff@example.test' })).items.map((i) => i.id)).toEqual([m.id]);
    expect((await listCaughtMessages(db(), { limit: 10, offset: 0 }, { tenantId: other.id, viewerEmail: 'staff@example.test' })).total).toBe(0);
  });

  it("uses the tenant's bounce_domain when set", async () => {
    const { delivery, caught } = await sentReminder('attendee-c@example.test', { bounceDomain: 'Bounces.Example.test' });
    expect(caught[0].envelopeFrom).toBe(verpAddress(delivery.id, 'bounces.example.test', key));
  });

  it('an HTTP API provider gets no envelope sender (it reports bounces as events)', async () => {
    const sent: OutgoingEmail[] = [];
    const api: EmailChannel = { name: 'http_api', idempotent: true, close: async () => {}, send: async (m) => (sent.push(m), { class: 'accepted', providerId: 'em_1' }) };
    h.ctx.sendDeps.channels = { http_api: api };
    try {
      const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D', window: 3600 }], 'Europe/Amsterdam', 'http_api');
      await eventWithBooking(db(), tenant.id, { startsAt: '2027-08-03T10:00:00Z', timeZone: 'Europe/Amsterdam' }, new Date('2027-07-01T00:00:00Z'), { email: 'attendee-d@example.test' });
      await h.tick('2027-08-02T10:00:00Z');
    } finally {
      delete h.ctx.sendDeps.channels;
    }
    expect(sent).toHaveLength(1);
    expect(sent[0].envelopeFrom).toBeUndefined();
  });

  it('a forged token is refused: a DSN to it is rejected whole — nothing stored, nothing changed', async () => {
    const { tenant, delivery, caught } = await sentReminder('attendee-b@example.test');
    const good = caught[0].envelopeFrom!;
    const forged = good.replace(/-[0-9a-f]{10}@/, '-0000000000@');
    expect(parseVerpAddress(forged, key)).toBeNull();
    expect(parseVerpAddress(good, bounceAddressKey({ BETTER_AUTH_SECRET: 'another-secret-0123456789' }))).toBeNull();
    const dsn = readFileSync(fixture, 'utf8').replaceAll(FIXTURE.verp, forged).split('--4Xy2Lq1d3Fz9sQ.1785664805/mx1.example.test\r\nContent-Description: Undelivered Message Headers')[0] + '--4Xy2Lq1d3Fz9sQ.1785664805/mx1.example.test--\r\n';
    const r = await ingestDsn(db(), dsn, { key, now: new Date('2027-08-02T10:05:00Z') });
    expect(r.bounceAddress).toBeNull();
    expect(r.unverifiedBounceAddresses).toContain(forged);
    expect(r.rejected).toBe(`bounce address does not verify: ${forged} (forged, or signed with another key)`);
    expect(r.recipients).toEqual([]);
    expect(await db().select().from(deliveryReports)).toHaveLength(0);
    expect(await deliveryStatus(delivery.id)).toBe('accepted');
    expect(await liveSuppressions(tenant.id)).toHaveLength(0);
  });
});

describe('bounces:ingest (issue #10 scenario: a DSN for a message sent over SMTP, status 5.1.1, ingested from a file)', () => {
  it('→ that delivery bounced, the address suppressed; the same file again changes nothing', async () => {
    const { tenant, delivery, caught } = await sentReminder('attendee-b@example.test');
    const file = dsnFor(delivery, caught[0].envelopeFrom!, 'bounce.eml');

    const first = await ingestCli([file]);
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe(`delivery ${delivery.id} bounced (5.1.1) — address suppressed\n`);
    expect(first.code).toBe(0);
    expect(await deliveryStatus(delivery.id)).toBe('bounced');
    const supp = await liveSuppressions(tenant.id);
    expect(supp).toHaveLength(1);
    expect(supp[0]).toMatchObject({ address: 'attendee-b@example.test', reason: 'hard_bounce', channel: 'email' });
    const reports = await db().select().from(deliveryReports);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      source: 'smtp_dsn',
      providerEventId: '<20270802100005.5B2A81F4A2@mx1.example.test>:attendee-b@example.test',
      deliveryId: delivery.id,
      kind: 'hard_bounce',
      address: 'attendee-b@example.test',
      errorCode: '5.1.1',
      detail: '550 5.1.1 <attendee-b@example.test>: Recipient address rejected: User unknown in virtual mailbox table',
    });
    // Last-Attempt-Date is absent: the event time is the Arrival-Date.
    expect(reports[0].occurredAt.toISOString()).toBe('2027-08-02T10:00:01.000Z');

    // The same DSN again (this time on stdin): a duplicate, nothing changes.
    const second = await ingestCli(['-'], { stdin: readFileSync(file, 'utf8') });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(`delivery ${delivery.id}: report for attendee-b@example.test (5.1.1) already processed — nothing changed\n`);
    expect(await db().select().from(deliveryReports)).toHaveLength(1);
    expect(await liveSuppressions(tenant.id)).toHaveLength(1);
    expect(await deliveryStatus(delivery.id)).toBe('bounced');
  });

  it('without the key, the DSN still finds its delivery by the returned X-Punctual-Message-Key', async () => {
    const { delivery, caught } = await sentReminder('attendee-b@example.test');
    const file = dsnFor(delivery, caught[0].envelopeFrom!, 'bounce-nokey.eml');
    const r = await ingestCli([file], { secret: null });
    expect(r.stderr).toContain('BETTER_AUTH_SECRET is not set');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`delivery ${delivery.id} bounced (5.1.1) — address suppressed\n`);
    const [report] = await db().select().from(deliveryReports);
    expect((report.payload as { matchedBy: string }).matchedBy).toBe('message_key');
  });

  it('a file that is not a DSN → exit 1 and a line on stderr naming the file and what is missing; nothing stored', async () => {
    const plain = path.join(tmp, 'plain.eml');
    writeFileSync(plain, 'From: a@example.test\r\nTo: b@example.test\r\nSubject: hello\r\n\r\nJust a message.\r\n');
    const r = await ingestCli([plain, path.join(tmp, 'missing.eml')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `${plain}: not a delivery status notification: no message/delivery-status part (RFC 3464); the message is text/plain\n` +
        `${path.join(tmp, 'missing.eml')}: cannot read: ENOENT\n`,
    );
    expect(await db().select().from(deliveryReports)).toHaveLength(0);
  });

  it('a DSN that names no delivery we know → exit 2, stored unmatched', async () => {
    const r = await ingestCli([fixture]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('no delivery of ours for attendee-b@example.test (5.1.1) — report stored unmatched\n');
    const [report] = await db().select().from(deliveryReports);
    expect(report).toMatchObject({ source: 'smtp_dsn', deliveryId: null, kind: 'hard_bounce', errorCode: '5.1.1' });
  });
});

describe('parseDsn', () => {
  it('reads a DSN as Postfix writes it (test/fixtures/dsn/postfix-5.1.1.eml)', async () => {
    const dsn = await parseDsn(readFileSync(fixture));
    expect(dsn.messageId).toBe('<20270802100005.5B2A81F4A2@mx1.example.test>');
    expect(dsn.date?.toISOString()).toBe('2027-08-02T10:00:05.000Z');
    expect(dsn.reportType).toBe('delivery-status');
    expect(dsn.status.problems).toEqual([]);
    expect(dsn.status.reportingMta).toBe('mx1.example.test');
    expect(dsn.status.recipients).toMatchObject([
      { finalRecipient: 'attendee-b@example.test', originalRecipient: 'attendee-b@example.test', action: 'failed', status: '5.1.1', diagnosticType: 'smtp', remoteMta: 'mail.example.test' },
    ]);
    expect(dsn.bounceAddresses).toEqual([FIXTURE.verp]);
    expect(parseVerpAddress(dsn.bounceAddresses[0], key)).toBe(FIXTURE.deliveryId);
    expect(dsn.original).toEqual({ messageId: FIXTURE.messageId, messageKey: FIXTURE.messageKey, returnPath: `<${FIXTURE.verp}>` });
  });

  it('reads RFC 6533 message/global-delivery-status and a returned message/rfc822', async () => {
    const raw = [
      'From: postmaster@mx.example.test',
      'To: bounces+0f1e2d3c4b5a49788695a4b3c2d1e0f9-909e7cea32@demo.punctual.local',
      'Subject: Delivery Status Notification (Failure)',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=global-delivery-status; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Could not deliver.',
      '--b',
      'Content-Type: message/global-delivery-status',
      '',
      'Reporting-MTA: dns; mx.example.test',
      '',
      'Final-Recipient: utf-8; jos\\x{E9}@example.test',
      'Action: failed',
      'Status: 4.4.7 (delivery time expired)',
      '--b',
      'Content-Type: message/rfc822',
      '',
      `Message-ID: ${FIXTURE.messageId}`,
      'Subject: Reminder',
      '',
      'body',
      '--b--',
      '',
    ].join('\r\n');
    const dsn = await parseDsn(raw);
    expect(dsn.messageId).toBeNull();
    expect(dsn.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(dsn.reportType).toBe('global-delivery-status');
    expect(dsn.status.recipients).toMatchObject([{ finalRecipient: 'josé@example.test', action: 'failed', status: '4.4.7' }]);
    expect(dsn.original).toEqual({ messageId: FIXTURE.messageId, messageKey: null, returnPath: null });
  });

  it.each([
    ['an empty file', '', /the message is empty/],
    ['a plain message', 'Subject: hi\r\n\r\nhello\r\n', /no message\/delivery-status part \(RFC 3464\); the message is text\/plain/],
    ['a report of another type', 'Content-Type: multipart/report; report-type=disposition-notification; boundary=x\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nread\r\n--x--\r\n', /report-type=disposition-notification/],
    ['a delivery-status part without recipients', 'Content-Type: multipart/report; report-type=delivery-status; boundary=x\r\n\r\n--x\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; x\r\n--x--\r\n', /names no recipient/],
  ])('refuses %s with a DsnError saying what is missing', async (_n, raw, msg) => {
    const err = await parseDsn(raw).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DsnError);
    expect((err as Error).message).toMatch(msg);
  });
});

describe('the catcher’s +bounce-later mailbox', () => {
  it('accepts the reminder (delivery accepted), and ~200 ms later its DSN is stored and applied: delivery bounced, address suppressed', async () => {
    const { tenant, delivery, caught } = await sentReminder('ana+bounce-later@example.test');
    // Accepted by the server (on a slow machine the bounce may already have been applied when this is read).
    expect(delivery.acceptedAt).not.toBeNull();
    expect((await db().select().from(deliveryAttempts).where(eq(deliveryAttempts.deliveryId, delivery.id))).map((a) => a.outcome)).toEqual(['accepted']);
    expect(caught).toHaveLength(1);
    const verp = caught[0].envelopeFrom!;

    const bounced = await waitFor('the delivery to bounce', async () => ((await deliveryStatus(delivery.id)) === 'bounced' ? true : null));
    expect(bounced).toBe(true);
    const supp = await liveSuppressions(tenant.id);
    expect(supp).toMatchObject([{ address: 'ana+bounce-later@example.test', reason: 'hard_bounce' }]);

    // The DSN is in caught_messages: from MAILER-DAEMON, null envelope sender, to the bounce address.
    const [dsn] = await db().select().from(caughtMessages).where(eq(caughtMessages.subject, 'Undelivered Mail Returned to Sender'));
    expect(dsn.receivedAt.getTime() - caught[0].receivedAt.getTime()).toBeGreaterThanOrEqual(BOUNCE_LATER_MS);
    expect(dsn.envelopeFrom).toBe('');
    expect(dsn.envelopeTo).toEqual([verp]);
    expect(dsn.raw.startsWith('Return-Path: <>\r\n')).toBe(true);
    expect((dsn.headers as Record<string, string>).from).toContain('MAILER-DAEMON@mail-catcher.punctual.local');
    expect((dsn.headers as Record<string, string>)['content-type']).toContain('multipart/report');
    const parsed = await parseDsn(dsn.raw);
    expect(parsed.status.recipients).toMatchObject([
      { finalRecipient: 'ana+bounce-later@example.test', action: 'failed', status: '5.1.1', diagnosticCode: '550 5.1.1 <ana+bounce-later@example.test>: mailbox unavailable' },
    ]);
    expect(parsed.original?.messageId).toBe(messageIdFor(delivery.messageKey));
    expect(parsed.original?.returnPath).toBe(`<${verp}>`);
    // Staff see the bounce in the sending tenant's mailbox, next to the message it is about; another tenant does not.
    const list = await listCaughtMessages(db(), { limit: 10, offset: 0 }, { tenantId: tenant.id, viewerEmail: 'staff@example.test' });
    expect(list.items.map((i) => i.id).sort()).toEqual([caught[0].id, dsn.id].sort());
    const other = await createTenant(db(), { slug: 'other-org', name: 'Other', timeZone: 'UTC', senderEmail: 'hi@other.test' });
    expect((await listCaughtMessages(db(), { limit: 10, offset: 0 }, { tenantId: other.id, viewerEmail: 'staff@example.test' })).total).toBe(0);
  });

  it('never bounces a message whose envelope sender is empty (<>)', async () => {
    const conn = new SMTPConnection({ host: '127.0.0.1', port: h.catcher.port, ignoreTLS: true });
    await new Promise<void>((resolve, reject) => {
      conn.once('error', reject);
      conn.connect(() =>
        conn.login(h.catcher.auth, (e) =>
          e ? reject(e) : conn.send({ from: '', to: ['ana+bounce-later@example.test'] }, 'From: <>\r\nSubject: a bounce of ours\r\n\r\nhi\r\n', (err) => (err ? reject(err) : resolve())),
        ),
      );
    });
    conn.quit();
    await new Promise((r) => setTimeout(r, BOUNCE_LATER_MS * 3));
    const all = await h.caught();
    expect(all).toHaveLength(1);
    expect(all[0].raw.startsWith('Return-Path: <>\r\n')).toBe(true);
  });
});


/** A DSN as an MTA writes it: to `to`, one status group per recipient, optionally returning `originalHeaders`. */
function dsnText(to: string, recipients: { address: string; action?: string; status?: string }[], originalHeaders?: string, messageId = `<dsn-${Math.random().toString(36).slice(2)}@mx.example.test>`): string {
  const groups = recipients.map((r) => [`Final-Recipient: rfc822; ${r.address}`, `Action: ${r.action ?? 'failed'}`, `Status: ${r.status ?? '5.1.1'}`, `Diagnostic-Code: smtp; 550 ${r.status ?? '5.1.1'} <${r.address}> no such user`].join('\r\n'));
  return [
    'From: MAILER-DAEMON@mx.example.test',
    `To: ${to}`,
    'Subject: Undelivered Mail',
    `Message-ID: ${messageId}`,
    'Date: Mon, 02 Aug 2027 10:05:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="B42"',
    '',
    '--B42',
    'Content-Type: text/plain',
    '',
    'Delivery failed.',
    '--B42',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.test',
    'Arrival-Date: Mon, 02 Aug 2027 10:00:01 +0000',
    '',
    groups.join('\r\n\r\n'),
    ...(originalHeaders ? ['--B42', 'Content-Type: text/rfc822-headers', '', originalHeaders] : []),
    '--B42--',
    '',
  ].join('\r\n');
}
const writeTmp = (name: string, text: string) => {
  const file = path.join(tmp, name);
  writeFileSync(file, text);
  return file;
};
const reportRows = () => db().select().from(deliveryReports);

/** Sends one raw message to the catcher over SMTP with the given envelope. */
async function smtpSend(from: string, to: string[], raw: string) {
  const conn = new SMTPConnection({ host: '127.0.0.1', port: h.catcher.port, ignoreTLS: true });
  await new Promise<void>((resolve, reject) => {
    conn.once('error', reject);
    conn.connect(() => conn.login(h.catcher.auth, (e) => (e ? reject(e) : conn.send({ from, to }, raw, (err) => (err ? reject(err) : resolve())))));
  });
  conn.quit();
}

describe('review findings: which DSN may change which delivery', () => {
  it('an unmatched DSN read again once the delivery can be named is applied, not called a duplicate; a true repeat stays a no-op', async () => {
    const { tenant, delivery, caught } = await sentReminder('attendee-b@example.test');
    // No returned headers: only the bounce address names the delivery.
    const file = writeTmp('verp-only.eml', dsnText(caught[0].envelopeFrom!, [{ address: 'attendee-b@example.test' }]));
    const first = await ingestCli([file], { secret: null });
    expect(first.code).toBe(2);
    expect(first.stdout).toBe('no delivery of ours for attendee-b@example.test (5.1.1) — report stored unmatched\n');
    expect(await reportRows()).toMatchObject([{ deliveryId: null }]);
    // Read again unmatched: still unmatched (exit 2), not "already processed".
    expect((await ingestCli([file], { secret: null })).code).toBe(2);

    const second = await ingestCli([file]);
    expect(second.stdout).toBe(`delivery ${delivery.id} bounced (5.1.1) — address suppressed\n`);
    expect(second.code).toBe(0);
    expect(await deliveryStatus(delivery.id)).toBe('bounced');
    expect(await liveSuppressions(tenant.id)).toMatchObject([{ address: 'attendee-b@example.test', reason: 'hard_bounce' }]);
    const rows = await reportRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ deliveryId: delivery.id, tenantId: tenant.id, address: 'attendee-b@example.test' });
    expect(rows[0].effect).toBe('accepted → bounced; suppressed attendee-b@example.test for email (hard_bounce)');

    const third = await ingestCli([file]);
    expect(third.code).toBe(0);
    expect(third.stdout).toBe(`delivery ${delivery.id}: report for attendee-b@example.test (5.1.1) already processed — nothing changed\n`);
    expect(await reportRows()).toHaveLength(1);
    // Three real `npm run bounces:ingest` processes: ~10 s each on a busy 2-core machine.
  }, 150_000);

  it('a bounce address that is present but does not verify rejects the DSN, although it quotes the real Message-ID (exit 1, nothing stored)', async () => {
    const { tenant, delivery, caught } = await sentReminder('attendee-b@example.test');
    const forged = caught[0].envelopeFrom!.replace(/-[0-9a-f]{10}@/, '-0000000000@');
    const headers = `Message-ID: ${messageIdFor(delivery.messageKey)}\r\nX-Punctual-Message-Key: ${delivery.messageKey}\r\nSubject: hi\r\n`;
    const file = writeTmp('forged.eml', dsnText(forged, [{ address: 'attendee-b@example.test' }], headers));
    const r = await ingestCli([file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${file}: rejected: bounce address does not verify: ${forged} (forged, or signed with another key) — nothing stored\n`);
    expect(await reportRows()).toHaveLength(0);
    expect(await deliveryStatus(delivery.id)).toBe('accepted');
    expect(await liveSuppressions(tenant.id)).toHaveLength(0);
  });

  it('without any bounce address the returned Message-ID is used only for a Final-Recipient that is the delivery’s address (any case)', async () => {
    const { tenant, delivery } = await sentReminder('attendee-b@example.test');
    const headers = `Message-ID: ${messageIdFor(delivery.messageKey)}\r\nSubject: hi\r\n`;
    const other = await ingestDsn(db(), dsnText('postmaster@example.test', [{ address: 'mallory@example.test' }], headers), { key, now: new Date('2027-08-02T10:05:00Z') });
    expect(other.recipients).toMatchObject([{ finalRecipient: 'mallory@example.test', outcome: 'ignored', reportId: null }]);
    expect(await reportRows()).toHaveLength(0);
    expect(await deliveryStatus(delivery.id)).toBe('accepted');

    const ours = await ingestDsn(db(), dsnText('postmaster@example.test', [{ address: 'Attendee-B@Example.TEST' }], headers), { key, now: new Date('2027-08-02T10:05:00Z') });
    expect(ours.recipients).toMatchObject([{ outcome: 'applied', matchedBy: 'message_id', deliveryStatus: 'bounced' }]);
    expect(await liveSuppressions(tenant.id)).toHaveLength(1);
  });

  it('the catcher: a forged VERP sender with another delivery’s Message-ID bounces nothing; without a VERP the foreign recipient is ignored', async () => {
    const { tenant, delivery, caught } = await sentReminder('attendee-b@example.test');
    const forged = caught[0].envelopeFrom!.replace(/-[0-9a-f]{10}@/, '-0000000000@');
    const msg = `From: x@example.test\r\nTo: x+bounce-later@example.test\r\nMessage-ID: ${messageIdFor(delivery.messageKey)}\r\nX-Punctual-Message-Key: ${delivery.messageKey}\r\nSubject: hi\r\n\r\nhello\r\n`;
    await smtpSend(forged, ['x+bounce-later@example.test', 'y@example.test'], msg);
    await waitFor('the DSN to be ingested', async () => catcherDsns.length === 1);
    const rejected = await catcherDsns[0];
    expect(await deliveryStatus(delivery.id)).toBe('accepted');
    expect(await liveSuppressions(tenant.id)).toHaveLength(0);
    expect(rejected.rejected).toMatch(/^bounce address does not verify: /);
    expect(rejected.recipients).toEqual([]);
    // The DSN is kept in the mailbox, and names only the +bounce-later recipient the message was sent to.
    const [dsn] = await db().select().from(caughtMessages).where(eq(caughtMessages.subject, 'Undelivered Mail Returned to Sender'));
    expect(dsn.envelopeTo).toEqual([forged]);
    expect((await parseDsn(dsn.raw)).status.recipients.map((r) => r.finalRecipient)).toEqual(['x+bounce-later@example.test']);

    await smtpSend('mallory@example.test', ['x+bounce-later@example.test'], msg);
    await waitFor('the second DSN to be ingested', async () => catcherDsns.length === 2);
    const ignored = await catcherDsns[1];
    expect(await deliveryStatus(delivery.id)).toBe('accepted');
    expect(ignored.rejected).toBeNull();
    expect(ignored.recipients).toMatchObject([{ finalRecipient: 'x+bounce-later@example.test', outcome: 'ignored', deliveryId: delivery.id }]);

    expect(await reportRows()).toHaveLength(0);
    expect(await deliveryStatus(delivery.id)).toBe('accepted');
    expect(await liveSuppressions(tenant.id)).toHaveLength(0);
  });

  it('a multi-recipient DSN: only the delivery’s own recipient counts (hana delivered 2.0.0; stranger failed 5.1.1 is ignored)', async () => {
    const { tenant, delivery, caught } = await sentReminder('hana.host@example.test');
    const raw = dsnText(caught[0].envelopeFrom!, [
      { address: 'hana.host@example.test', action: 'delivered', status: '2.0.0' },
      { address: 'stranger@other.test', action: 'failed', status: '5.1.1' },
    ]);
    const r = await ingestDsn(db(), raw, { key, now: new Date('2027-08-02T10:05:00Z') });
    expect(r.recipients).toMatchObject([
      { finalRecipient: 'hana.host@example.test', outcome: 'applied', deliveryStatus: 'delivered' },
      { finalRecipient: 'stranger@other.test', outcome: 'ignored', reportId: null, suppressed: false },
    ]);
    expect(await deliveryStatus(delivery.id)).toBe('delivered');
    expect(await liveSuppressions(tenant.id)).toHaveLength(0);
    expect((await reportRows()).map((x) => [x.kind, x.address])).toEqual([['delivered', 'hana.host@example.test']]);

    // Only a foreign recipient (a valid bounce address): nothing applies → exit 2, the line says why.
    const file = writeTmp('foreign.eml', dsnText(caught[0].envelopeFrom!, [{ address: 'someone-else@other.test' }]));
    const cli = await ingestCli([file]);
    expect(cli.code).toBe(2);
    expect(cli.stdout).toBe(`someone-else@other.test (5.1.1): ignored — delivery ${delivery.id} was sent to hana.host@example.test, not to this recipient\n`);
    expect(await reportRows()).toHaveLength(1);
  });
});

describe('review findings: a report about a delivery whose send state is not `accepted`', () => {
  it('a DSN that arrives while the send is still in progress, which then ends unknown (connection dropped), is applied when the outcome is recorded', async () => {
    let raw: string | null = null;
    beforeReply = async (stored) => {
      // The DSN comes back before our SMTP client has its answer: the delivery is `sending`.
      const [m] = await db().select().from(caughtMessages).where(eq(caughtMessages.id, stored.id));
      raw = dsnText(m.envelopeFrom!, [{ address: 'ana+drop-once@example.test' }]);
      const r = await ingestDsn(db(), raw, { key, now: new Date('2027-08-02T10:00:01Z') });
      expect(r.recipients).toMatchObject([{ outcome: 'applied', deliveryStatus: 'sending' }]);
    };
    const { tenant, delivery } = await sentReminder('ana+drop-once@example.test');
    expect(raw).not.toBeNull();
    expect(await deliveryStatus(delivery.id)).toBe('bounced');
    expect(await liveSuppressions(tenant.id)).toMatchObject([{ address: 'ana+drop-once@example.test', reason: 'hard_bounce' }]);
    const [rep] = await reportRows();
    expect(rep.effect).toBe('unknown → bounced; suppressed ana+drop-once@example.test for email (hard_bounce)');
  });

  it('`retrying` after an attempt that may have reached the provider: the report applies at once (the retry is then suppressed)', async () => {
    const { tenant, delivery, caught } = await sentReminder('attendee-b@example.test');
    // As after "send again" of an unknown outcome: attempt 1 ambiguous, the delivery waiting for attempt 2.
    await db().update(deliveryAttempts).set({ outcome: 'ambiguous' }).where(eq(deliveryAttempts.deliveryId, delivery.id));
    await db().update(deliveries).set({ status: 'retrying', nextAttemptAt: new Date('2027-08-02T11:00:00Z') }).where(eq(deliveries.id, delivery.id));
    const r = await ingestDsn(db(), dsnText(caught[0].envelopeFrom!, [{ address: 'attendee-b@example.test' }]), { key, now: new Date('2027-08-02T10:05:00Z') });
    expect(r.recipients).toMatchObject([{ outcome: 'applied', deliveryStatus: 'retrying', suppressed: true }]);
    const [rep] = await reportRows();
    expect(rep.effect).toBe('stays retrying (attempt 1 may have reached the provider; a report does not change this state); suppressed attendee-b@example.test for email (hard_bounce)');
    expect(await liveSuppressions(tenant.id)).toHaveLength(1);
  });

  it('a delivery none of whose attempts reached the provider (a dead letter after a refusal): the report is stored and not applied', async () => {
    const { tenant, delivery, caught } = await sentReminder('attendee-b@example.test');
    await db().update(deliveryAttempts).set({ outcome: 'rejected' }).where(eq(deliveryAttempts.deliveryId, delivery.id));
    await db().update(deliveries).set({ status: 'dead', acceptedAt: null }).where(eq(deliveries.id, delivery.id));
    const r = await ingestDsn(db(), dsnText(caught[0].envelopeFrom!, [{ address: 'attendee-b@example.test' }]), { key, now: new Date('2027-08-02T10:05:00Z') });
    expect(r.recipients).toMatchObject([{ outcome: 'applied', deliveryStatus: 'dead', suppressed: false }]);
    const [rep] = await reportRows();
    expect(rep.effect).toBe('not applied: the delivery is dead and none of its attempts reached the provider (nothing of ours went out to report on) — kept for the record');
    expect(await deliveryStatus(delivery.id)).toBe('dead');
    expect(await liveSuppressions(tenant.id)).toHaveLength(0);
  });
});
