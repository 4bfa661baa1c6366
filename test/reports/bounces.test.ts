/**
 * Asynchronous SMTP bounces (issue #10 §4) against real PostgreSQL and real SMTP (the built-in catcher): RFC 3464
 * DSNs read from files by `bounces:ingest` (spawned as the real command) and by the catcher, which DSN may change
 * which delivery (bounce address, returned Message-ID, recipient), and DSNs about a delivery whose send is not
 * `accepted`. Effects are asserted through the database: delivery `bounced`, address suppressed. Harness and
 * helpers: ./bounce-harness.ts; the VERP sender and the catcher's `+bounce-later` mailbox are in
 * verp-envelope.test.ts, `parseDsn` in dsn-parse.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { caughtMessages, deliveries, deliveryAttempts, deliveryReports } from '@/db/schema';
import { messageIdFor } from '@/domain/keys';
import { ingestDsn, parseDsn } from '@/server/reports/bounces';
import {
  catcherDsns,
  db,
  deliveryStatus,
  dsnFor,
  dsnText,
  fixture,
  ingestCli,
  key,
  liveSuppressions,
  reportRows,
  sentReminder,
  setBeforeReply,
  smtpSend,
  tmp,
  useBounceHarness,
  waitFor,
  writeTmp,
} from './bounce-harness';

useBounceHarness();

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
    setBeforeReply(async (stored) => {
      // The DSN comes back before our SMTP client has its answer: the delivery is `sending`.
      const [m] = await db().select().from(caughtMessages).where(eq(caughtMessages.id, stored.id));
      raw = dsnText(m.envelopeFrom!, [{ address: 'ana+drop-once@example.test' }]);
      const r = await ingestDsn(db(), raw, { key, now: new Date('2027-08-02T10:00:01Z') });
      expect(r.recipients).toMatchObject([{ outcome: 'applied', deliveryStatus: 'sending' }]);
    });
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
