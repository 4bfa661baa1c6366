/**
 * SMTP outcome classification (RFC 5321 §4.2 reply codes; nodemailer's error codes). Pure table.
 *
 * The one fact that decides safety: had the message content started to go over the wire (the server
 * answered `354` to DATA)? Before that, nothing can have been delivered and a retry is safe. After it, a
 * timeout or dropped connection may hide a delivered message: `ambiguous`, never retried blindly
 * (invariant 6).
 */
import type { OutcomeClass } from './vocabulary';

export interface SmtpFailure {
  /** nodemailer error code: ECONNECTION, ESOCKET, ETIMEDOUT, EDNS, EENVELOPE, EMESSAGE, EPROTOCOL, EAUTH, ETLS, ... */
  code?: string;
  /** SMTP reply code when the server answered (e.g. 550). */
  responseCode?: number;
  /** SMTP command the failure answered (e.g. 'RCPT TO', 'DATA', 'CONN'). */
  command?: string;
  /** Whether the DATA phase began (the server answered 354 and content was being sent). */
  dataStarted: boolean;
  /** The server's reply text, e.g. `550 5.7.1 Relaying denied` (its RFC 3463 enhanced status code is read). */
  response?: string;
}

/**
 * True when the reply carries an RFC 3463 enhanced status code of class X.7.X ("security or policy status":
 * relaying denied, sender not authorised, message refused by policy). That is a permission problem to fix in
 * configuration — never a reason to suppress the recipient address.
 */
export function isPolicyRejection(response: string | undefined): boolean {
  return !!response && /(?:^|\s|-)[45]\.7\.\d{1,3}(?:\s|$)/.test(response);
}

export type SmtpClassification =
  | { class: Exclude<OutcomeClass, 'rejected'> }
  | { class: 'rejected'; kind: 'invalid_recipient' | 'permission' | 'validation' | 'other' };

/** Classifies a failed SMTP send (see module doc). */
export function classifySmtpFailure(f: SmtpFailure): SmtpClassification {
  const rc = f.responseCode;
  const cmd = (f.command ?? '').toUpperCase();
  if (f.dataStarted) {
    // Content was (being) handed over. A definite 5xx/4xx reply to the end-of-data means the server
    // refused the message; anything else (timeout, reset, no reply) is ambiguous.
    if (rc && rc >= 500) return { class: 'rejected', kind: isPolicyRejection(f.response) ? 'permission' : 'other' };
    if (rc && rc >= 400) return { class: 'transient' };
    return { class: 'ambiguous' };
  }
  if (f.code === 'EAUTH') return { class: 'rejected', kind: 'permission' };
  if (rc === 421 || rc === 450 || rc === 451 || rc === 452) return { class: 'transient' };
  if (rc && rc >= 500 && isPolicyRejection(f.response)) return { class: 'rejected', kind: 'permission' };
  if (rc && rc >= 500 && cmd.startsWith('RCPT')) return { class: 'rejected', kind: 'invalid_recipient' };
  if (rc && rc >= 500) return { class: 'rejected', kind: cmd.startsWith('MAIL') ? 'validation' : 'other' };
  if (rc && rc >= 400) return { class: 'transient' };
  if (f.code === 'EENVELOPE' || f.code === 'EMESSAGE') return { class: 'rejected', kind: 'validation' };
  // Connection refused, DNS failure, TLS failure, timeouts before DATA: nothing was handed over.
  return { class: 'transient' };
}
