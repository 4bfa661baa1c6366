/**
 * Reading a DSN (issue #10 §4, RFC 3464 and RFC 6533): `parseDsn` on the Postfix fixture, on a
 * message/global-delivery-status report with a returned message, and on files that are not DSNs. No database: the
 * fixture and the key come from ./bounce-harness.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseVerpAddress } from '@/domain/sending/verp';
import { DsnError, parseDsn } from '@/server/reports/bounces';
import { fixture, FIXTURE, key } from './bounce-harness';

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
