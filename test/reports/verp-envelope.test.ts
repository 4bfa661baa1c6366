/**
 * The VERP envelope sender of SMTP mail (issue #10 §4) against real PostgreSQL and real SMTP (the built-in catcher):
 * a real reminder's MAIL FROM / Return-Path names its delivery, signed; a forged one is refused; and the catcher's
 * `+bounce-later` mailbox, which bounces a few moments after accepting — its DSN stored and applied (delivery
 * `bounced`, address suppressed). Harness and helpers: ./bounce-harness.ts.
 */
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { describe, expect, it } from 'vitest';
import type { EmailChannel, OutgoingEmail } from '@/channels/types';
import { listCaughtMessages } from '@/dev/queries/mailbox';
import { caughtMessages, deliveryAttempts, deliveryReports } from '@/db/schema';
import { messageIdFor } from '@/domain/keys';
import { parseVerpAddress, verpAddress } from '@/domain/sending/verp';
import { bounceAddressKey } from '@/server/sending/bounce-address';
import { ingestDsn, parseDsn } from '@/server/reports/bounces';
import { createTenant } from '@/server/organisations/tenants';
import { eventWithBooking, tenantWithRules } from '@/test/support/fixtures';
import { BOUNCE_LATER_MS, db, deliveryStatus, fixture, FIXTURE, h, key, liveSuppressions, sentReminder, useBounceHarness, waitFor } from './bounce-harness';

useBounceHarness();

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
    const send = (from: string, subject: string) =>
      new Promise<void>((resolve, reject) => {
        const conn = new SMTPConnection({ host: '127.0.0.1', port: h.catcher.port, ignoreTLS: true });
        conn.once('error', reject);
        conn.connect(() =>
          conn.login(h.catcher.auth, (e) =>
            e
              ? reject(e)
              : conn.send({ from, to: ['ana+bounce-later@example.test'] }, `From: <${from}>\r\nSubject: ${subject}\r\n\r\nhi\r\n`, (err) => {
                  conn.quit();
                  return err ? reject(err) : resolve();
                }),
          ),
        );
      });
    await send('', 'a bounce of ours');
    // A barrier instead of a pause: a second message, with an envelope sender, to the same bouncing address. The
    // catcher bounces each message BOUNCE_LATER_MS after it took it, in the order it took them, so once this one's
    // bounce is in, the first message's would have been too.
    await send('sentinel@example.test', 'the sentinel');
    await waitFor('the sentinel bounce', async () => (await h.caught()).find((m) => m.subject === 'Undelivered Mail Returned to Sender'));
    const all = await h.caught();
    expect(all.map((m) => m.subject).sort()).toEqual(['Undelivered Mail Returned to Sender', 'a bounce of ours', 'the sentinel']);
    expect(all.find((m) => m.subject === 'a bounce of ours')!.raw.startsWith('Return-Path: <>\r\n')).toBe(true);
    expect(all.find((m) => m.subject === 'Undelivered Mail Returned to Sender')!.envelopeTo).toEqual(['sentinel@example.test']);
  });
});
