import { describe, expect, it } from 'vitest';
import { classifySmtpFailure, enhancedStatusOf, enhancedStatusRules, replyCodeRules, smtpReplyRule, type SmtpFailure } from './smtp-outcome';

const rcpt = (responseCode: number, response?: string): SmtpFailure => ({ code: 'EENVELOPE', responseCode, command: 'RCPT TO', dataStarted: false, response });
const endOfData = (responseCode: number, response?: string): SmtpFailure => ({ code: 'EMESSAGE', responseCode, command: 'DATA', dataStarted: true, response });

/** [name, failure, expected class (rejected:kind), table row that decides it (null: no reply code)] */
const cases: [string, SmtpFailure, string, string | null][] = [
  // No reply at all: only the DATA phase decides.
  ['connection refused', { code: 'ESOCKET', command: 'CONN', dataStarted: false }, 'transient', null],
  ['DNS failure', { code: 'EDNS', command: 'CONN', dataStarted: false }, 'transient', null],
  ['greeting timeout', { code: 'ETIMEDOUT', command: 'CONN', dataStarted: false }, 'transient', null],
  ['timeout after DATA began', { code: 'ETIMEDOUT', command: 'CONN', dataStarted: true }, 'ambiguous', null],
  ['reset after DATA began', { code: 'ECONNECTION', command: 'CONN', dataStarted: true }, 'ambiguous', null],
  ['envelope error without a reply', { code: 'EENVELOPE', command: 'API', dataStarted: false }, 'rejected:validation', null],
  ['auth error without a reply', { code: 'EAUTH', command: 'API', dataStarted: false }, 'rejected:permission', null],

  // RFC 3463 enhanced status codes (one row of enhancedStatusRules each).
  ['552 5.2.2 mailbox full at RCPT: soft, never suppress', rcpt(552, '552 5.2.2 Mailbox full'), 'transient', '5.2.2'],
  ['552 5.2.2 mailbox full after DATA: soft', endOfData(552, '552 5.2.2 Mailbox full'), 'transient', '5.2.2'],
  ['550 5.1.1 no such user', rcpt(550, '550 5.1.1 User unknown'), 'rejected:invalid_recipient', '5.1.1'],
  ['550 5.1.2 bad destination system', rcpt(550, '550 5.1.2 Host unknown'), 'rejected:invalid_recipient', '5.1.2'],
  ['553 5.1.3 bad mailbox syntax', rcpt(553, '553 5.1.3 Bad recipient address syntax'), 'rejected:invalid_recipient', '5.1.3'],
  ['550 5.1.6 mailbox moved', rcpt(550, '550 5.1.6 Mailbox moved, no forwarding address'), 'rejected:invalid_recipient', '5.1.6'],
  ['556 5.1.10 null MX', rcpt(556, '556 5.1.10 Recipient address has null MX'), 'rejected:invalid_recipient', '5.1.10'],
  ['553 5.1.7 bad sender syntax at MAIL', { code: 'EENVELOPE', responseCode: 553, command: 'MAIL FROM', dataStarted: false, response: '553 5.1.7 Bad sender address syntax' }, 'rejected:permission', '5.1.7'],
  ['550 5.1.8 bad sender domain at MAIL', { code: 'EENVELOPE', responseCode: 550, command: 'MAIL FROM', dataStarted: false, response: '550 5.1.8 Sender domain does not exist' }, 'rejected:permission', '5.1.8'],
  ['550 5.2.1 mailbox disabled', rcpt(550, '550 5.2.1 Mailbox disabled, not accepting messages'), 'rejected:invalid_recipient', '5.2.1'],
  ['552 5.2.3 message too long', endOfData(552, '552 5.2.3 Message length exceeds administrative limit'), 'rejected:validation', '5.2.3'],
  ['552 5.3.1 mail system full', rcpt(552, '552 5.3.1 Mail system full'), 'transient', '5.3.1'],
  ['552 5.3.4 message too big', endOfData(552, '552 5.3.4 Message size exceeds fixed maximum message size'), 'rejected:validation', '5.3.4'],
  ['554 5.3.2 system not accepting', rcpt(554, '554 5.3.2 System not accepting network messages'), 'rejected:other', '5.3.*'],
  ['554 5.4.5 congestion', rcpt(554, '554 5.4.5 Mail system congestion'), 'transient', '5.4.5'],
  ['554 5.4.4 unable to route', rcpt(554, '554 5.4.4 Unable to route'), 'rejected:other', '5.4.*'],
  ['554 5.4.6 routing loop after DATA', endOfData(554, '554 5.4.6 Routing loop detected'), 'rejected:other', '5.4.*'],
  ['501 5.5.2 syntax error', rcpt(501, '501 5.5.2 Syntax error in parameters'), 'rejected:other', '5.5.*'],
  ['554 5.6.0 content refused', endOfData(554, '554 5.6.0 Message content rejected'), 'rejected:validation', '5.6.*'],
  ['550 5.7.1 relaying denied at RCPT', rcpt(550, '550 5.7.1 Relaying denied'), 'rejected:permission', '5.7.*'],
  ['554 5.7.1 policy after DATA', endOfData(554, '554 5.7.1 Message refused by policy'), 'rejected:permission', '5.7.*'],
  ['553 5.7.1 sender not authorised at MAIL', { code: 'EENVELOPE', responseCode: 553, command: 'MAIL FROM', dataStarted: false, response: '553 5.7.1 Sender not authorized' }, 'rejected:permission', '5.7.*'],
  ['535 5.7.8 bad credentials', { code: 'EAUTH', responseCode: 535, command: 'AUTH PLAIN', dataStarted: false, response: '535 5.7.8 Authentication credentials invalid' }, 'rejected:permission', '5.7.*'],
  ['451 4.7.1 greylisted', rcpt(451, '451 4.7.1 Try again later'), 'transient', '4.*.*'],
  ['452 4.2.2 mailbox full (temporary)', rcpt(452, '452 4.2.2 Mailbox full'), 'transient', '4.*.*'],
  ['421 4.3.2 service shutting down at greeting', { code: 'EPROTOCOL', responseCode: 421, command: 'CONN', dataStarted: false, response: '421 4.3.2 Service shutting down' }, 'transient', '4.*.*'],
  ['454 4.7.0 temporary auth failure', { code: 'EAUTH', responseCode: 454, command: 'AUTH PLAIN', dataStarted: false, response: '454 4.7.0 Temporary authentication failure' }, 'transient', '4.*.*'],
  ['451 4.3.0 after DATA', endOfData(451, '451 4.3.0 Local error'), 'transient', '4.*.*'],

  // Basic reply codes (no enhanced code, one the table does not name, or one that disagrees with the reply code).
  ['421 service not available', { code: 'EENVELOPE', responseCode: 421, command: 'MAIL FROM', dataStarted: false }, 'transient', '421/450/451/452'],
  ['450 mailbox busy', rcpt(450), 'transient', '421/450/451/452'],
  ['451 local error', rcpt(451), 'transient', '421/450/451/452'],
  ['452 insufficient storage', rcpt(452), 'transient', '421/450/451/452'],
  ['451 to end of data', endOfData(451), 'transient', '421/450/451/452'],
  ['455 parameters not accommodated', { code: 'EENVELOPE', responseCode: 455, command: 'MAIL FROM', dataStarted: false }, 'transient', '4xx'],
  ['552 without an enhanced code at RCPT (storage exceeded)', rcpt(552, '552 Requested mail action aborted: exceeded storage allocation'), 'transient', '552'],
  ['535 auth failed', { code: 'EAUTH', responseCode: 535, command: 'AUTH PLAIN', dataStarted: false }, 'rejected:permission', 'AUTH 5xx'],
  ['530 authentication required at MAIL', { code: 'EENVELOPE', responseCode: 530, command: 'MAIL FROM', dataStarted: false, response: '530 Authentication required' }, 'rejected:permission', 'AUTH 5xx'],
  ['550 unknown recipient', rcpt(550), 'rejected:invalid_recipient', 'RCPT 5xx'],
  ['551 user not local', rcpt(551, '551 User not local; please try <x@example.test>'), 'rejected:invalid_recipient', 'RCPT 5xx'],
  ['550 5.1.0 other address status falls back to the command', rcpt(550, '550 5.1.0 Address rejected'), 'rejected:invalid_recipient', 'RCPT 5xx'],
  ['550 with a disagreeing class (4.2.2) falls back to the reply code', rcpt(550, '550 4.2.2 Mailbox full'), 'rejected:invalid_recipient', 'RCPT 5xx'],
  ['550 5.1.1 to MAIL FROM: about our sender, never suppresses the recipient', { code: 'EENVELOPE', responseCode: 550, command: 'MAIL FROM', dataStarted: false, response: '550 5.1.1 Sender address rejected' }, 'rejected:validation', 'MAIL 5xx'],
  ['554 with a number in its text is not an enhanced code', endOfData(554, '554 spam score 5.2.2 too high'), 'rejected:other', '5xx'],
  ['553 bad sender', { code: 'EENVELOPE', responseCode: 553, command: 'MAIL FROM', dataStarted: false }, 'rejected:validation', 'MAIL 5xx'],
  ['554 to end of data', endOfData(554), 'rejected:other', '5xx'],
  ['554 at the greeting', { code: 'EPROTOCOL', responseCode: 554, command: 'CONN', dataStarted: false, response: '554 No SMTP service here' }, 'rejected:other', '5xx'],
];

describe('classifySmtpFailure', () => {
  it.each(cases)('%s', (_n, f, expected, row) => {
    const c = classifySmtpFailure(f);
    expect(c.class === 'rejected' ? `rejected:${c.kind}` : c.class).toBe(expected);
    expect(smtpReplyRule(f)?.id ?? null).toBe(row);
  });

  it('every row of both tables decides at least one case above', () => {
    const used = new Set(cases.map((c) => c[3]));
    expect([...enhancedStatusRules, ...replyCodeRules].map((r) => r.id).filter((id) => !used.has(id))).toEqual([]);
  });
});

describe('enhancedStatusOf', () => {
  it.each<[string | undefined, number | undefined, string | null]>([
    ['552 5.2.2 Mailbox full', 552, '5.2.2'],
    ['556 5.1.10 Recipient address has null MX', 556, '5.1.10'],
    ['550-5.1.1 The email account that you tried to reach does not exist', 550, '5.1.1'],
    ['5.7.1 Relaying denied', 550, '5.7.1'],
    ['550 Requested action not taken: 5.1.1 user unknown', 550, null], // not at the start: free text
    ['554 spam score 5.2.2 too high', 554, null],
    ['550 4.2.2 Mailbox full', 550, null], // class disagrees with the reply code
    ['550 User unknown', 550, null],
    ['250 2.0.0 Ok: queued as 12345', undefined, '2.0.0'],
    ['550 version 5.1.1.4 of something', 550, null], // four parts: not an enhanced code
    [undefined, 550, null],
  ])('%s', (response, code, expected) => {
    expect(enhancedStatusOf(response, code)).toBe(expected);
  });
});
