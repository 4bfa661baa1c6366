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
 * while another was delivered (every part undelivered → `failed` with the error); when the part reports disagree
 * on the number of parts, {@link partCountOf} decides.
 *
 * Also here: which Twilio error codes suppress a number ({@link classifyTwilioError}), the soft-bounce rule
 * ("suppressed after 3 soft bounces within 7 days", domain/reports/soft-bounces.ts), and which event times a report
 * may carry ({@link parseRfc3339Instant}, {@link reportTimeProblem}).
 */
import { ownEntry } from '@/domain/platform/lookup';
import { deliveryTransitions } from '@/domain/states';
import type { DeliveryStatus, ReportKind, SuppressionReason } from '@/domain/vocabulary';

/** The delivery states a report can put a delivery in (`accepted` = no report says more than "it went out"). */
type ReportState = 'accepted' | 'delivered' | 'soft_bounced' | 'bounced' | 'failed' | 'complained';

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
interface FoldedReportState {
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
 * The most parts one SMS can be sent as. Twilio takes a body of at most 1600 characters (error 21617, "The
 * concatenated message body exceeds the 1600 character limit"; https://www.twilio.com/docs/api/errors/21617),
 * and characters outside GSM-7 count as more than one (the same page), i.e. 1600 UTF-16 units. The most parts
 * such a body costs is in UCS-2 with a surrogate pair at every part boundary (domain/sending/sms-segments.ts: 67 units a
 * part, a pair never split → 66): 800 emoji → 25 parts. Twilio itself documents no segment cap; the
 * concatenation header could count up to 255 (3GPP TS 23.040 §9.2.3.24.1).
 */
export const MAX_SMS_PARTS = 25;

/**
 * The number of parts of a multi-part SMS from its per-part reports (each says its `partIndex` and the
 * `partCount` it believes in). They normally agree. When they do not, the count is the SMALLEST claimed count
 * that is above every reported part index: a claim contradicted by a reported index is wrong, and of the rest the
 * smallest is taken so that one inflated claim (part 0 saying 9999 parts, part 1 saying 2) cannot keep the
 * message waiting forever for parts that were never sent; if a part beyond it reports later, the count grows with
 * it (the fold is recomputed from all reports, so a failed later part still turns the message `failed`). Claims
 * outside 1…{@link MAX_SMS_PARTS} are impossible and ignored; with no usable claim the count is the highest
 * reported index + 1. Order-independent (a function of the set of reports).
 */
function partCountOf(parts: readonly Pick<ReportFact, 'partIndex' | 'partCount'>[]): number {
  const indexed = Math.max(0, ...parts.map((p) => (p.partIndex ?? 0) + 1));
  const claims = parts
    .map((p) => p.partCount ?? 0)
    .filter((n) => Number.isInteger(n) && n >= indexed && n <= MAX_SMS_PARTS);
  return claims.length > 0 ? Math.min(...claims) : indexed;
}

/**
 * The state per-part reports give a multi-part SMS, or null when they decide nothing (yet). The number of parts
 * is {@link partCountOf}.
 * Every part delivered → delivered; a part failed and another delivered → failed (`partial`); every reported part
 * failed and none delivered → failed with the first error. Parts not reported yet leave it undecided unless a
 * part already failed (the message as a whole can then no longer be delivered).
 */
function foldParts(parts: readonly ReportFact[]): FoldedReportState | null {
  const count = partCountOf(parts);
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

// ------------------------------------------------------------------------------------------------------------
// Report event times

/**
 * RFC 3339 §5.6 `date-time`, exactly: `YYYY-MM-DD` `T` `hh:mm:ss` [`.` fraction] then `Z` or `±hh:mm`
 * (`T` and `Z` may be lower case, §5.6 NOTE). No expanded years (`+275760-…`), no missing seconds or offset.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * The UTC instant an RFC 3339 date-time names (the module's providers: Resend-style `created_at`, our SMS
 * `Timestamp`), or null when `value` is not one: wrong shape, or a date or time that does not exist (02-30,
 * 24:00, an offset of +24:00) — checked by the round trip through `Date.UTC`, which would silently carry
 * 2027-02-30 over to 03-02. A leap second (`:60`, allowed by RFC 3339) is refused: a JavaScript Date cannot hold
 * it. Fractions finer than a millisecond are cut to milliseconds. Pure.
 */
export function parseRfc3339Instant(value: string): Date | null {
  const m = RFC3339.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  if (h > 23 || mi > 59 || s > 59) return null;
  const local = new Date(Date.UTC(y, mo - 1, d, h, mi, s, ms));
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear keeps the year as written.
  local.setUTCFullYear(y);
  if (local.getUTCFullYear() !== y || local.getUTCMonth() !== mo - 1 || local.getUTCDate() !== d) return null;
  let offsetMin = 0;
  if (!m[8]) {
    const [oh, om] = [Number(m[10]), Number(m[11])];
    if (oh > 23 || om > 59) return null;
    offsetMin = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  return new Date(local.getTime() - offsetMin * 60_000);
}

/** The earliest event time a report may carry: 2000-01-01T00:00:00Z (before any message this system sent). */
const REPORT_TIME_EARLIEST = new Date('2000-01-01T00:00:00Z');
/** How far after the receiving instant a report's event time may be, ms: 1 day (clock skew, never a future). */
const REPORT_TIME_MAX_AHEAD_MS = 86_400_000;

/**
 * Why `at` cannot be a report's event time received at `now` (both UTC instants), or null when it can: it must be
 * a real time from {@link REPORT_TIME_EARLIEST} to `now` + {@link REPORT_TIME_MAX_AHEAD_MS} inclusive. A time
 * outside that is a provider's mistake (or year 9999), and would otherwise decide a delivery's `reported_at` and
 * the soft-bounce window. The answer completes "<field> …" in a 400 message.
 */
export function reportTimeProblem(at: Date, now: Date): string | null {
  const t = at.getTime();
  if (Number.isNaN(t)) return 'is not a time';
  if (t < REPORT_TIME_EARLIEST.getTime()) return 'is before 2000-01-01T00:00:00Z';
  if (t > now.getTime() + REPORT_TIME_MAX_AHEAD_MS) return `is more than a day after now (${now.toISOString()})`;
  return null;
}

/** Delivery statuses a report may move (the message went out, or may have: `unknown`). */
const reportable: ReadonlySet<DeliveryStatus> = new Set(['accepted', 'unknown', 'delivered', 'soft_bounced', 'bounced', 'failed', 'complained']);

/** What applying a fold to a delivery does: a move forward, a reason refresh in the same state, or nothing. */
type ReportTransition =
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
interface TwilioErrorClass {
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
  const description = ownEntry(twilioErrorWords, c) ?? null;
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
