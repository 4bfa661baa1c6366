/**
 * Delivery reports → a delivery's report state (issue #10 §2), pure.
 *
 * Reports arrive late (days), repeated and out of order. The report state of a delivery is therefore never
 * "the last report received" but a FOLD over all reports stored for it ({@link foldReports}): the most severe
 * state any report shows, by the order
 *
 *   accepted < delivered < soft_bounced < bounced (SMS: failed) < complained
 *
 * so a `delivered` that arrives after a complaint cannot hide it, and the same set of reports gives the same
 * answer in any arrival order. Kinds `queued`, `sent` and `deferred` say nothing about the outcome and change no
 * state. A multi-part SMS reported per part (`partIndex`/`partCount`, our extension of Twilio's status callback)
 * is `delivered` only when every part is; it ends `failed` with reason `partial` when a part is undelivered
 * while another was delivered (every part undelivered → `failed` with the error).
 *
 * Also here: which Twilio error codes suppress a number ({@link classifyTwilioError}) and the soft-bounce rule
 * ("suppressed after 3 soft bounces within 7 days", {@link softBounceLimitReached}).
 */
import { deliveryTransitions } from './states';
import type { DeliveryStatus, ReportKind, SuppressionReason } from './vocabulary';

/** The delivery states a report can put a delivery in (`accepted` = no report says more than "it went out"). */
export type ReportState = 'accepted' | 'delivered' | 'soft_bounced' | 'bounced' | 'failed' | 'complained';

/** Severity rank of each report state: a delivery only ever moves to a higher rank. `bounced` and SMS `failed` share one. */
export const reportSeverity: Readonly<Record<ReportState, number>> = {
  accepted: 0,
  delivered: 1,
  soft_bounced: 2,
  bounced: 3,
  failed: 3,
  complained: 4,
};

/** The state one report kind shows, or null for kinds that say nothing about the outcome (queued, sent, deferred). */
export const stateOfKind: Readonly<Record<ReportKind, ReportState | null>> = {
  queued: null,
  sent: null,
  deferred: null,
  delivered: 'delivered',
  soft_bounce: 'soft_bounced',
  hard_bounce: 'bounced',
  complaint: 'complained',
  undelivered: 'failed',
  failed: 'failed',
};

/** What the fold needs of one stored report. `occurredAt` is the provider's event time (UTC instant). */
export interface ReportFact {
  kind: ReportKind;
  occurredAt: Date;
  /** Multi-part SMS: 0-based part index and the number of parts; null/absent for a report about the whole message. */
  partIndex?: number | null;
  partCount?: number | null;
  errorCode?: string | null;
  detail?: string | null;
}

/** The result of {@link foldReports}. */
export interface FoldedReportState {
  state: ReportState;
  /** Why, in words, for `deliveries.status_reason`; null for `accepted`. */
  reason: string | null;
  /** Event time of the report that decided `state` (for `deliveries.reported_at`); null for `accepted`. */
  decidedAt: Date | null;
}

const kindWords: Readonly<Record<ReportKind, string>> = {
  queued: 'queued',
  sent: 'sent',
  deferred: 'deferred',
  delivered: 'delivered',
  soft_bounce: 'soft bounce',
  hard_bounce: 'hard bounce',
  complaint: 'complaint',
  undelivered: 'undelivered',
  failed: 'failed',
};

/** "error 30005: Unknown destination handset" / "550 5.1.1 no such user" / "" — what a report adds in words. */
function what(r: ReportFact): string {
  const code = r.errorCode ? `error ${r.errorCode}` : '';
  const detail = r.detail?.trim() ?? '';
  if (code && detail && !detail.includes(r.errorCode!)) return `${code}: ${detail}`;
  return detail || code;
}

/** A total order on reports that does not depend on arrival: event time, then kind, code and text. */
function compareFacts(a: ReportFact, b: ReportFact): number {
  return (
    a.occurredAt.getTime() - b.occurredAt.getTime() ||
    a.kind.localeCompare(b.kind) ||
    (a.errorCode ?? '').localeCompare(b.errorCode ?? '') ||
    (a.detail ?? '').localeCompare(b.detail ?? '') ||
    (a.partIndex ?? -1) - (b.partIndex ?? -1)
  );
}

/** The most severe fact of a list (earliest event time among equals), or null when none shows a state. */
function mostSevere(facts: readonly ReportFact[]): ReportFact | null {
  let best: ReportFact | null = null;
  for (const f of [...facts].sort(compareFacts)) {
    const s = stateOfKind[f.kind];
    if (!s) continue;
    if (!best || reportSeverity[s] > reportSeverity[stateOfKind[best.kind]!]) best = f;
  }
  return best;
}

/** "hard bounce at 2027-08-02T10:00:00.000Z: 550 5.1.1 …" (the event time, as the provider gave it) */
function reasonOf(f: ReportFact): string {
  const w = what(f);
  return `${kindWords[f.kind]} at ${f.occurredAt.toISOString()}${w ? `: ${w}` : ''}`;
}

/**
 * The state per-part reports give a multi-part SMS, or null when they decide nothing (yet).
 * Every part delivered → delivered; a part failed and another delivered → failed (`partial`); every reported part
 * failed and none delivered → failed with the first error. Parts not reported yet leave it undecided unless a
 * part already failed (the message as a whole can then no longer be delivered).
 */
function foldParts(parts: readonly ReportFact[]): FoldedReportState | null {
  const count = Math.max(...parts.map((p) => Math.max(p.partCount ?? 0, (p.partIndex ?? 0) + 1)));
  const byPart = new Map<number, ReportFact>();
  for (const p of parts) {
    const best = mostSevere([...(byPart.has(p.partIndex!) ? [byPart.get(p.partIndex!)!] : []), p]);
    if (best) byPart.set(p.partIndex!, best);
  }
  const states = [...byPart.entries()].sort((a, b) => a[0] - b[0]);
  const failedParts = states.filter(([, f]) => reportSeverity[stateOfKind[f.kind]!] >= reportSeverity.bounced);
  const deliveredParts = states.filter(([, f]) => stateOfKind[f.kind] === 'delivered');
  if (failedParts.length > 0) {
    const first = failedParts.map(([, f]) => f).sort(compareFacts)[0];
    const decidedAt = new Date(Math.max(...[...failedParts, ...deliveredParts].map(([, f]) => f.occurredAt.getTime())));
    if (deliveredParts.length > 0) {
      const failedList = failedParts.map(([i]) => i + 1).join(', ');
      const w = what(first);
      return {
        state: 'failed',
        reason: `partial: part ${failedList} of ${count} undelivered${w ? ` (${w})` : ''}; ${deliveredParts.length} of ${count} delivered`,
        decidedAt,
      };
    }
    return { state: 'failed', reason: reasonOf(first), decidedAt: first.occurredAt };
  }
  if (deliveredParts.length === count && count > 0) {
    const last = new Date(Math.max(...deliveredParts.map(([, f]) => f.occurredAt.getTime())));
    return { state: 'delivered', reason: `all ${count} parts delivered by ${last.toISOString()}`, decidedAt: last };
  }
  return null;
}

/**
 * The report state of one delivery from ALL its stored reports (module doc). Order-independent: any
 * permutation of `reports` gives the same result. Whole-message reports and per-part reports combine by
 * severity (the more severe answer wins).
 */
export function foldReports(reports: readonly ReportFact[]): FoldedReportState {
  const whole = reports.filter((r) => r.partIndex === null || r.partIndex === undefined);
  const parts = reports.filter((r) => r.partIndex !== null && r.partIndex !== undefined);
  const candidates: FoldedReportState[] = [];
  const w = mostSevere(whole);
  if (w) candidates.push({ state: stateOfKind[w.kind]!, reason: reasonOf(w), decidedAt: w.occurredAt });
  if (parts.length > 0) {
    const p = foldParts(parts);
    if (p) candidates.push(p);
  }
  if (candidates.length === 0) return { state: 'accepted', reason: null, decidedAt: null };
  // Most severe; on a tie the per-part answer (it says more: "partial") — it was pushed last.
  return candidates.reduce((a, b) => (reportSeverity[b.state] >= reportSeverity[a.state] ? b : a));
}

/** Delivery statuses a report may move (the message went out, or may have: `unknown`). */
const reportable: ReadonlySet<DeliveryStatus> = new Set(['accepted', 'unknown', 'delivered', 'soft_bounced', 'bounced', 'failed', 'complained']);

/** What applying a fold to a delivery does: a move forward, a reason refresh in the same state, or nothing. */
export type ReportTransition =
  | { action: 'move'; to: DeliveryStatus; reason: string | null; decidedAt: Date | null }
  | { action: 'refresh'; reason: string | null; decidedAt: Date | null }
  | { action: 'none'; why: string };

/**
 * Decides what a fold does to a delivery in `current` (pure). Only forward in severity; `unknown` counts as
 * `accepted` (any report, even `sent`, proves it went out: `unknown` → the fold's state, at least `accepted`).
 * A delivery that never went out or whose state no report set (`failed` at send time, `suppressed`, `dead`, …)
 * is left alone. `reportSet`: whether the current state was set by reports (`deliveries.reported_at` not null),
 * so a same-state fold may refresh the reason (a `failed` set at send time keeps its own).
 */
export function decideReportTransition(current: DeliveryStatus, fold: FoldedReportState, reportSet: boolean): ReportTransition {
  if (!reportable.has(current)) return { action: 'none', why: `the delivery is ${current}: reports do not change it` };
  if (current === 'unknown') {
    return {
      action: 'move',
      to: fold.state,
      reason: fold.reason ?? 'a delivery report shows the provider had the message (it was sent)',
      decidedAt: fold.decidedAt,
    };
  }
  if (current === 'failed' && !reportSet) return { action: 'none', why: 'the delivery failed when it was sent: reports do not change it' };
  if (fold.state === current) return current === 'accepted' ? { action: 'none', why: 'stays accepted' } : { action: 'refresh', reason: fold.reason, decidedAt: fold.decidedAt };
  if (reportSeverity[fold.state] > reportSeverity[current as ReportState] && deliveryTransitions[current].includes(fold.state)) {
    return { action: 'move', to: fold.state, reason: fold.reason, decidedAt: fold.decidedAt };
  }
  return { action: 'none', why: `stays ${current} (a report never moves a delivery back to a milder state)` };
}

/** What a Twilio error code in a status callback means for the number (suppress it, and why), or null. */
export interface TwilioErrorClass {
  suppress: Extract<SuppressionReason, 'unsubscribed' | 'invalid_number'> | null;
  /** Twilio's words for the code, when we know them. */
  description: string | null;
}

/**
 * Twilio error codes seen in status callbacks (https://www.twilio.com/docs/api/errors): 21610 (the recipient
 * replied STOP) suppresses the number for SMS as `unsubscribed`; 21211, 21614, 30005 and 30006 (the number cannot
 * receive messages) as `invalid_number`; any other code (30003 unreachable, 30007 filtered, 30008 unknown …)
 * suppresses nothing — it may work next time.
 */
export function classifyTwilioError(code: string | number | null | undefined): TwilioErrorClass {
  const c = code === null || code === undefined ? '' : String(code).trim();
  const description = twilioErrorWords[c] ?? null;
  if (c === '21610') return { suppress: 'unsubscribed', description };
  if (['21211', '21614', '30005', '30006'].includes(c)) return { suppress: 'invalid_number', description };
  return { suppress: null, description };
}

const twilioErrorWords: Readonly<Record<string, string>> = {
  '21211': "Invalid 'To' phone number",
  '21610': 'Attempt to send to unsubscribed recipient (replied STOP)',
  '21614': "'To' number is not a valid mobile number",
  '30003': 'Unreachable destination handset',
  '30004': 'Message blocked',
  '30005': 'Unknown destination handset',
  '30006': 'Landline or unreachable carrier',
  '30007': 'Message filtered by the carrier',
  '30008': 'Unknown error',
};

/** 7 days, ms: the soft-bounce window (issue #10 §3). */
export const SOFT_BOUNCE_WINDOW_MS = 7 * 86_400_000;

/**
 * Whether some window of `windowMs` holds at least `limit` soft bounces (issue #10 §3: "suppressed only after 3
 * soft bounces within 7 days"). Order-independent (the times are sorted here). A window is half-open,
 * `[t, t + windowMs)`: three bounces at 05-01T00:00, 05-04 and 05-08T00:00 (exactly 7 days apart) are not
 * within 7 days; one millisecond less and they are.
 */
export function softBounceLimitReached(times: readonly Date[], limit = 3, windowMs = SOFT_BOUNCE_WINDOW_MS): boolean {
  if (limit <= 0) return true;
  const t = times.map((d) => d.getTime()).sort((a, b) => a - b);
  for (let i = 0; i + limit - 1 < t.length; i++) if (t[i + limit - 1] - t[i] < windowMs) return true;
  return false;
}
