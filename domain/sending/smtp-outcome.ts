/**
 * SMTP outcome classification. Pure tables; no I/O.
 *
 * The one fact that decides safety: had the message content started to go over the wire (the server
 * answered `354` to DATA)? Before that, nothing can have been delivered and a retry is safe. After it, a
 * timeout or dropped connection may hide a delivered message: `ambiguous`, never retried blindly
 * (invariant 6). A definite reply — before or after DATA — is read by what it says:
 *
 *  1. its RFC 3463 enhanced status code (`class.subject.detail`, e.g. `552 5.2.2 Mailbox full`), looked up in
 *     {@link enhancedStatusRules} — the code says *why* (mailbox full is not a bad address);
 *  2. else (no enhanced code, one whose class digit disagrees with the reply code, or one the table does not
 *     name) the RFC 5321 §4.2 reply code and the command it answered, in {@link replyCodeRules}.
 */
import type { OutcomeClass } from '@/domain/vocabulary';

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

type SmtpClassification =
  | { class: Exclude<OutcomeClass, 'rejected'> }
  | { class: 'rejected'; kind: 'invalid_recipient' | 'permission' | 'validation' | 'other' };

const transient: SmtpClassification = { class: 'transient' };
const rejected = (kind: 'invalid_recipient' | 'permission' | 'validation' | 'other'): SmtpClassification => ({ class: 'rejected', kind });

/** One row of a classification table: `id` names it in tests, `why` cites its source. */
interface SmtpRule {
  id: string;
  outcome: SmtpClassification;
  why: string;
}

/**
 * RFC 3463 enhanced status codes, first match wins. `code` is `class.subject.detail` where `*` matches any
 * number. Class 4 is always transient; class 5 rows name what the subject/detail means for Punctual:
 * `invalid_recipient` → delivery `failed` and the address suppressed; `permission` → dead letter owned by
 * configuration; `validation` → dead letter owned by the template (the message itself); `other` → dead letter
 * owned by the provider; `transient` → retried within the late-send window, no suppression.
 */
export const enhancedStatusRules: readonly (SmtpRule & { code: string })[] = [
  { id: '4.*.*', code: '4.*.*', outcome: transient, why: 'RFC 3463 §3.1: class 4 is a persistent transient failure' },
  { id: '5.1.1', code: '5.1.1', outcome: rejected('invalid_recipient'), why: 'RFC 3463 §3.2: bad destination mailbox address' },
  { id: '5.1.2', code: '5.1.2', outcome: rejected('invalid_recipient'), why: 'RFC 3463 §3.2: bad destination system address' },
  { id: '5.1.3', code: '5.1.3', outcome: rejected('invalid_recipient'), why: 'RFC 3463 §3.2: bad destination mailbox address syntax' },
  { id: '5.1.6', code: '5.1.6', outcome: rejected('invalid_recipient'), why: 'RFC 3463 §3.2: destination mailbox has moved, no forwarding address' },
  { id: '5.1.10', code: '5.1.10', outcome: rejected('invalid_recipient'), why: 'RFC 7505 §4.2: recipient address has a null MX' },
  { id: '5.1.7', code: '5.1.7', outcome: rejected('permission'), why: "RFC 3463 §3.2: bad sender's mailbox address syntax — the tenant's sender address (configuration)" },
  { id: '5.1.8', code: '5.1.8', outcome: rejected('permission'), why: "RFC 3463 §3.2: bad sender's system address — the tenant's sender domain (configuration)" },
  { id: '5.2.1', code: '5.2.1', outcome: rejected('invalid_recipient'), why: 'RFC 3463 §3.3: mailbox disabled, not accepting messages' },
  { id: '5.2.2', code: '5.2.2', outcome: transient, why: 'RFC 3463 §3.3: mailbox full — "a persistent transient error": retry within the window, never suppress' },
  { id: '5.2.3', code: '5.2.3', outcome: rejected('validation'), why: 'RFC 3463 §3.3: message length exceeds administrative limit — the message, not the address' },
  { id: '5.3.1', code: '5.3.1', outcome: transient, why: 'RFC 3463 §3.4: mail system full — "useful only as a persistent transient error"' },
  { id: '5.3.4', code: '5.3.4', outcome: rejected('validation'), why: 'RFC 3463 §3.4: message too big for system' },
  { id: '5.3.*', code: '5.3.*', outcome: rejected('other'), why: 'RFC 3463 §3.4: mail system status (not accepting, misconfigured, feature unsupported) — the provider' },
  { id: '5.4.5', code: '5.4.5', outcome: transient, why: 'RFC 3463 §3.5: mail system congestion — "a persistent transient error"' },
  { id: '5.4.*', code: '5.4.*', outcome: rejected('other'), why: 'RFC 3463 §3.5: network and routing status — the provider' },
  { id: '5.5.*', code: '5.5.*', outcome: rejected('other'), why: 'RFC 3463 §3.6: mail delivery protocol status — the provider or this client' },
  { id: '5.6.*', code: '5.6.*', outcome: rejected('validation'), why: 'RFC 3463 §3.7: message content or media status — the message itself' },
  { id: '5.7.*', code: '5.7.*', outcome: rejected('permission'), why: 'RFC 3463 §3.8: security or policy status — fix configuration, never suppress the recipient' },
];

/**
 * RFC 5321 §4.2 reply codes (with the command they answered), for replies the enhanced table does not decide.
 * First match wins.
 */
export const replyCodeRules: readonly (SmtpRule & { match: (code: number, command: string) => boolean })[] = [
  { id: '421/450/451/452', match: (c) => c === 421 || (c >= 450 && c <= 452), outcome: transient, why: 'RFC 5321 §4.2.3: service not available, mailbox busy, local error, insufficient storage' },
  { id: '4xx', match: (c) => c >= 400 && c < 500, outcome: transient, why: 'RFC 5321 §4.2.1: 4yz is a transient negative completion reply' },
  { id: '552', match: (c) => c === 552, outcome: transient, why: 'RFC 5321 §4.2.3 (exceeded storage allocation) and §4.5.3.1.10 (treat a 552 to RCPT as 452)' },
  { id: 'AUTH 5xx', match: (c, cmd) => c >= 500 && (cmd.startsWith('AUTH') || c === 530 || c === 534 || c === 535 || c === 538), outcome: rejected('permission'), why: 'RFC 4954 §6: authentication required / failed — the SMTP credentials (configuration)' },
  { id: 'RCPT 5xx', match: (c, cmd) => c >= 500 && cmd.startsWith('RCPT'), outcome: rejected('invalid_recipient'), why: 'RFC 5321 §4.2.3: 550/551/553 to RCPT TO — no such mailbox, user not local, mailbox name not allowed' },
  { id: 'MAIL 5xx', match: (c, cmd) => c >= 500 && cmd.startsWith('MAIL'), outcome: rejected('validation'), why: 'RFC 5321 §4.2.3: 5yz to MAIL FROM — the sender or the message parameters' },
  { id: '5xx', match: (c) => c >= 500, outcome: rejected('other'), why: 'RFC 5321 §4.2.1: 5yz is a permanent negative completion reply' },
];

/**
 * The RFC 3463 enhanced status code in a reply (`550 5.1.1 User unknown` → `5.1.1`), or null. It is read only
 * right after the reply code (RFC 2034 §4: it prefixes the text) or at the start of the text — never from the
 * middle of free text (`554 spam score 5.2.2 too high` carries no enhanced code).
 * A code whose class digit differs from the reply code's first digit is ignored (RFC 3463 §2: they must agree).
 * @param replyCode the reply code when known separately (nodemailer's `responseCode`).
 */
export function enhancedStatusOf(response: string | undefined, replyCode?: number): string | null {
  if (!response) return null;
  const text = response.trim();
  const m =
    /^(\d{3})[ -]([245])\.(\d{1,3})\.(\d{1,3})(?![\d.])/.exec(text) ??
    /^()([245])\.(\d{1,3})\.(\d{1,3})(?![\d.])/.exec(text);
  if (!m) return null;
  const [, code, cls, subject, detail] = m;
  const replyClass = String(replyCode ?? code)[0];
  if (replyClass && replyClass !== cls) return null;
  return `${cls}.${Number(subject)}.${Number(detail)}`;
}

function codeMatches(pattern: string, code: string): boolean {
  const p = pattern.split('.');
  const c = code.split('.');
  return p.every((part, i) => part === '*' || part === c[i]);
}

/**
 * The table row that decides a definite reply (see module doc), or null when the failure carries no reply code.
 * Exposed so tests can show that every row is reachable.
 */
export function smtpReplyRule(f: Pick<SmtpFailure, 'responseCode' | 'command' | 'response'>): SmtpRule | null {
  const rc = f.responseCode;
  if (!rc) return null;
  const cmd = (f.command ?? '').toUpperCase();
  const enhanced = enhancedStatusOf(f.response, rc);
  if (enhanced) {
    const row = enhancedStatusRules.find((r) => codeMatches(r.code, enhanced));
    // A recipient-address code answering MAIL FROM is about our sender, never a reason to suppress the
    // recipient: the command decides (RFC 5321 §4.2.3).
    const aboutRecipient = row && row.outcome.class === 'rejected' && 'kind' in row.outcome && row.outcome.kind === 'invalid_recipient';
    if (row && !(aboutRecipient && cmd.startsWith('MAIL'))) return row;
  }
  return replyCodeRules.find((r) => r.match(rc, cmd)) ?? null;
}

/** Classifies a failed SMTP send (see module doc). */
export function classifySmtpFailure(f: SmtpFailure): SmtpClassification {
  // A definite reply, before or after DATA: the server refused (5xx) or deferred (4xx) the message, so
  // nothing was delivered and the tables decide.
  if (f.responseCode && f.responseCode >= 400) {
    const row = smtpReplyRule(f);
    if (row) return row.outcome;
  }
  // No reply after content was (being) handed over: timeout, reset — may have been delivered.
  if (f.dataStarted) return { class: 'ambiguous' };
  if (f.code === 'EAUTH') return rejected('permission');
  if (f.code === 'EENVELOPE' || f.code === 'EMESSAGE') return rejected('validation');
  // Connection refused, DNS failure, TLS failure, timeouts before DATA: nothing was handed over.
  return transient;
}
