/**
 * Reading the machine-readable part of a delivery status notification (issue #10 §4): the body of a
 * `message/delivery-status` part (RFC 3464 §2) or its UTF-8 form `message/global-delivery-status` (RFC 6533 §6),
 * and what one recipient's status means for us. Pure: the MIME structure is taken apart by mailparser in
 * server/reports/bounces.ts; this module sees only the text of that one part.
 *
 * Syntax (RFC 3464 §2.1): fields formatted like RFC 5322 header fields — `Name: value`, names case-insensitive,
 * a line starting with white space continues the previous field (folding), parenthesised comments allowed in
 * structured values (`Status: 5.1.1 (bad destination mailbox address)`). First one group of per-message fields
 * (§2.2: Reporting-MTA, Arrival-Date, …), then one or more groups of per-recipient fields (§2.3: Final-Recipient,
 * Action, Status, Diagnostic-Code, Last-Attempt-Date, …), each group preceded by a blank line.
 *
 * Nothing here throws on malformed input: what cannot be read is left out and named in `problems`.
 */
import { DateTime } from 'luxon';
import type { ReportKind } from '@/domain/vocabulary';

/** One header-style field: its name as written, lowercased, and its unfolded value (runs of white space → one space). */
interface DsnField {
  name: string;
  key: string;
  value: string;
}

/** RFC 3464 §2.3.3 action values. */
const dsnActions = ['failed', 'delayed', 'delivered', 'relayed', 'expanded'] as const;
type DsnAction = (typeof dsnActions)[number];

/** The per-recipient fields of a DSN that matter to us (RFC 3464 §2.3), typed values split from their type. */
export interface DsnRecipient {
  /** Address part of `Final-Recipient` (`rfc822; ana@example.test` → `ana@example.test`), or null when missing. */
  finalRecipient: string | null;
  /** Its address type, lowercased (`rfc822`, `utf-8` per RFC 6533), or null. */
  finalRecipientType: string | null;
  /** Address part of `Original-Recipient` (the address we gave in RCPT TO, when the MTA kept it), or null. */
  originalRecipient: string | null;
  action: DsnAction | null;
  /** RFC 3463 enhanced status code `class.subject.detail` (e.g. `5.1.1`), comments removed; null when missing or malformed. */
  status: string | null;
  /** Text of `Diagnostic-Code` after its type (`smtp; 550 5.1.1 …` → `550 5.1.1 …`), or null. */
  diagnosticCode: string | null;
  /** Type of `Diagnostic-Code`, lowercased (`smtp`, `x-postfix`), or null. */
  diagnosticType: string | null;
  /** Host part of `Remote-MTA` (`dns; mx.example.test` → `mx.example.test`), or null. */
  remoteMta: string | null;
  /** `Last-Attempt-Date` as written (RFC 5322 date-time), or null; read with {@link parseDsnDate}. */
  lastAttemptDate: string | null;
  /** `Will-Retry-Until` as written (delayed reports), or null. */
  willRetryUntil: string | null;
}

/** A parsed delivery-status body. */
export interface DeliveryStatusReport {
  /** Host part of `Reporting-MTA` (`dns; mail.example.test`), or null. */
  reportingMta: string | null;
  /** `Arrival-Date` as written, or null. */
  arrivalDate: string | null;
  /** `Original-Envelope-Id` (RFC 3461 ENVID), or null. */
  originalEnvelopeId: string | null;
  /** Every per-recipient group that names a Final-Recipient, in order. */
  recipients: DsnRecipient[];
  /** What could not be read (line numbers are 1-based within the part). Empty for a well-formed body. */
  problems: string[];
}

const fieldLine = /^([!-9;-~]+)[ \t]*:(.*)$/;

/** White space runs → one space, trimmed. */
const squash = (v: string) => v.replace(/[ \t\r\n]+/g, ' ').trim();

/**
 * Splits header-style text into groups of fields at blank lines (RFC 3464 §2.1), unfolding continuation lines.
 * Lines that are neither a field nor a continuation are skipped and named in `problems`.
 */
export function parseFieldGroups(text: string): { groups: DsnField[][]; problems: string[] } {
  const groups: DsnField[][] = [];
  const problems: string[] = [];
  let group: DsnField[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') {
      if (group.length) groups.push(group);
      group = [];
      return;
    }
    if (/^[ \t]/.test(line)) {
      const last = group.at(-1);
      if (last) last.value = squash(`${last.value} ${line}`);
      else problems.push(`line ${i + 1}: continuation line without a field before it`);
      return;
    }
    const m = fieldLine.exec(line);
    if (!m) {
      problems.push(`line ${i + 1}: not a "Name: value" field: ${JSON.stringify(line.slice(0, 80))}`);
      return;
    }
    group.push({ name: m[1], key: m[1].toLowerCase(), value: squash(m[2]) });
  });
  if (group.length) groups.push(group);
  return { groups, problems };
}

/**
 * `value` without RFC 5322 comments (parenthesised, nested, with `\`-quoted characters), outside double quotes;
 * white space squashed.
 */
export function stripComments(value: string): string {
  let out = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\' && (depth > 0 || quoted)) {
      if (depth === 0) out += c + (value[i + 1] ?? '');
      i++;
      continue;
    }
    if (depth === 0 && c === '"') quoted = !quoted;
    if (!quoted && c === '(') {
      depth++;
      continue;
    }
    if (!quoted && c === ')' && depth > 0) {
      depth--;
      continue;
    }
    if (depth === 0) out += c;
  }
  return squash(out);
}

/** `type; value` (RFC 3464 §2.1.2 address-type, mta-name-type, diagnostic-type) → its parts; no `;` → type null. */
export function splitTyped(value: string): { type: string | null; value: string } {
  const semi = value.indexOf(';');
  if (semi < 0) return { type: null, value: value.trim() };
  return { type: value.slice(0, semi).trim().toLowerCase() || null, value: value.slice(semi + 1).trim() };
}

/** RFC 6533 §3 `utf-8-addr-xtext`/`-unitext`: `\x{HEX}` escapes → the characters they name. */
function decodeUtf8Escapes(v: string): string {
  return v.replace(/\\x\{([0-9A-Fa-f]{1,6})\}/g, (all, hex: string) => {
    const cp = parseInt(hex, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
  });
}

/** The address of a typed address field (`rfc822; <ana@example.test>` → `ana@example.test`), or null when empty. */
function addressOf(value: string): { type: string | null; address: string | null } {
  const t = splitTyped(stripComments(value));
  let a = t.value.replace(/^<(.*)>$/, '$1').trim();
  if (t.type === 'utf-8') a = decodeUtf8Escapes(a);
  return { type: t.type, address: a || null };
}

const statusPattern = /^([245])\.(\d{1,3})\.(\d{1,3})$/;

/**
 * The RFC 3463 enhanced status code in a `Status` value (`5.1.1`, `4.4.7 (delivery time expired)`), or null when
 * the value is not one (class 2, 4 or 5; subject and detail 1–3 digits).
 */
export function parseStatus(value: string | null | undefined): string | null {
  if (!value) return null;
  const v = stripComments(value).split(' ')[0];
  const m = statusPattern.exec(v);
  return m ? `${m[1]}.${Number(m[2])}.${Number(m[3])}` : null;
}

/**
 * An RFC 5322 §3.3 date-time as written in DSNs and mail headers (`Mon, 2 Aug 2027 10:00:05 +0000 (UTC)`,
 * obsolete zone names such as `GMT`/`EST` included), as a UTC instant; null when it is not one.
 */
export function parseDsnDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const v = stripComments(value);
  let dt = DateTime.fromRFC2822(v, { setZone: true });
  // Some MTAs leave out the day name's comma or write `UT`; luxon is strict about both.
  if (!dt.isValid) dt = DateTime.fromRFC2822(v.replace(/^([A-Za-z]{3})\s+(?=\d)/, '$1, ').replace(/\bUT$/, 'GMT'), { setZone: true });
  return dt.isValid ? dt.toJSDate() : null;
}

function recipientOf(group: DsnField[], n: number, problems: string[]): DsnRecipient | null {
  const get = (k: string) => group.find((f) => f.key === k)?.value ?? null;
  const finalRaw = get('final-recipient');
  if (finalRaw === null) {
    problems.push(`recipient ${n}: no Final-Recipient field`);
    return null;
  }
  const final = addressOf(finalRaw);
  if (!final.address) {
    problems.push(`recipient ${n}: Final-Recipient has no address`);
    return null;
  }
  const actionRaw = get('action');
  const action = actionRaw ? stripComments(actionRaw).toLowerCase() : null;
  if (!actionRaw) problems.push(`recipient ${n} (${final.address}): no Action field`);
  else if (!(dsnActions as readonly string[]).includes(action!)) problems.push(`recipient ${n} (${final.address}): Action "${actionRaw}" is not one of ${dsnActions.join(', ')}`);
  const statusRaw = get('status');
  const status = parseStatus(statusRaw);
  if (!statusRaw) problems.push(`recipient ${n} (${final.address}): no Status field`);
  else if (!status) problems.push(`recipient ${n} (${final.address}): Status "${statusRaw}" is not an RFC 3463 code such as 5.1.1`);
  const diag = get('diagnostic-code');
  const diagnostic = diag ? splitTyped(diag) : null;
  const remote = get('remote-mta');
  return {
    finalRecipient: final.address,
    finalRecipientType: final.type,
    originalRecipient: (() => {
      const o = get('original-recipient');
      return o ? addressOf(o).address : null;
    })(),
    action: (dsnActions as readonly string[]).includes(action ?? '') ? (action as DsnAction) : null,
    status,
    diagnosticCode: diagnostic?.value || null,
    diagnosticType: diagnostic?.type ?? null,
    remoteMta: remote ? splitTyped(stripComments(remote)).value || null : null,
    lastAttemptDate: get('last-attempt-date'),
    willRetryUntil: get('will-retry-until'),
  };
}

/**
 * Parses the body of a `message/delivery-status` (or `message/global-delivery-status`) part. The first group is
 * the per-message one; when it already holds a Final-Recipient (an MTA that left out the per-message fields) it is
 * read as a recipient group too.
 */
export function parseDeliveryStatus(text: string): DeliveryStatusReport {
  const { groups, problems } = parseFieldGroups(text);
  const out: DeliveryStatusReport = { reportingMta: null, arrivalDate: null, originalEnvelopeId: null, recipients: [], problems };
  if (groups.length === 0) {
    problems.push('the delivery-status part is empty');
    return out;
  }
  const perMessage = groups[0].some((f) => f.key === 'final-recipient') ? [] : groups[0];
  const get = (k: string) => perMessage.find((f) => f.key === k)?.value ?? null;
  const mta = get('reporting-mta');
  out.reportingMta = mta ? splitTyped(stripComments(mta)).value || null : null;
  out.arrivalDate = get('arrival-date');
  out.originalEnvelopeId = get('original-envelope-id');
  const recipientGroups = perMessage.length ? groups.slice(1) : groups;
  if (recipientGroups.length === 0) problems.push('no per-recipient fields (RFC 3464 §2.3: at least one recipient group)');
  recipientGroups.forEach((g, i) => {
    const r = recipientOf(g, i + 1, problems);
    if (r) out.recipients.push(r);
  });
  return out;
}

/**
 * What one recipient's status means (issue #10 §4):
 *   Action failed, Status 4.x.x        → `soft_bounce` (the MTA gave up on a temporary failure, e.g. 4.4.7)
 *   Action failed, any other or none   → `hard_bounce` (5.x.x: the address does not work)
 *   Action delayed                      → `deferred` (still trying; no state change)
 *   Action delivered, relayed, expanded → `delivered`
 * @returns null when the action is missing or unknown (nothing is applied for that recipient).
 */
export function classifyDsnRecipient(r: Pick<DsnRecipient, 'action' | 'status'>): ReportKind | null {
  switch (r.action) {
    case 'failed':
      return r.status?.startsWith('4.') ? 'soft_bounce' : 'hard_bounce';
    case 'delayed':
      return 'deferred';
    case 'delivered':
    case 'relayed':
    case 'expanded':
      return 'delivered';
    default:
      return null;
  }
}

/** What {@link composeFailureDsn} needs: the failed message and the reporting MTA. */
interface FailureDsnInput {
  /** Host name of the reporting MTA (`Reporting-MTA: dns; <host>`, `From: MAILER-DAEMON@<host>`). */
  reportingMta: string;
  /** The failed message's envelope sender: where the DSN goes (its `To`). */
  to: string;
  /** The recipients that failed, with their status (`5.1.1`) and SMTP reply text. */
  recipients: { address: string; status: string; diagnostic: string }[];
  /** When the failed message arrived, and when this DSN is made (UTC instants). */
  arrivalDate: Date;
  date: Date;
  /** The DSN's own Message-ID (with angle brackets) and MIME boundary (unique per DSN). */
  messageId: string;
  boundary: string;
  /** The failed message's header block as received (returned as `text/rfc822-headers`). */
  originalHeaders: string;
}

const rfc2822 = (d: Date) => DateTime.fromJSDate(d, { zone: 'utc' }).toFormat("ccc, d LLL yyyy HH:mm:ss '+0000'", { locale: 'en-US' });

/**
 * A complete RFC 3464 delivery status notification for recipients that failed for good (Action `failed`),
 * as an MTA writes it: `multipart/report; report-type=delivery-status` (RFC 6522) with a human-readable
 * `text/plain` part, the `message/delivery-status` part (per-message Reporting-MTA and Arrival-Date, then per
 * recipient Final-Recipient, Action, Status, Diagnostic-Code) and the original headers as `text/rfc822-headers`.
 * Sent with `Auto-Submitted: auto-replied` (RFC 3834). Lines end in CRLF.
 */
export function composeFailureDsn(input: FailureDsnInput): string {
  const b = input.boundary;
  const headers = input.originalHeaders.replace(/\r?\n/g, '\r\n').replace(/(\r\n)*$/, '');
  const lines = [
    `From: Mail Delivery System <MAILER-DAEMON@${input.reportingMta}>`,
    `To: <${input.to}>`,
    'Subject: Undelivered Mail Returned to Sender',
    `Date: ${rfc2822(input.date)}`,
    `Message-ID: ${input.messageId}`,
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status;\r\n\tboundary="${b}"`,
    '',
    'This is a MIME-encapsulated message.',
    '',
    `--${b}`,
    'Content-Description: Notification',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    `This is the mail system at host ${input.reportingMta}.`,
    '',
    'Your message could not be delivered to one or more recipients.',
    '',
    ...input.recipients.map((r) => `<${r.address}>: ${r.diagnostic}`),
    '',
    `--${b}`,
    'Content-Description: Delivery report',
    'Content-Type: message/delivery-status',
    '',
    `Reporting-MTA: dns; ${input.reportingMta}`,
    `Arrival-Date: ${rfc2822(input.arrivalDate)}`,
    ...input.recipients.flatMap((r) => ['', `Final-Recipient: rfc822; ${r.address}`, 'Action: failed', `Status: ${r.status}`, `Diagnostic-Code: smtp; ${r.diagnostic}`]),
    '',
    `--${b}`,
    'Content-Description: Undelivered Message Headers',
    'Content-Type: text/rfc822-headers',
    'Content-Transfer-Encoding: 8bit',
    '',
    headers,
    '',
    `--${b}--`,
    '',
  ];
  return lines.join('\r\n');
}
