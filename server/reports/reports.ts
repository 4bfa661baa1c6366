/**
 * Delivery reports in (issue #10 §1–3): what a provider later says about a message it accepted — delivered,
 * bounced (hard or soft), complained, SMS delivered/undelivered/failed with an error code — stored ONCE per provider
 * event and applied in one transaction under a row lock on the delivery.
 *
 * Order-safe: the delivery's state is recomputed from ALL its stored reports on every report
 * (domain/reports/report-state.ts `foldReports`), and moves only forward in severity
 * (`accepted < delivered < soft_bounced < bounced (SMS failed) < complained`), so arrival order cannot matter and a
 * late `delivered` never hides a bounce or a complaint. Once-only: the insert is
 * `ON CONFLICT (source, provider_event_id) DO NOTHING` — a repeat of an applied report stores nothing and changes
 * nothing (a repeat that says something else is logged as a conflict; the first counts).
 *
 * A report whose message is not known (yet) is kept with `delivery_id` null, logged, and changes nothing: a fast
 * provider can report before the send's own transaction committed the provider's message id. When the send records
 * that id (server/sending/send-attempt.ts, `accepted`), {@link adoptUnmatchedReports} attaches those reports and applies
 * them. An advisory lock per provider message id makes the two sides see each other (db/queries/reports/reports.ts). A
 * repeat of such a report that CAN name its delivery (e.g. a DSN read again with the VERP key) adopts and applies
 * it ({@link applyReport}). A report that names a delivery whose attempt is under way (`claimed`/`sending`, e.g. a
 * DSN that beat the SMTP answer) is stored with an effect beginning `waiting:` and settled by
 * {@link adoptUnmatchedReports} when that attempt's outcome is recorded. Which send states a report applies to at
 * all — a delivery `retrying`, `dead` or `expired` after an attempt that may have reached the provider, or one
 * that never sent anything — is described at `settle` below.
 *
 * Suppressions go to the SENDING tenant (the external guest's own organisation for an `external` booking, else the
 * delivery's tenant — the list the send-time check reads): a hard bounce → `hard_bounce`; a complaint →
 * `complained`; soft bounces of 3 different messages to the address within 7 days (any 7-day window, by event
 * time, over every message of that tenant; several reports of one message count once; only those after the latest
 * removal of a suppression of the address on that channel — a person removing it starts the count again,
 * domain/reports/soft-bounces.ts) → `soft_bounces`; an SMS error 21610 (STOP) → `unsubscribed` for SMS only, and
 * 21211/21614/30005/30006 → `invalid_number`. Each names the report (`report_id`) and says in `source`
 * "<kind> reported by <source> at <event time>: <detail>".
 *
 * Stored report rows: `tenant_id` is that sending tenant (the soft-bounce count is per tenant and address), and
 * `address` the delivery's own address (what suppressions and the count key on; the provider's words are in
 * `payload`). Staff see a delivery's reports through the delivery (db/queries/scheduling/event-views.ts, deliveries-log.ts).
 */
import type { Db, DbOrTx, Tx } from '@/db/client';
import { lockDelivery, transitionDelivery } from '@/db/queries/sending/delivery';
import {
  adoptReport,
  adoptReports,
  attemptThatMayHaveReachedProvider,
  findDeliveryByProviderMessage,
  findReportByEvent,
  insertReport,
  lockProviderMessage,
  lockSoftBounceCount,
  refreshReportReason,
  reportsOfDelivery,
  sendingTenantOf,
  setReportEffect,
  softBouncesSinceReset,
} from '@/db/queries/reports/reports';
import type { Delivery, DeliveryReport } from '@/db/schema';
import { isUuid } from '@/domain/ids';
import { classifyTwilioError, decideReportTransition, foldReports } from '@/domain/reports/report-state';
import { softBouncedMessages, softBounceMessageLimitReached } from '@/domain/reports/soft-bounces';
import { reportKinds, reportSources, type DeliveryStatus, type Provider, type ReportKind, type ReportSource, type SuppressionReason } from '@/domain/vocabulary';
import { AppError } from '@/server/platform/errors';
import { addSuppression } from '@/server/suppressions/suppressions';

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

type ApplyReportResult =
  | { outcome: 'applied'; reportId: string; deliveryId: string; status: DeliveryStatus; effect: string }
  /**
   * This provider event was stored before and applied to delivery `deliveryId`: nothing changed. `conflict`: this
   * copy says something else (another kind, message id, part or error code) — the first is kept, a warning logged.
   */
  | { outcome: 'duplicate'; reportId: string; deliveryId: string | null; conflict: boolean }
  | { outcome: 'unmatched'; reportId: string };

/** The provider whose message ids a report source names. */
const providerOfSource: Readonly<Record<ReportSource, Provider>> = { http_api: 'http_api', sms_api: 'sms_api', smtp_dsn: 'smtp' };
/** The report source that names a provider's message ids (SMTP has none: its DSNs name the delivery by VERP token). */
const sourceOfProvider: Readonly<Partial<Record<Provider, ReportSource>>> = { http_api: 'http_api', sms_api: 'sms_api' };

/**
 * The report source whose reports name a provider's messages by the provider's message id (adopted by that id when
 * the send records it), or null for a provider whose reports name the delivery itself (SMTP: the DSN's VERP address).
 */
export function reportSourceOf(provider: Provider): ReportSource | null {
  return sourceOfProvider[provider] ?? null;
}

/** Delivery states of a message whose attempt is under way: reports about it wait for its outcome (module doc). */
const inFlight: ReadonlySet<DeliveryStatus> = new Set(['claimed', 'sending']);
/**
 * Delivery states in which, by our own records, the message went out (or may have: `unknown`): a report applies
 * to them as domain/reports/report-state.ts decides. (`failed` only when a report set it: a send-time refusal sent nothing.)
 */
const sentStates: ReadonlySet<DeliveryStatus> = new Set(['accepted', 'unknown', 'delivered', 'soft_bounced', 'bounced', 'complained']);
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
 *
 * A repeat of a stored provider event (same source and event id):
 * - stored AND applied to a delivery before → `duplicate`, nothing changes (with `conflict` and a one-line
 *   console.warn when this copy differs in kind, message id, part or error code: the first is kept);
 * - stored unmatched before (no delivery then) and THIS call names a delivery (a delivery id, or a provider message
 *   id that is now recorded) → the stored row is adopted: attached to the delivery with this call's content, and
 *   applied (state refolded, suppressions) → `applied`. E.g. a DSN read first without the VERP key, then with it;
 * - stored unmatched and still unmatched → `unmatched` again (not a duplicate: nothing was ever applied).
 *
 * `smtp_dsn` reports are matched by `deliveryId` only: the DSN reader (server/reports/bounces.ts) decides which delivery a
 * DSN may change (a verified bounce address, or returned headers checked against the recipient) and passes it;
 * the returned Message-ID in `providerMessageId` is kept for the record, never used to find a delivery here.
 * @param now the receiving instant (`received_at`), from the caller's clock.
 * @returns `applied` (with the delivery's status afterwards and what this report did), `duplicate`, or
 *   `unmatched` (no delivery with this message id / delivery id yet: stored with delivery_id null, logged with
 *   console.warn, nothing else changed).
 * @throws AppError('validation') naming the field of a malformed report; database errors.
 */
export async function applyReport(db: Db, report: IncomingReport, now: Date): Promise<ApplyReportResult> {
  const r = normalise(report);
  return db.transaction(async (tx) => {
    let found: Delivery | null = null;
    if (r.deliveryId) {
      found = isUuid(r.deliveryId) ? ((await lockDelivery(tx, r.deliveryId)) ?? null) : null;
    } else if (r.providerMessageId && r.source !== 'smtp_dsn') {
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
      const stored = row ?? (await findReportByEvent(tx, r.source, r.providerEventId))!;
      if (!row) {
        const conflict = warnIfConflicting(stored, base, 'the first is kept, this one ignored');
        if (stored.deliveryId) return { outcome: 'duplicate', reportId: stored.id, deliveryId: stored.deliveryId, conflict };
      }
      console.warn(
        `[reports] unmatched ${r.source} report ${r.providerEventId} (${r.kind}) for ${r.deliveryId ? `delivery ${r.deliveryId}` : `message ${r.providerMessageId ?? '(none)'}`}: ${row ? 'stored' : 'already stored unmatched'}, nothing changed`,
      );
      return { outcome: 'unmatched', reportId: stored.id };
    }
    const tenantId = await sendingTenantOf(tx, found);
    let row = await insertReport(tx, { ...base, deliveryId: found.id, tenantId, address: found.address });
    if (!row) {
      const stored = (await findReportByEvent(tx, r.source, r.providerEventId))!;
      const conflict = warnIfConflicting(stored, base, stored.deliveryId ? 'the first is kept, this one ignored' : 'the stored copy named no delivery: this one is applied');
      // Stored unmatched before, nameable now: adopt it with what this call read (nothing of it was applied).
      row = stored.deliveryId
        ? null
        : await adoptReport(tx, stored.id, { deliveryId: found.id, tenantId, address: found.address }, {
            providerMessageId: base.providerMessageId ?? stored.providerMessageId,
            kind: base.kind,
            partIndex: base.partIndex,
            partCount: base.partCount,
            occurredAt: base.occurredAt,
            errorCode: base.errorCode,
            detail: base.detail,
            payload: base.payload,
          });
      if (!row) return { outcome: 'duplicate', reportId: stored.id, deliveryId: stored.deliveryId ?? found.id, conflict };
    }
    const settled = await settle(tx, found, tenantId, [row], now);
    return { outcome: 'applied', reportId: row.id, deliveryId: found.id, status: settled.status, effect: settled.effects.get(row.id) ?? '' };
  });
}

/**
 * Whether a repeat of a stored provider event says something else than the stored row (kind, provider message
 * id, part, error code); when it does, one console.warn line naming the event, both versions and `resolution`
 * (which one counts). Once applied, the first stored copy is what counts (once-only); the line lets someone see a
 * provider (or a forger holding the key) contradicting it.
 */
function warnIfConflicting(
  stored: DeliveryReport,
  incoming: { source: ReportSource; providerEventId: string; providerMessageId: string | null; kind: ReportKind; partIndex: number | null; errorCode: string | null },
  resolution: string,
): boolean {
  const differs =
    stored.kind !== incoming.kind ||
    (incoming.providerMessageId !== null && stored.providerMessageId !== incoming.providerMessageId) ||
    (stored.partIndex ?? null) !== incoming.partIndex ||
    (stored.errorCode ?? null) !== incoming.errorCode;
  if (differs) {
    const part = (p: number | null) => (p === null ? '' : `, part ${p}`);
    const code = (c: string | null) => (c ? `, error ${c}` : '');
    console.warn(
      `[reports] conflicting repeat of ${incoming.source} report ${incoming.providerEventId}: ` +
        `stored kind ${stored.kind}, message ${stored.providerMessageId ?? '(none)'}${part(stored.partIndex)}${code(stored.errorCode)}; ` +
        `this one kind ${incoming.kind}, message ${incoming.providerMessageId ?? '(none)'}${part(incoming.partIndex)}${code(incoming.errorCode)} — ${resolution}`,
    );
  }
  return differs;
}

/**
 * Attaches reports that arrived before the delivery's provider message id was recorded, and settles the reports
 * that were waiting for the delivery's attempt to end (a DSN naming it while it was `claimed`/`sending`). Call
 * inside the transaction that recorded an attempt's outcome (it holds the row lock), right after the delivery's
 * move: server/sending/send-attempt.ts recordOutcome — `accepted` (the reports apply) and every other outcome too
 * (`unknown`: they apply; `retrying` with no attempt that reached the provider: they keep waiting; `dead`,
 * `expired`, …: they apply when an earlier attempt may have reached the provider, else they end "not applied").
 * A delivery with no reports costs one SELECT (and, with a provider message id, one UPDATE that matches nothing).
 * `now`: the caller's clock (suppressions made now are dated by it).
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
  if (adopted.length === 0 && waiting.length === 0) return { adopted: 0, status: delivery.status };
  tenantId ??= await sendingTenantOf(tx, delivery);
  const settled = await settle(tx, delivery, tenantId, [...adopted, ...waiting], now);
  return { adopted: adopted.length, status: settled.status };
}

/**
 * Refolds every report of the (locked) delivery, moves its state forward when the fold says so, and applies the
 * suppressions of each report in `fresh` (new or just adopted), writing each one's effect.
 *
 * Which send states a report applies to (a report is about a message that went out; our send state may say
 * otherwise when an attempt's answer was lost):
 * - `accepted`, `unknown`, `delivered`, `soft_bounced`, `bounced`, `complained`, report-set `failed`: the fold
 *   decides the state (domain/reports/report-state.ts), and the report's suppression applies;
 * - `claimed`/`sending` (an attempt under way): the report waits for its outcome (`waiting:`; see
 *   {@link adoptUnmatchedReports});
 * - any other state (`retrying`, `dead`, `expired`, send-time `failed`, `discarded`, `suppressed`, …) when an attempt
 *   may have reached the provider (it ended `accepted` or `ambiguous`): the report is applied — its suppression
 *   (hard bounce, complaint, soft-bounce count, SMS code) is added, since it is a fact about the address — but the
 *   delivery's state stays (states.ts has no move from these to a report state: a dead letter stays one for a
 *   person to replay or discard; a `retrying` delivery is then stopped by the send-time suppression check). The
 *   fold still counts the report if the delivery is later accepted;
 * - `retrying` when no attempt reached the provider (yet): the report waits for a later attempt; if none is ever
 *   accepted it is not applied;
 * - any other state when no attempt reached the provider: nothing of ours went out — stored, not applied (no
 *   suppression), the effect says why.
 */
async function settle(tx: Tx, d: Delivery, sendingTenantId: string, fresh: DeliveryReport[], now: Date): Promise<{ status: DeliveryStatus; effects: Map<string, string> }> {
  const effects = new Map<string, string>();
  const mark = async (text: string) => {
    for (const rep of fresh) {
      await setReportEffect(tx, rep.id, text);
      effects.set(rep.id, text);
    }
    return { status: d.status, effects };
  };
  if (inFlight.has(d.status)) {
    // An attempt is under way (a DSN can name a delivery whose send is still being recorded): keep the reports
    // waiting; adoptUnmatchedReports settles them, suppressions included, when the attempt's outcome is recorded.
    return mark(`${WAITING} the delivery is ${d.status} — applied when the send is recorded`);
  }
  const sent = sentStates.has(d.status) || (d.status === 'failed' && d.reportedAt !== null);
  const reached = sent ? null : await attemptThatMayHaveReachedProvider(tx, d.id);
  if (!sent && reached === null) {
    if (d.status === 'retrying') {
      return mark(`${WAITING} the delivery is retrying and none of its attempts has reached the provider yet — applied if a later attempt is accepted, else not applied`);
    }
    return mark(`not applied: the delivery is ${d.status} and none of its attempts reached the provider (nothing of ours went out to report on) — kept for the record`);
  }
  let status = d.status;
  let stateText: string;
  if (!sent) {
    stateText = `stays ${d.status} (attempt ${reached} may have reached the provider; a report does not change this state)`;
  } else {
    const all = await reportsOfDelivery(tx, d.id);
    const fold = foldReports(all);
    const decision = decideReportTransition(d.status, fold, d.reportedAt !== null);
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
    const { bounces, resetAt } = await softBouncesSinceReset(tx, tenantId, d.address, d.channel);
    if (softBounceMessageLimitReached(bounces)) reason = 'soft_bounces';
    else {
      const n = softBouncedMessages(bounces);
      const since = resetAt ? ` since the suppression was removed at ${resetAt.toISOString()}` : '';
      counted = `soft bounce counted (${n} message${n === 1 ? '' : 's'} on record for ${d.address}${since}; suppressed at 3 within 7 days)`;
    }
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
