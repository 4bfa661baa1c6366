/**
 * Asynchronous SMTP bounces (issue #10 §4): reading an RFC 3464 delivery status notification (DSN) and applying
 * what it says about each recipient like any other delivery report (server/reports/reports.ts `applyReport`, source
 * `smtp_dsn`). Used by `npm run bounces:ingest` (scripts/bounces-ingest.ts) and by the built-in mail catcher's
 * `+bounce-later` addresses (dev/mail-catcher.ts, wired in scripts/start.ts).
 *
 * The MIME structure is taken apart by mailparser (`simpleParser` with `keepDeliveryStatus`, so the
 * `message/delivery-status` part is kept as a part of its own rather than folded into the text, and
 * `ignoreEmbedded`, so a returned `message/rfc822` stays raw); the fields of that part are read by domain/reports/dsn.ts.
 * `message/global-delivery-status` and `message/global-headers` (RFC 6533, internationalised) are read the same way.
 *
 * Finding the delivery: the DSN goes to the message's envelope sender, which for SMTP mail is the delivery's
 * VERP bounce address (domain/sending/verp.ts) — verified with the key, so a made-up address names nothing, and a DSN
 * whose bounce address does not verify is rejected whole. Only when the DSN carries no bounce address at all are
 * the headers it returns tried: `X-Punctual-Message-Key`, then `Message-ID` (db/queries/reports/bounces.ts). Those are not
 * signed (anyone who saw the message can quote them), so they count only for a recipient that is the delivery's
 * own address. See {@link ingestDsn}.
 */
import { createHash } from 'node:crypto';
import { simpleParser } from 'mailparser';
import type { Db } from '@/db/client';
import { findBouncedDelivery, isSuppressedForDelivery, type BounceMatch } from '@/db/queries/reports/bounces';
import { classifyDsnRecipient, parseDeliveryStatus, parseDsnDate, parseFieldGroups, type DeliveryStatusReport, type DsnRecipient } from '@/domain/reports/dsn';
import type { DeliveryStatus, ReportKind } from '@/domain/vocabulary';
import { parseVerpAddress } from '@/domain/sending/verp';
import { applyReport } from './reports';

/** A file or message that is not a delivery status notification we can read; the message says what is missing. */
export class DsnError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DsnError';
  }
}

/** A DSN taken apart (see {@link parseDsn}). */
interface ParsedDsn {
  /** The DSN's own `Message-ID` (with angle brackets), or null. */
  messageId: string | null;
  /** The DSN's `Date`, or null. */
  date: Date | null;
  /** SHA-256 of the raw bytes, hex: the DSN's identity when it has no Message-ID. */
  sha256: string;
  /** The `report-type` parameter of a `multipart/report` top level (`delivery-status`), or null for another structure. */
  reportType: string | null;
  /** The machine-readable part, read by domain/reports/dsn.ts (its `problems` name what could not be read). */
  status: DeliveryStatusReport;
  /**
   * Addresses shaped like our bounce addresses (`bounces+…@…`, lowercased, not yet verified), most trusted
   * first: the SMTP envelope recipients when known, `Delivered-To`, `X-Original-To`, `To`, then the returned
   * headers' `Return-Path`.
   */
  bounceAddresses: string[];
  /** What the returned headers (`text/rfc822-headers`, `message/rfc822`, `message/global-headers`) say of the original. */
  original: { messageId: string | null; messageKey: string | null; returnPath: string | null } | null;
}

const verpLike = /bounces\+[0-9a-z]{32}-[0-9a-z]{10}@[^\s<>,;"()]+/gi;

function bounceAddressesIn(values: (string | null | undefined)[]): string[] {
  const out: string[] = [];
  for (const v of values) for (const m of v?.match(verpLike) ?? []) if (!out.includes(m.toLowerCase())) out.push(m.toLowerCase());
  return out;
}

/** The header block (up to the first blank line) of a returned message or header part, as fields. */
function returnedHeaders(text: string): ParsedDsn['original'] {
  const block = text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/)[0];
  const fields = parseFieldGroups(block).groups[0] ?? [];
  const get = (k: string) => fields.find((f) => f.key === k)?.value ?? null;
  const messageId = get('message-id')?.match(/<[^<>\s]+>/)?.[0] ?? null;
  return { messageId, messageKey: get('x-punctual-message-key'), returnPath: get('return-path') };
}

/**
 * Takes a DSN apart. Accepts the raw message (RFC 5322 bytes or text, CRLF or LF).
 * @param opts.envelopeTo the SMTP envelope recipients the DSN was delivered to, when known (the catcher knows them).
 * @throws DsnError naming what is missing: no `message/delivery-status` part (not a DSN), or no recipient with a
 *   Final-Recipient in it.
 */
export async function parseDsn(raw: Buffer | string, opts: { envelopeTo?: string[] } = {}): Promise<ParsedDsn> {
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  if (bytes.length === 0) throw new DsnError('not a delivery status notification: the message is empty');
  const parsed = await simpleParser(bytes, { keepDeliveryStatus: true, ignoreEmbedded: true, skipHtmlToText: true, skipTextToHtml: true, checksumAlgo: false });
  const ct = parsed.headers.get('content-type') as { value?: string; params?: Record<string, string> } | undefined;
  const type = ct?.value?.toLowerCase() ?? 'text/plain';
  const statusPart = parsed.attachments.find((a) => a.contentType === 'message/delivery-status' || a.contentType === 'message/global-delivery-status');
  if (!statusPart) {
    throw new DsnError(
      `not a delivery status notification: no message/delivery-status part (RFC 3464); the message is ${type}${type === 'multipart/report' ? `; report-type=${ct?.params?.['report-type'] ?? '(none)'}` : ''}`,
    );
  }
  const status = parseDeliveryStatus(statusPart.content.toString('utf8'));
  if (status.recipients.length === 0) {
    throw new DsnError(`not a usable delivery status notification: the delivery-status part names no recipient (${status.problems.join('; ') || 'no Final-Recipient field'})`);
  }
  const headersPart = parsed.attachments.find((a) => ['text/rfc822-headers', 'message/rfc822', 'message/global-headers', 'message/global'].includes(a.contentType));
  const original = headersPart ? returnedHeaders(headersPart.content.toString('utf8')) : null;
  const headerValues = (key: string) => parsed.headerLines.filter((l) => l.key === key).map((l) => l.line.slice(l.line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' '));
  const date = parsed.date && !Number.isNaN(parsed.date.getTime()) ? parsed.date : null;
  return {
    messageId: parsed.messageId ?? null,
    date,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    reportType: type === 'multipart/report' ? (ct?.params?.['report-type']?.toLowerCase() ?? null) : null,
    status,
    bounceAddresses: bounceAddressesIn([...(opts.envelopeTo ?? []), ...headerValues('delivered-to'), ...headerValues('x-original-to'), ...headerValues('to'), original?.returnPath]),
    original,
  };
}

/** What happened to one recipient of an ingested DSN. */
interface DsnRecipientOutcome {
  /** The Final-Recipient address, as written. */
  finalRecipient: string;
  /** What the recipient's status means (domain/reports/dsn.ts `classifyDsnRecipient`), or null when it could not be read. */
  kind: ReportKind | null;
  /** RFC 3463 status (`5.1.1`), or null. */
  status: string | null;
  diagnosticCode: string | null;
  /**
   * `applied` (stored and applied to its delivery), `duplicate` (this report was applied before: nothing
   * changed), `unmatched` (no delivery of ours: stored without one), `ignored` (the DSN names a delivery, but this
   * recipient — Final-Recipient and Original-Recipient — is not the address that delivery was sent to: not
   * stored), `skipped` (no usable Action: not stored).
   */
  outcome: 'applied' | 'duplicate' | 'unmatched' | 'ignored' | 'skipped';
  /** The delivery the DSN names (found before applying; for a duplicate the one the stored report is on), or null. */
  deliveryId: string | null;
  matchedBy: BounceMatch | null;
  /** The delivery's status after applying (`applied` only). */
  deliveryStatus: DeliveryStatus | null;
  /** Whether the address is on the sending tenant's suppression list now (only looked at for a known delivery). */
  suppressed: boolean;
  reportId: string | null;
  /** Why a recipient was skipped or ignored. */
  problem: string | null;
  /** The address the delivery was sent to, when the DSN names one. */
  deliveryAddress?: string | null;
}

/** The result of {@link ingestDsn}. */
export interface DsnIngestResult {
  dsnMessageId: string | null;
  /** The verified bounce address the DSN went to, or null (none, or none that verifies under the key). */
  bounceAddress: string | null;
  /** Bounce-shaped addresses that did not verify (forged, or made with another key). */
  unverifiedBounceAddresses: string[];
  /**
   * Why the whole DSN was refused, or null: `bounce address does not verify: <address> (…)` when a bounce address
   * is present, none verifies under the key, so the DSN may be forged — nothing is stored or applied (`recipients`
   * is empty).
   */
  rejected: string | null;
  recipients: DsnRecipientOutcome[];
  /** What domain/reports/dsn.ts could not read in the delivery-status part. */
  problems: string[];
}

/** The report's event time: the recipient's Last-Attempt-Date, else the Arrival-Date, else the DSN's Date, else `now`. */
function occurredAtOf(r: DsnRecipient, dsn: ParsedDsn, now: Date): Date {
  return parseDsnDate(r.lastAttemptDate) ?? parseDsnDate(dsn.status.arrivalDate) ?? dsn.date ?? now;
}

/** The delivery id a bounce-shaped address carries, NOT verified (for checking returned headers against it without the key). */
function unverifiedVerpId(address: string): string | null {
  const hex = /^bounces\+([0-9a-f]{32})-/.exec(address.toLowerCase())?.[1];
  return hex ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` : null;
}

/** Whether a DSN recipient is the address a delivery was sent to: its Final-Recipient or Original-Recipient, any case. */
function isDeliveryRecipient(r: DsnRecipient, address: string): boolean {
  const a = address.trim().toLowerCase();
  return [r.finalRecipient, r.originalRecipient].some((x) => !!x && x.trim().toLowerCase() === a);
}

/**
 * Reads one DSN and applies it: one `applyReport` per recipient of the delivery it names with a usable Action,
 * source `smtp_dsn`, providerEventId `${DSN Message-ID, else sha256:<hex of the raw bytes>}:${final recipient,
 * lowercased}` (so the same DSN read twice is a duplicate), errorCode = Status, detail = Diagnostic-Code (at most
 * 1,000 characters), address = the delivery's own address.
 *
 * Which delivery a DSN may change (a forged DSN must not bounce or suppress anything):
 * - a bounce address (VERP) that verifies under `key` names it (`verp`); the returned headers are not consulted;
 * - a bounce address that is present but does not verify under `key` → the DSN is REJECTED (`rejected` says why):
 *   nothing stored, nothing applied. (After a key change, bounces of mail sent before it are refused this way.)
 * - no bounce address at all → the unsigned returned headers may name it (`X-Punctual-Message-Key`, then
 *   `Message-ID`); likewise when no key is given (`key` null: bounce addresses cannot be verified), but then only
 *   a delivery whose id the bounce address carries;
 * - only recipients whose Final-Recipient or Original-Recipient is the delivery's address (case-insensitive)
 *   affect it; the others are `ignored` and not stored (another recipient's failure is not this message's). A
 *   message forwarded to another mailbox is reported under that mailbox unless the MTA kept Original-Recipient.
 * - no delivery named → every usable recipient is stored unmatched (`unmatched`): reading the same DSN again once
 *   the delivery can be named (e.g. with the key) applies it (server/reports/reports.ts).
 * @param opts.key the VERP key (server/sending/bounce-address.ts); null = bounce addresses are not verified (headers only).
 * @param opts.now the instant of processing (the database clock's), also the event time of last resort.
 * @throws DsnError when `raw` is not a DSN (see {@link parseDsn}); database errors as they come.
 */
export async function ingestDsn(db: Db, raw: Buffer | string, opts: { key: string | null; now: Date; envelopeTo?: string[] }): Promise<DsnIngestResult> {
  const dsn = await parseDsn(raw, { envelopeTo: opts.envelopeTo });
  let bounceAddress: string | null = null;
  let verpDeliveryId: string | null = null;
  const unverified: string[] = [];
  for (const a of dsn.bounceAddresses) {
    const id = opts.key ? parseVerpAddress(a, opts.key) : null;
    if (id) {
      bounceAddress = a;
      verpDeliveryId = id;
      break;
    }
    unverified.push(a);
  }
  const result = { dsnMessageId: dsn.messageId, bounceAddress, unverifiedBounceAddresses: unverified, problems: dsn.status.problems };
  if (!bounceAddress && unverified.length > 0 && opts.key) {
    return { ...result, rejected: `bounce address does not verify: ${unverified[0]} (forged, or signed with another key)`, recipients: [] };
  }
  let delivery = verpDeliveryId
    ? await findBouncedDelivery(db, { deliveryId: verpDeliveryId })
    : await findBouncedDelivery(db, { messageKey: dsn.original?.messageKey, messageId: dsn.original?.messageId });
  // Without the key a bounce address is unverified: the headers may only confirm the delivery it names.
  if (delivery && !verpDeliveryId && unverified.length > 0 && !unverified.some((a) => unverifiedVerpId(a) === delivery!.id)) delivery = null;
  const eventBase = dsn.messageId ?? `sha256:${dsn.sha256}`;
  const recipients: DsnRecipientOutcome[] = [];
  for (const r of dsn.status.recipients) {
    const finalRecipient = r.finalRecipient!;
    const kind = classifyDsnRecipient(r);
    const base = {
      finalRecipient,
      kind,
      status: r.status,
      diagnosticCode: r.diagnosticCode,
      deliveryId: delivery?.id ?? null,
      matchedBy: delivery?.matchedBy ?? null,
      deliveryAddress: delivery?.address ?? null,
    };
    if (!kind) {
      recipients.push({ ...base, outcome: 'skipped', deliveryStatus: null, suppressed: false, reportId: null, problem: `no usable Action for ${finalRecipient} (RFC 3464 §2.3.3: failed, delayed, delivered, relayed or expanded)` });
      continue;
    }
    if (delivery && !isDeliveryRecipient(r, delivery.address)) {
      recipients.push({ ...base, outcome: 'ignored', deliveryStatus: null, suppressed: false, reportId: null, problem: `delivery ${delivery.id} was sent to ${delivery.address}, not to this recipient` });
      continue;
    }
    const res = await applyReport(
      db,
      {
        source: 'smtp_dsn',
        providerEventId: `${eventBase}:${finalRecipient.toLowerCase()}`,
        providerMessageId: dsn.original?.messageId ?? null,
        deliveryId: delivery?.id ?? null,
        kind,
        occurredAt: occurredAtOf(r, dsn, opts.now),
        address: delivery?.address ?? r.originalRecipient ?? finalRecipient,
        errorCode: r.status,
        detail: r.diagnosticCode ? r.diagnosticCode.slice(0, 1000) : null,
        payload: {
          dsnMessageId: dsn.messageId,
          reportingMta: dsn.status.reportingMta,
          arrivalDate: dsn.status.arrivalDate,
          finalRecipient,
          originalRecipient: r.originalRecipient,
          action: r.action,
          status: r.status,
          diagnosticType: r.diagnosticType,
          diagnosticCode: r.diagnosticCode,
          remoteMta: r.remoteMta,
          lastAttemptDate: r.lastAttemptDate,
          bounceAddress,
          matchedBy: delivery?.matchedBy ?? null,
          originalMessageId: dsn.original?.messageId ?? null,
        },
      },
      opts.now,
    );
    const deliveryId = res.outcome === 'applied' || res.outcome === 'duplicate' ? res.deliveryId : (delivery?.id ?? null);
    recipients.push({
      ...base,
      deliveryId,
      outcome: res.outcome,
      deliveryStatus: res.outcome === 'applied' ? res.status : null,
      suppressed: deliveryId ? await isSuppressedForDelivery(db, deliveryId, delivery?.address ?? finalRecipient) : false,
      reportId: res.reportId,
      problem: null,
    });
  }
  return { ...result, rejected: null, recipients };
}

/**
 * One line for a person about one recipient's outcome, e.g.
 * `delivery 3f2a… bounced (5.1.1) — address suppressed`. Only `applied` says what the delivery is now; a
 * duplicate says the report was processed before and nothing changed.
 */
export function describeDsnOutcome(r: DsnRecipientOutcome): string {
  const code = r.status ? ` (${r.status})` : '';
  switch (r.outcome) {
    case 'applied':
      return `delivery ${r.deliveryId} ${r.deliveryStatus}${code}${r.suppressed ? ' — address suppressed' : ''}`;
    case 'duplicate':
      return `delivery ${r.deliveryId ?? '(unknown)'}: report for ${r.finalRecipient}${code} already processed — nothing changed`;
    case 'unmatched':
      return `no delivery of ours for ${r.finalRecipient}${code} — report stored unmatched`;
    case 'ignored':
      return `${r.finalRecipient}${code}: ignored — ${r.problem}`;
    case 'skipped':
      return `${r.finalRecipient}: skipped — ${r.problem}`;
  }
}
