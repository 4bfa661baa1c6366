import { describe, expect, it } from 'vitest';
import { classifySmtpFailure, type SmtpFailure } from './smtp-outcome';

describe('classifySmtpFailure', () => {
  it.each<[string, SmtpFailure, string]>([
    ['connection refused', { code: 'ESOCKET', command: 'CONN', dataStarted: false }, 'transient'],
    ['DNS failure', { code: 'EDNS', command: 'CONN', dataStarted: false }, 'transient'],
    ['greeting timeout', { code: 'ETIMEDOUT', command: 'CONN', dataStarted: false }, 'transient'],
    ['421 service not available', { code: 'EENVELOPE', responseCode: 421, command: 'MAIL FROM', dataStarted: false }, 'transient'],
    ['450 mailbox busy', { code: 'EENVELOPE', responseCode: 450, command: 'RCPT TO', dataStarted: false }, 'transient'],
    ['451 local error', { code: 'EENVELOPE', responseCode: 451, command: 'RCPT TO', dataStarted: false }, 'transient'],
    ['550 unknown recipient', { code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO', dataStarted: false }, 'rejected:invalid_recipient'],
    ['553 bad sender', { code: 'EENVELOPE', responseCode: 553, command: 'MAIL FROM', dataStarted: false }, 'rejected:validation'],
    ['535 auth failed', { code: 'EAUTH', responseCode: 535, command: 'AUTH PLAIN', dataStarted: false }, 'rejected:permission'],
    ['timeout after DATA began', { code: 'ETIMEDOUT', command: 'CONN', dataStarted: true }, 'ambiguous'],
    ['reset after DATA began', { code: 'ECONNECTION', command: 'CONN', dataStarted: true }, 'ambiguous'],
    ['554 to end of data', { code: 'EMESSAGE', responseCode: 554, command: 'DATA', dataStarted: true }, 'rejected:other'],
    ['451 to end of data', { code: 'EMESSAGE', responseCode: 451, command: 'DATA', dataStarted: true }, 'transient'],
    // RFC 3463 X.7.X is a policy/permission refusal: fix configuration, never suppress the recipient.
    ['550 5.7.1 at RCPT (relaying denied)', { code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO', dataStarted: false, response: '550 5.7.1 Relaying denied' }, 'rejected:permission'],
    ['550 5.1.1 at RCPT (no such user)', { code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO', dataStarted: false, response: '550 5.1.1 User unknown' }, 'rejected:invalid_recipient'],
    ['554 5.7.1 to end of data (policy)', { code: 'EMESSAGE', responseCode: 554, command: 'DATA', dataStarted: true, response: '554 5.7.1 Message refused by policy' }, 'rejected:permission'],
    ['553 5.7.1 at MAIL FROM (sender not authorised)', { code: 'EENVELOPE', responseCode: 553, command: 'MAIL FROM', dataStarted: false, response: '553 5.7.1 Sender not authorized' }, 'rejected:permission'],
    ['451 4.7.1 greylisted stays transient', { code: 'EENVELOPE', responseCode: 451, command: 'RCPT TO', dataStarted: false, response: '451 4.7.1 Try again later' }, 'transient'],
  ])('%s', (_n, f, expected) => {
    const c = classifySmtpFailure(f);
    expect(c.class === 'rejected' ? `rejected:${c.kind}` : c.class).toBe(expected);
  });
});
