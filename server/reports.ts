/**
 * Delivery reports in (issue #10 §1–3): what a provider later says about a message it accepted — delivered,
 * bounced (hard or soft), complained, SMS delivered/undelivered/failed with an error code — stored ONCE per provider
 * event and applied in one transaction under a row lock on the delivery.
 *
 * Order-safe: the delivery's state is recomputed from ALL its stored reports on every report
 * (domain/report-state.ts `foldReports`), and moves only forward in severity
 * (`accepted < delivered < soft_bounced < bounced (SMS failed) < complained`), so arrival order cannot matter and a
 * late `delivered` never hides a bounce or a complaint. Once-only: the insert is
 * `ON CONFLICT (source, provider_event_id) DO NOTHING` — a repeated report stores nothing and changes nothing.
 *
 * A report whose message is not known (yet) is kept with `delivery_id` null, logged, and changes nothing: a fast
 * provider can report before the send's own transaction committed the provider's message id. When the send records
 * that id (server/send-reminder.ts, `accepted`), {@link adoptUnmatchedReports} attaches those reports and applies
 * them. An advisory lock per provider message id makes the two sides see each other (db/queries/reports.ts).
 * Likewise a report that names a delivery still being sent (`claimed`/`sending`/`retrying`, e.g. a DSN that beat
 * the SMTP answer) is stored with an effect beginning `waiting:` and applied by {@link adoptUnmatchedReports}.
 *
 * Suppressions go to the SENDING tenant (the external guest's own organisation for an `external` booking, else the
 * delivery's tenant — the list the send-time check reads): a hard bounce → `hard_bounce`; a complaint →
 * `complained`; the third soft bounce of the address within 7 days (any 7-day window, by event time, counted over
 * every message of that tenant) → `soft_bounces`; an SMS error 21610 (STOP) → `unsubscribed` for SMS only, and
 * 21211/21614/30005/30006 → `invalid_number`. Each names the report (`report_id`) and says in `source`
 * "<kind> reported by <source> at <event time>: <detail>".
 *
 * Stored report rows: `tenant_id` is that sending tenant (the soft-bounce count is per tenant and address), and
 * `address` the delivery's own address (what suppressions and the count key on; the provider's words are in
 * `payload`). Staff see a delivery's reports through the delivery (db/queries/views.ts, deliveries-log.ts).
 */
import type { Db, DbOrTx, Tx } from '../db/client';
import { lockDelivery, transitionDelivery } from '../db/queries/delivery';
import {
  adoptReports,
  findDeliveryByProviderMessage,
  findReportByEvent,
  insertReport,
  lockProviderMessage,
  lockSoftBounceCount,
  refreshReportReason,
  reportsOfDelivery,
  sendingTenantOf,
  setReportEffect,
  softBounceTimes,
} from '../db/queries/reports';
import type { Delivery, DeliveryReport } from '../db/schema';
import { isUuid } from '../domain/ids';
import { classifyTwilioError, decideReportTransition, foldReports, softBounceLimitReached } from '../domain/report-state';
import { reportKinds, reportSources, type DeliveryStatus, type Provider, type ReportKind, type ReportSource, type SuppressionReason } from '../domain/vocabulary';
import { AppError } from './errors';
import { addSuppression } from './tenants';

/** One report as an intake route (or the DSN reader) parsed it. See /work/notes/interfaces.md. */
export interface IncomingReport {
  source: ReportSource;
  /** Unique per source; a repeat is a duplicate, processed once. */
  providerEventId: string;
  /** HTTP email id / SMS MessageSid (matches deliveries.provider_message_id). */
  providerMessageId?: string | null;
  /** When the source names the delivery directly (DSN via VERP token). */
  deliveryId?: string | null;
  kind: ReportKind;
  /** The provider's event time (UTC instant). */
  occurredAt: Date;
  /** The recipient the report is about (else the delivery's address). */
  address?: string | null;
  /** SMS ErrorCode, DSN Status "5.1.1". */
  errorCode?: string | null;
  /** Provider text / Diagnostic-Code (cut to 1000 characters here). */
  detail?: string | null;
  /** Multi-part SMS: 0-based part index and number of parts. */
  partIndex?: number | null;
  partCount?: number | null;
  /** The parsed report, no secrets. */
  payload?: unknown;
}

export type ApplyReportResult =
  | { outcome: 'applied'; reportId: string; deliveryId: string; status: DeliveryStatus; effect: string }
  | { outcome: 'duplicate'; reportId: string }
  | { outcome: 'unmatched'; reportId: string };

/** The provider whose message ids a report source names. */
const providerOfSource: Readonly<Record<ReportSource, Provider>> = { http_api: 'http_api', sms_api: 'sms_api', smtp_dsn: 'smtp' };
/** The report source that names a provider's message ids (SMTP has none: its DSNs name the delivery by VERP token). */
const sourceOfProvider: Readonly<Partial<Record<Provider, ReportSource>>> = { http_api: 'http_api', sms_api: 'sms_api' };

/** Delivery states of a message still being sent: reports about it wait (module doc). */
const inFlight: ReadonlySet<DeliveryStatus> = new Set(['claimed', 'sending', 'retrying']);
/** How the effect of a waiting report begins (adoptUnmatchedReports finds them by it). */
const WAITING = 'waiting:';

/** Longest `detail` kept, characters. */
const DETAIL_MAX = 1000;

/** Checks and normalises a report. @throws AppError('validation') naming the field. */
function normalise(r: IncomingReport): IncomingReport {
  if (!reportSources.includes(r.source)) throw new AppError('validation', `source: unknown report source "${String(r.source)}"`, 'source');
  if (!reportKinds.includes(r.kind)) throw new AppError('validation', `kind: unknown report kind "${String(r.kind)}"`, 'kind');
  if (typeof r.providerEventId !== 'string' || r.providerEventId.trim() === '') throw new AppError('validation', 'providerEventId: required', 'providerEventId');
  if (!(r.occurredAt instanceof Date) || Number.isNaN(r.occurredAt.getTime())) throw new AppError('validation', 'occurredAt: must be a valid instant', 'occurredAt');
  const part = r.partIndex ?? null;
  const count = r.partCount ?? null;
  if (part !== null && (!Number.isInteger(part) || part < 0)) throw new AppError('validation', 'partIndex: must be a whole number ≥ 0', 'partIndex');
  if (part !== null && (count === null || !Number.isInteger(count) || count <= part)) {
    throw new AppError('validation', 'partCount: must be a whole number greater than partIndex', 'partCount');
  }
  const detail = r.detail?.trim() ? r.detail.trim().slice(0, DETAIL_MAX) : null;
  return { ...r, providerEventId: r.providerEventId.trim(), providerMessageId: r.providerMessageId?.trim() || null, detail, partIndex: part, partCount: part === null ? null : count };
}

/**
 * Stores the report once and applies it in one transaction (row lock on the delivery): see the module doc.
 * @param now the receiving instant (`received_at`), from the caller's clock.
 * @returns `applied` (with the delivery's status afterwards and what this report did), `duplicate` (this provider
 *   event was stored before: nothing changed), or `unmatched` (no delivery with this message id / delivery id yet:
 *   stored with delivery_id null, logged with console.warn, nothing else changed).
 * @throws AppError('validation') naming the field of a malformed report; database errors.
 */
export async function applyReport(db: Db, report: IncomingReport, now: Date): Promise<ApplyReportResult> {
  const r = normalise(report);
  return db.transaction(async (tx) => {
    let found: Delivery | null = null;
    if (r.deliveryId) {
      found = isUuid(r.deliveryId) ? ((await lockDelivery(tx, r.deliveryId)) ?? null) : null;
    } else if (r.providerMessageId) {
      await lockProviderMessage(tx, r.source, r.providerMessageId);
      const peek = await findDeliveryByProviderMessage(tx, providerOfSource[r.source], r.providerMessageId);
      found = peek ? ((await lockDelivery(tx, peek.id)) ?? null) : null;
    }
    const base = {
      source: r.source,
      providerEventId: r.providerEventId,
      providerMessageId: r.providerMessageId ?? null,
      kind: r.kind,
      partIndex: r.partIndex ?? null,
      partCount: r.partCount ?? null,
      occurredAt: r.occurredAt,
      receivedAt: now,
      errorCode: r.errorCode ?? null,
      detail: r.detail ?? null,
      payload: r.payload ?? null,
    };
    if (!found) {
      const row = await insertReport(tx, {
        ...base,
        address: r.address ?? null,
        effect: 'unmatched: no message with this id (yet) — kept, and applied when the send records it',
      });
      if (!row) return { outcome: 'duplicate', reportId: (await findReportByEvent(tx, r.source, r.providerEventId))!.id };
      console.warn(
        `[reports] unmatched ${r.source} report ${r.providerEventId} (${r.kind}) for ${r.deliveryId ? `delivery ${r.deliveryId}` : `message ${r.providerMessageId ?? '(none)'}`}: stored, nothing changed`,
      );
      return { outcome: 'unmatched', reportId: row.id };
    }
    const tenantId = await sendingTenantOf(tx, found);
    const row = await insertReport(tx, { ...base, deliveryId: found.id, tenantId, address: found.address });
    if (!row) return { outcome: 'duplicate', reportId: (await findReportByEvent(tx, r.source, r.providerEventId))!.id };
    const settled = await settle(tx, found, tenantId, [row], now);
    return { outcome: 'applied', reportId: row.id, deliveryId: found.id, status: settled.status, effect: settled.effects.get(row.id) ?? '' };
  });
}

/**
 * Attaches reports that arrived before the delivery's provider message id was recorded, and applies every report
 * of the delivery. Call inside the transaction that moved the delivery to `accepted` (it holds the row lock),
 * right after that move: server/send-reminder.ts recordOutcome. A delivery with no reports costs one UPDATE that
 * matches nothing and one SELECT. `now`: the caller's clock (suppressions made now are dated by it).
 * @returns how many reports were adopted and the delivery's status afterwards.
 */
export async function adoptUnmatchedReports(tx: Tx, delivery: Delivery, now: Date): Promise<{ adopted: number; status: DeliveryStatus }> {
  const source = sourceOfProvider[delivery.provider];
  let adopted: DeliveryReport[] = [];
  let tenantId: string | null = null;
  if (source && delivery.providerMessageId) {
    await lockProviderMessage(tx, source, delivery.providerMessageId);
    tenantId = await sendingTenantOf(tx, delivery);
    adopted = await adoptReports(tx, source, delivery.providerMessageId, { deliveryId: delivery.id, tenantId, address: delivery.address });
  }
  // Reports that named the delivery directly (a DSN) while it was still being sent were stored, waiting.
  const all = await reportsOfDelivery(tx, delivery.id);
  if (all.length === 0) return { adopted: 0, status: delivery.status };
  const waiting = all.filter((r) => r.effect?.startsWith(WAITING) && !adopted.some((a) => a.id === r.id));
  tenantId ??= await sendingTenantOf(tx, delivery);
  const settled = await settle(tx, delivery, tenantId, [...adopted, ...waiting], now);
  return { adopted: adopted.length, status: settled.status };
}

/**
 * Refolds every report of the (locked) delivery, moves its state forward when the fold says so, and applies the
 * suppressions of each report in `fresh` (new or just adopted), writing each one's effect.
 */
async function settle(tx: Tx, d: Delivery, sendingTenantId: string, fresh: DeliveryReport[], now: Date): Promise<{ status: DeliveryStatus; effects: Map<string, string> }> {
  const effects = new Map<string, string>();
  if (inFlight.has(d.status)) {
    // Not sent yet as far as we know (a DSN can name a delivery whose send is still being recorded): keep the
    // reports waiting; adoptUnmatchedReports applies them, suppressions included, when the send is recorded.
    for (const rep of fresh) {
      const effect = `${WAITING} the delivery is ${d.status} — applied when the send is recorded`;
      await setReportEffect(tx, rep.id, effect);
      effects.set(rep.id, effect);
    }
    return { status: d.status, effects };
  }
  const all = await reportsOfDelivery(tx, d.id);
  const fold = foldReports(all);
  const decision = decideReportTransition(d.status, fold, d.reportedAt !== null);
  let status = d.status;
  let stateText: string;
  if (decision.action === 'move') {
    const latest = all.length ? all[all.length - 1].occurredAt : null;
    const moved = await transitionDelivery(tx, d.id, decision.to, { statusReason: decision.reason, reportedAt: decision.decidedAt ?? latest });
    if (moved) {
      status = moved.status;
      stateText = `${d.status} → ${moved.status}`;
    } else {
      stateText = `no change (the delivery is ${d.status})`;
    }
  } else if (decision.action === 'refresh') {
    const changed = decision.reason !== d.statusReason;
    if (changed) await refreshReportReason(tx, d.id, d.status, decision.reason, decision.decidedAt);
    stateText = changed ? `stays ${d.status}, reason now: ${decision.reason}` : `no change (stays ${d.status})`;
  } else {
    stateText = `no change: ${decision.why}`;
  }
  for (const rep of fresh) {
    const parts = [stateText];
    const s = await suppressFor(tx, d, sendingTenantId, rep, now);
    if (s) parts.push(s);
    const effect = parts.join('; ');
    await setReportEffect(tx, rep.id, effect);
    effects.set(rep.id, effect);
  }
  return { status, effects };
}

/** "<kind> reported by <source> at <event time ISO>: <detail>" — the suppression's `source` text. */
function suppressionSource(rep: DeliveryReport): string {
  const words = rep.detail ?? (rep.errorCode ? `error ${rep.errorCode}` : null);
  return `${rep.kind} reported by ${rep.source} at ${rep.occurredAt.toISOString()}${words ? `: ${words}` : ''}`;
}

/**
 * The suppression one report causes (module doc), added to the sending tenant's list. Returns the effect in words,
 * or null when the report suppresses nothing.
 */
async function suppressFor(tx: DbOrTx, d: Delivery, tenantId: string, rep: DeliveryReport, now: Date): Promise<string | null> {
  let reason: SuppressionReason | null = null;
  let counted = '';
  if (rep.kind === 'hard_bounce') reason = 'hard_bounce';
  else if (rep.kind === 'complaint') reason = 'complained';
  else if (rep.kind === 'soft_bounce') {
    await lockSoftBounceCount(tx, tenantId, d.address);
    const times = await softBounceTimes(tx, tenantId, d.address);
    if (softBounceLimitReached(times)) reason = 'soft_bounces';
    else counted = `soft bounce counted (${times.length} on record for ${d.address}; suppressed at 3 within 7 days)`;
  } else if (rep.source === 'sms_api' && (rep.kind === 'undelivered' || rep.kind === 'failed')) {
    reason = classifyTwilioError(rep.errorCode).suppress;
  }
  if (!reason) return counted || null;
  let added: { id: string } | null;
  try {
    added = await addSuppression(tx, tenantId, {
      address: d.address,
      reason,
      channel: d.channel === 'sms' ? 'sms' : 'email',
      source: suppressionSource(rep),
      reportId: rep.id,
      at: now,
    });
  } catch (e) {
    // An address the list cannot hold (neither an email address nor E.164) must not make the provider retry forever.
    if (e instanceof AppError && e.code === 'validation') return `not suppressed: ${e.message}`;
    throw e;
  }
  const scope = tenantId === d.tenantId ? '' : ' (on the guest organisation’s list)';
  return added ? `suppressed ${d.address} for ${d.channel === 'sms' ? 'SMS' : 'email'} (${reason})${scope}` : `${d.address} was already suppressed${scope}`;
}
