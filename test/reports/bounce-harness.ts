/**
 * Shared set-up of the SMTP bounce suites (verp-envelope, dsn-parse and bounces .test.ts in this folder; issue #10
 * §4): real PostgreSQL and real SMTP (the built-in catcher, whose `+bounce-later` mailbox bounces a few moments
 * after accepting and whose DSNs are ingested as scripts/start.ts wires it), the Postfix DSN fixture, the
 * `bounces:ingest` command spawned for real, and DSNs written as an MTA writes them.
 *
 * A test file that needs the pipeline calls {@link useBounceHarness} once: vitest runs files in parallel, each with
 * its own module instance, so every file gets its own catcher and its own cloned database. `h` and `catcherDsns`
 * are live bindings, set by the hooks it registers.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { deliveries, deliveryReports, suppressions, tenants } from '@/db/schema';
import { messageIdFor } from '@/domain/keys';
import { bounceAddressKey } from '@/server/sending/bounce-address';
import { ingestDsn, type DsnIngestResult } from '@/server/reports/bounces';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';
import { createHarness, type Harness } from '@/test/support/harness';

/** BETTER_AUTH_SECRET of these tests: the bounce-address key is made from it. */
const SECRET = 'test-bounces-secret-0123456789abcdef';
/** The key that signs and checks VERP bounce addresses. */
export const key = bounceAddressKey({ BETTER_AUTH_SECRET: SECRET });
/** How long after accepting the catcher's `+bounce-later` mailbox bounces. */
export const BOUNCE_LATER_MS = 200;
/** A DSN as Postfix writes it. */
export const fixture = path.join(import.meta.dirname, '..', 'fixtures', 'dsn', 'postfix-5.1.1.eml');
/** The fixture's own identifiers (a delivery that exists in no database), replaced to point it at a real delivery. */
export const FIXTURE = {
  deliveryId: '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9',
  verp: 'bounces+0f1e2d3c4b5a49788695a4b3c2d1e0f9-909e7cea32@demo.punctual.local',
  messageKey: 'rem:5d3c1b2a-0e9f-4a8b-9c7d-6e5f4a3b2c1d:7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d:9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b:v1:email',
  messageId: '<94371b2935091b492eeb672505a3463c@punctual.local>',
};

/** The pipeline of this test file (database, catcher, queue, fake clock): set by {@link useBounceHarness}'s beforeAll. */
export let h: Harness;
/** What ingesting each DSN the catcher made gave (in the order they were made). */
export let catcherDsns: Promise<DsnIngestResult>[] = [];
/** Runs after the catcher stored a message and before it answers (set by a test with {@link setBeforeReply}; reset before each). */
let beforeReply: ((stored: { id: string; messageId: string | null }) => Promise<void>) | null = null;
/** Sets what runs after the catcher stored a message and before it answers, for the current test. */
export function setBeforeReply(f: (stored: { id: string; messageId: string | null }) => Promise<void>): void {
  beforeReply = f;
}

/**
 * Registers this file's hooks: before all, a harness whose catcher bounces `+bounce-later` mail and ingests the
 * DSNs it makes (as scripts/start.ts wires it); before each test, an empty database and no DSNs or beforeReply;
 * after all, all of it closed. Call once, at the top level of a test file.
 */
export function useBounceHarness(): void {
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
}
/** This file's database. */
export const db = () => h.tdb.db;

/**
 * A tenant with a "1 day before" reminder and one booking for `email` on an event at 2027-08-03T10:00Z, whose
 * reminder goes out over SMTP at 2027-08-02T10:00Z. Returns the delivery and the caught message.
 */
export async function sentReminder(email: string, opts: { bounceDomain?: string } = {}) {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-P1D', window: 3600 }], 'Europe/Amsterdam');
  if (opts.bounceDomain) await db().update(tenants).set({ bounceDomain: opts.bounceDomain }).where(eq(tenants.id, tenant.id));
  await eventWithBooking(db(), tenant.id, { startsAt: '2027-08-03T10:00:00Z', timeZone: 'Europe/Amsterdam', title: 'Tile painting' }, new Date('2027-07-01T00:00:00Z'), { email, name: 'Attendee B' });
  await h.tick('2027-08-02T10:00:00Z');
  const [delivery] = await db().select().from(deliveries).where(eq(deliveries.tenantId, tenant.id));
  const caught = (await h.caught()).filter((m) => m.envelopeTo.includes(email));
  return { tenant, delivery, caught };
}

/** The tenant's suppressions that are not removed. */
export const liveSuppressions = (tenantId: string) =>
  db().select().from(suppressions).where(and(eq(suppressions.tenantId, tenantId), isNull(suppressions.removedAt)));
/** The delivery's status as stored now. */
export const deliveryStatus = async (id: string) => (await db().select({ s: deliveries.status }).from(deliveries).where(eq(deliveries.id, id)))[0].s;

/** Runs `node --import tsx scripts/bounces-ingest.ts ARGS` against the test database. */
export function ingestCli(args: string[], opts: { stdin?: string; secret?: string | null } = {}) {
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
/** A folder for DSN files (and the CLI's data folder). */
export const tmp = mkdtempSync(path.join(tmpdir(), 'punctual-dsn-'));

/** The Postfix fixture pointed at a real delivery: its bounce address, Message-ID and message key replaced. */
export function dsnFor(d: { id: string; messageKey: string }, verp: string, name: string): string {
  const text = readFileSync(fixture, 'utf8').replaceAll(FIXTURE.verp, verp).replaceAll(FIXTURE.messageKey, d.messageKey).replaceAll(FIXTURE.messageId, messageIdFor(d.messageKey));
  const file = path.join(tmp, name);
  writeFileSync(file, text);
  return file;
}

/** Polls `fn` every 25 ms until it returns something truthy (returned), or throws naming `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A DSN as an MTA writes it: to `to`, one status group per recipient, optionally returning `originalHeaders`. */
export function dsnText(to: string, recipients: { address: string; action?: string; status?: string }[], originalHeaders?: string, messageId = `<dsn-${Math.random().toString(36).slice(2)}@mx.example.test>`): string {
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
/** Writes `text` to the file `name` in {@link tmp}; returns its path. */
export const writeTmp = (name: string, text: string) => {
  const file = path.join(tmp, name);
  writeFileSync(file, text);
  return file;
};
/** Every stored delivery report. */
export const reportRows = () => db().select().from(deliveryReports);

/** Sends one raw message to the catcher over SMTP with the given envelope. */
export async function smtpSend(from: string, to: string[], raw: string) {
  const conn = new SMTPConnection({ host: '127.0.0.1', port: h.catcher.port, ignoreTLS: true });
  await new Promise<void>((resolve, reject) => {
    conn.once('error', reject);
    conn.connect(() => conn.login(h.catcher.auth, (e) => (e ? reject(e) : conn.send({ from, to }, raw, (err) => (err ? reject(err) : resolve())))));
  });
  conn.quit();
}
