/**
 * Asynchronous SMTP bounces (issue #10 §4): reading an RFC 3464 delivery status notification (DSN) and applying
 * what it says about each recipient like any other delivery report (server/reports.ts `applyReport`, source
 * `smtp_dsn`). Used by `npm run bounces:ingest` (scripts/bounces-ingest.ts) and by the built-in mail catcher's
 * `+bounce-later` addresses (server/mail-catcher.ts, wired in scripts/start.ts).
 *
 * The MIME structure is taken apart by mailparser (`simpleParser` with `keepDeliveryStatus`, so the
 * `message/delivery-status` part is kept as a part of its own rather than folded into the text, and
 * `ignoreEmbedded`, so a returned `message/rfc822` stays raw); the fields of that part are read by domain/dsn.ts.
 * `message/global-delivery-status` and `message/global-headers` (RFC 6533, internationalised) are read the same way.
 *
 * Finding the delivery: the DSN goes to the message's envelope sender, which for SMTP mail is the delivery's
 * VERP bounce address (domain/verp.ts) — verified with the key, so a made-up address names nothing. When that is
 * missing or does not verify, the headers the DSN returns are tried: `X-Punctual-Message-Key`, then `Message-ID`
 * (db/queries/bounces.ts). Those are not signed; they come from the message as the receiving side saw it.
 */
import { createHash } from 'node:crypto';
import { simpleParser } from 'mailparser';
import type { Db } from '../db/client';
import { findBouncedDelivery, isSuppressedForDelivery, type BounceMatch } from '../db/queries/bounces';
import { classifyDsnRecipient, parseDeliveryStatus, parseDsnDate, parseFieldGroups, type DeliveryStatusReport, type DsnRecipient } from '../domain/dsn';
import type { DeliveryStatus, ReportKind } from '../domain/vocabulary';
import { parseVerpAddress } from '../domain/verp';
import { applyReport } from './reports';

/** A file or message that is not a delivery status notification we can read; the message says what is missing. */
export class DsnError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DsnError';
  }
}

/** A DSN taken apart (see {@link parseDsn}). */
export interface ParsedDsn {
  /** The DSN's own `Message-ID` (with angle brackets), or null. */
  messageId: string | null;
  /** The DSN's `Date`, or null. */
  date: Date | null;
  /** SHA-256 of the raw bytes, hex: the DSN's identity when it has no Message-ID. */
  sha256: string;
  /** The `report-type` parameter of a `multipart/report` top level (`delivery-status`), or null for another structure. */
  reportType: string | null;
  /** The machine-readable part, read by domain/dsn.ts (its `problems` name what could not be read). */
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
export interface DsnRecipientOutcome {
  /** The Final-Recipient address, as written. */
  finalRecipient: string;
  /** What the recipient's status means (domain/dsn.ts `classifyDsnRecipient`), or null when it could not be read. */
  kind: ReportKind | null;
  /** RFC 3463 status (`5.1.1`), or null. */
  status: string | null;
  diagnosticCode: string | null;
  /**
   * `applied` (stored and applied to its delivery), `duplicate` (this report was processed before: nothing
   * changed), `unmatched` (no delivery of ours: stored without one), `skipped` (no usable Action: not stored).
   */
  outcome: 'applied' | 'duplicate' | 'unmatched' | 'skipped';
  /** The delivery the DSN names (found before applying), or null. */
  deliveryId: string | null;
  matchedBy: BounceMatch | null;
  /** The delivery's status after applying (`applied` only). */
  deliveryStatus: DeliveryStatus | null;
  /** Whether the address is on the sending tenant's suppression list now (only looked at for a known delivery). */
  suppressed: boolean;
  reportId: string | null;
  /** Why a recipient was skipped. */
  problem: string | null;
}

/** The result of {@link ingestDsn}. */
export interface DsnIngestResult {
  dsnMessageId: string | null;
  /** The verified bounce address the DSN went to, or null (none, or none that verifies under the key). */
  bounceAddress: string | null;
  /** Bounce-shaped addresses that did not verify (forged, or made with another key). */
  unverifiedBounceAddresses: string[];
  recipients: DsnRecipientOutcome[];
  /** What domain/dsn.ts could not read in the delivery-status part. */
  problems: string[];
}

/** The report's event time: the recipient's Last-Attempt-Date, else the Arrival-Date, else the DSN's Date, else `now`. */
function occurredAtOf(r: DsnRecipient, dsn: ParsedDsn, now: Date): Date {
  return parseDsnDate(r.lastAttemptDate) ?? parseDsnDate(dsn.status.arrivalDate) ?? dsn.date ?? now;
}

/**
 * Reads one DSN and applies it: one `applyReport` per recipient with a usable Action, source `smtp_dsn`,
 * providerEventId `${DSN Message-ID, else sha256:<hex of the raw bytes>}:${final recipient, lowercased}` (so the
 * same DSN read twice is a duplicate), errorCode = Status, detail = Diagnostic-Code (at most 1,000 characters).
 * The report's address is the delivery's own address when the DSN names a delivery (a Final-Recipient reached
 * through a forward differs from what we send to), else the Original-Recipient, else the Final-Recipient.
 * @param opts.key the VERP key (server/bounce-address.ts); null = bounce addresses are not read (headers only).
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
  const delivery = await findBouncedDelivery(db, { deliveryId: verpDeliveryId, messageKey: dsn.original?.messageKey, messageId: dsn.original?.messageId });
  const eventBase = dsn.messageId ?? `sha256:${dsn.sha256}`;
  const recipients: DsnRecipientOutcome[] = [];
  for (const r of dsn.status.recipients) {
    const finalRecipient = r.finalRecipient!;
    const kind = classifyDsnRecipient(r);
    const base = { finalRecipient, kind, status: r.status, diagnosticCode: r.diagnosticCode, deliveryId: delivery?.id ?? null, matchedBy: delivery?.matchedBy ?? null };
    if (!kind) {
      recipients.push({ ...base, outcome: 'skipped', deliveryStatus: null, suppressed: false, reportId: null, problem: `no usable Action for ${finalRecipient} (RFC 3464 §2.3.3: failed, delayed, delivered, relayed or expanded)` });
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
    const deliveryId = res.outcome === 'applied' ? res.deliveryId : (delivery?.id ?? null);
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
  return { dsnMessageId: dsn.messageId, bounceAddress, unverifiedBounceAddresses: unverified, recipients, problems: dsn.status.problems };
}

/**
 * One line for a person about one recipient's outcome, e.g.
 * `delivery 3f2a… bounced (5.1.1) — address suppressed`.
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
    case 'skipped':
      return `${r.finalRecipient}: skipped — ${r.problem}`;
  }
}
