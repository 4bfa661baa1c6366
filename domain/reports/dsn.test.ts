import { describe, expect, it } from 'vitest';
import { classifyDsnRecipient, composeFailureDsn, parseDeliveryStatus, parseDsnDate, parseFieldGroups, parseStatus, splitTyped, stripComments } from './dsn';

/** Postfix's delivery-status part for an unknown mailbox (bounce(8) template, as Postfix 3.x writes it). */
const postfix = [
  'Reporting-MTA: dns; mx1.example.test',
  'X-Postfix-Queue-ID: 4Xy2Lq1d3Fz9sQ',
  'X-Postfix-Sender: rfc822; bounces+0123456789abcdef0123456789abcdef-aaaaaaaaaa@demo.punctual.local',
  'Arrival-Date: Mon,  2 Aug 2027 10:00:01 +0000 (UTC)',
  '',
  'Final-Recipient: rfc822; attendee-b@example.test',
  'Original-Recipient: rfc822;attendee-b@example.test',
  'Action: failed',
  'Status: 5.1.1',
  'Remote-MTA: dns; mail.example.test',
  'Diagnostic-Code: smtp; 550 5.1.1 <attendee-b@example.test>: Recipient address',
  '    rejected: User unknown in virtual mailbox table',
  '',
].join('\r\n');

describe('parseDeliveryStatus', () => {
  it('reads a Postfix report: per-message fields, then one recipient with a folded Diagnostic-Code', () => {
    const r = parseDeliveryStatus(postfix);
    expect(r.problems).toEqual([]);
    expect(r.reportingMta).toBe('mx1.example.test');
    expect(r.arrivalDate).toBe('Mon, 2 Aug 2027 10:00:01 +0000 (UTC)');
    expect(r.recipients).toEqual([
      {
        finalRecipient: 'attendee-b@example.test',
        finalRecipientType: 'rfc822',
        originalRecipient: 'attendee-b@example.test',
        action: 'failed',
        status: '5.1.1',
        diagnosticCode: '550 5.1.1 <attendee-b@example.test>: Recipient address rejected: User unknown in virtual mailbox table',
        diagnosticType: 'smtp',
        remoteMta: 'mail.example.test',
        lastAttemptDate: null,
        willRetryUntil: null,
      },
    ]);
  });

  it('reads several recipients, field names in any case, comments in structured values, LF line ends', () => {
    const r = parseDeliveryStatus(
      [
        'reporting-mta: DNS; mta.example.test (Exim 4.97)',
        '',
        'FINAL-RECIPIENT: RFC822; <a@example.test>',
        'ACTION: Failed',
        'STATUS: 5.2.1 (mailbox disabled)',
        'Last-Attempt-Date: Tue, 3 Aug 2027 08:00:00 GMT',
        '',
        'Final-Recipient: rfc822; b@example.test',
        'Action: delayed (still trying)',
        'Status: 4.4.1',
        'Will-Retry-Until: Fri, 6 Aug 2027 08:00:00 +0000',
      ].join('\n'),
    );
    expect(r.problems).toEqual([]);
    expect(r.reportingMta).toBe('mta.example.test');
    expect(r.recipients.map((x) => [x.finalRecipient, x.action, x.status, x.lastAttemptDate, x.willRetryUntil])).toEqual([
      ['a@example.test', 'failed', '5.2.1', 'Tue, 3 Aug 2027 08:00:00 GMT', null],
      ['b@example.test', 'delayed', '4.4.1', null, 'Fri, 6 Aug 2027 08:00:00 +0000'],
    ]);
  });

  it('reads RFC 6533 utf-8 addresses with \\x{…} escapes', () => {
    const r = parseDeliveryStatus('Reporting-MTA: dns; mx.example.test\n\nFinal-Recipient: utf-8; jos\\x{E9}@example.test\nAction: failed\nStatus: 5.1.1\n');
    expect(r.recipients[0]).toMatchObject({ finalRecipient: 'josé@example.test', finalRecipientType: 'utf-8' });
  });

  it('reads a body without per-message fields (the first group is already a recipient)', () => {
    const r = parseDeliveryStatus('Final-Recipient: rfc822; a@example.test\nAction: failed\nStatus: 5.1.1\n');
    expect(r.recipients.map((x) => x.finalRecipient)).toEqual(['a@example.test']);
    expect(r.reportingMta).toBeNull();
  });

  it.each([
    ['an empty body', '', [/empty/]],
    ['per-message fields only', 'Reporting-MTA: dns; mx.example.test\n', [/no per-recipient fields/]],
    ['a recipient without Final-Recipient', 'Reporting-MTA: dns; x\n\nAction: failed\nStatus: 5.1.1\n', [/recipient 1: no Final-Recipient/]],
    ['a Final-Recipient without an address', 'Reporting-MTA: dns; x\n\nFinal-Recipient: rfc822;\nAction: failed\nStatus: 5.1.1\n', [/Final-Recipient has no address/]],
    ['a junk line and a leading continuation', '  folded\nReporting-MTA: dns; x\nthis is not a field\n\nFinal-Recipient: rfc822; a@x.test\nAction: failed\nStatus: 5.1.1\n', [/line 1: continuation/, /line 3: not a "Name: value" field/]],
  ])('names what is wrong in %s and keeps going', (_n, text, expected) => {
    const r = parseDeliveryStatus(text);
    expect(r.problems).toHaveLength(expected.length);
    expected.forEach((re, i) => expect(r.problems[i]).toMatch(re));
  });

  it('keeps a recipient with an unknown action or a malformed status, naming the problem', () => {
    const r = parseDeliveryStatus('Reporting-MTA: dns; x\n\nFinal-Recipient: rfc822; a@x.test\nAction: vanished\nStatus: 5.1\n\nFinal-Recipient: rfc822; b@x.test\n');
    expect(r.recipients.map((x) => [x.finalRecipient, x.action, x.status])).toEqual([
      ['a@x.test', null, null],
      ['b@x.test', null, null],
    ]);
    expect(r.problems).toEqual([
      'recipient 1 (a@x.test): Action "vanished" is not one of failed, delayed, delivered, relayed, expanded',
      'recipient 1 (a@x.test): Status "5.1" is not an RFC 3463 code such as 5.1.1',
      'recipient 2 (b@x.test): no Action field',
      'recipient 2 (b@x.test): no Status field',
    ]);
  });
});

describe('field helpers', () => {
  it('parseFieldGroups splits at blank and white-space-only lines and unfolds', () => {
    const { groups, problems } = parseFieldGroups('A: 1\n  more\n \nB : 2\r\n\r\n\r\nC:3');
    expect(problems).toEqual([]);
    expect(groups).toEqual([[{ name: 'A', key: 'a', value: '1 more' }], [{ name: 'B', key: 'b', value: '2' }], [{ name: 'C', key: 'c', value: '3' }]]);
  });

  it.each([
    ['5.1.1 (bad mailbox)', '5.1.1'],
    ['a (b (nested)) c', 'a c'],
    ['"keep (this)" x', '"keep (this)" x'],
    ['x (escaped \\) paren) y', 'x y'],
    ['unclosed (comment', 'unclosed'],
  ])('stripComments(%j) = %j', (v, want) => expect(stripComments(v)).toBe(want));

  it('splitTyped', () => {
    expect(splitTyped('SMTP; 550 5.1.1 no; such user')).toEqual({ type: 'smtp', value: '550 5.1.1 no; such user' });
    expect(splitTyped('plain text')).toEqual({ type: null, value: 'plain text' });
  });

  it.each([
    ['5.1.1', '5.1.1'],
    ['4.4.7 (delivery time expired)', '4.4.7'],
    ['5.001.010', '5.1.10'],
    ['2.0.0', '2.0.0'],
    ['3.1.1', null],
    ['5.1', null],
    ['5.1.1.1', null],
    ['5.1000.1', null],
    ['', null],
    [null, null],
  ])('parseStatus(%j) = %j', (v, want) => expect(parseStatus(v)).toBe(want));

  it.each([
    ['Mon, 2 Aug 2027 10:00:01 +0000 (UTC)', '2027-08-02T10:00:01.000Z'],
    ['Mon,  2 Aug 2027 12:00:01 +0200', '2027-08-02T10:00:01.000Z'],
    ['2 Aug 2027 10:00:01 GMT', '2027-08-02T10:00:01.000Z'],
    ['Mon 2 Aug 2027 06:00:01 EDT', '2027-08-02T10:00:01.000Z'],
    ['Mon, 2 Aug 2027 10:00:01 UT', '2027-08-02T10:00:01.000Z'],
    ['yesterday', null],
    ['', null],
    [null, null],
  ])('parseDsnDate(%j) = %j', (v, want) => expect(parseDsnDate(v)?.toISOString() ?? null).toBe(want));
});

describe('classifyDsnRecipient', () => {
  it.each([
    ['failed', '5.1.1', 'hard_bounce'],
    ['failed', '5.2.2', 'hard_bounce'],
    ['failed', '4.4.7', 'soft_bounce'],
    ['failed', null, 'hard_bounce'],
    ['delayed', '4.4.1', 'deferred'],
    ['delivered', '2.0.0', 'delivered'],
    ['relayed', '2.0.0', 'delivered'],
    ['expanded', '2.0.0', 'delivered'],
    [null, '5.1.1', null],
  ] as const)('Action %s, Status %s → %s', (action, status, kind) => {
    expect(classifyDsnRecipient({ action, status })).toBe(kind);
  });
});

describe('composeFailureDsn', () => {
  it('writes a DSN whose delivery-status part reads back', () => {
    const text = composeFailureDsn({
      reportingMta: 'catcher.test',
      to: 'bounces+x@example.test',
      recipients: [{ address: 'ana+bounce-later@example.test', status: '5.1.1', diagnostic: '550 5.1.1 <ana+bounce-later@example.test>: mailbox unavailable' }],
      arrivalDate: new Date('2027-08-02T10:00:00Z'),
      date: new Date('2027-08-02T10:00:03Z'),
      messageId: '<dsn-1@catcher.test>',
      boundary: 'b-1',
      originalHeaders: 'From: a@b.test\nSubject: hi\n\n',
    });
    expect(text).toContain('Content-Type: multipart/report; report-type=delivery-status;\r\n\tboundary="b-1"');
    expect(text).toContain('Date: Mon, 2 Aug 2027 10:00:03 +0000');
    expect(text).toContain('From: Mail Delivery System <MAILER-DAEMON@catcher.test>');
    expect(text).toContain('Content-Type: text/rfc822-headers\r\nContent-Transfer-Encoding: 8bit\r\n\r\nFrom: a@b.test\r\nSubject: hi\r\n\r\n--b-1--');
    expect(text).not.toMatch(/[^\r]\n/);
    const part = text.split('Content-Type: message/delivery-status\r\n\r\n')[1].split('\r\n--b-1')[0];
    const r = parseDeliveryStatus(part);
    expect(r.problems).toEqual([]);
    expect(r.reportingMta).toBe('catcher.test');
    expect(parseDsnDate(r.arrivalDate)?.toISOString()).toBe('2027-08-02T10:00:00.000Z');
    expect(r.recipients).toMatchObject([{ finalRecipient: 'ana+bounce-later@example.test', action: 'failed', status: '5.1.1', diagnosticType: 'smtp', diagnosticCode: '550 5.1.1 <ana+bounce-later@example.test>: mailbox unavailable' }]);
  });
});
