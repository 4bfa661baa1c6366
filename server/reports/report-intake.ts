/**
 * Delivery-report intake (issue #10 §1): the two provider webhooks, without Next.js, so tests drive them directly.
 * The route handlers (app/api/reports/{email,sms}/route.ts) read the raw body and the environment and call these.
 *
 * `POST /api/reports/email` — the HTTP email provider's events, Resend-style JSON
 *   `{ type, created_at, data: { email_id, to: [address], bounce?: { type, message } } }`, verified as a Standard
 *   Webhooks message (`standardwebhooks`: HMAC-SHA256 over `webhook-id.webhook-timestamp.body` with the `whsec_…`
 *   secret in HTTP_EMAIL_WEBHOOK_SECRET, timestamp within 5 minutes of now). Types:
 *     email.sent → sent · email.delivered → delivered · email.delivery_delayed → deferred ·
 *     email.bounced → hard_bounce (bounce.type `hard`/`Permanent`) or soft_bounce (`soft`/`Transient`/`Undetermined`) ·
 *     email.complained → complaint · any other type (email.opened, email.clicked, …: providers send them) → 200
 *     `{ status: 'ignored' }`, nothing stored.
 *   providerEventId = the `webhook-id` header; occurredAt = `created_at`; providerMessageId = `data.email_id`.
 *   Content-Type must be `application/json` (or `application/…+json`) → else 415 naming `content-type`; the body
 *   must be one JSON object → else 400 naming `body`; `created_at` must be an RFC 3339 date-time (§5.6, a real
 *   calendar date and time, `Z` or an offset) from 2000-01-01 to a day after the receiving instant
 *   (domain/reports/report-state.ts `parseRfc3339Instant`, `reportTimeProblem`) → else 400 naming `created_at`.
 *
 * `POST /api/reports/sms` — Twilio-style status callbacks (form body `MessageSid`, `MessageStatus`, `ErrorCode`,
 *   `ErrorMessage`, `To`, `From`, `AccountSid`, …), verified with `X-Twilio-Signature` (domain/reports/twilio-signature.ts)
 *   using SMS_AUTH_TOKEN over the URL the provider called. Statuses (Twilio's MessageStatus values,
 *   https://www.twilio.com/docs/messaging/api/message-resource#message-status-values): queued/accepted/scheduled/
 *   sending → queued, sent → sent, delivered/read → delivered, undelivered → undelivered, failed → failed;
 *   canceled/receiving/received/partially_delivered → 200 ignored; any other value → 400 naming `MessageStatus` and
 *   listing these (`SmsStatus`, the older name, is read only when `MessageStatus` is absent). A parameter given more
 *   than once → 400 naming it: the signature does not cover the order of a name's values (domain/reports/twilio-signature.ts),
 *   so "the first one" would mean whatever the sender put first. Content-Type must be
 *   `application/x-www-form-urlencoded` → else 415 naming `content-type` (after the signature check, like every
 *   check here). OUR EXTENSION for multi-part SMS: `PartIndex` (0-based) with `NumSegments` (the number of parts,
 *   1…{@link MAX_SMS_PARTS}) makes the callback a report about one part (Twilio itself reports the whole message);
 *   PartIndex must be below NumSegments. Twilio sends no event time: occurredAt = the receiving instant, unless
 *   `RawDlrDoneDate` (the carrier's `YYMMDDhhmm[ss]`, read as UTC) or `Timestamp` (RFC 3339; our extension) is given,
 *   which must be a real time from 2000-01-01 to a day after the receiving instant → else 400 naming it.
 *   providerEventId = `MessageSid:MessageStatus[:PartIndex]`.
 *
 * Answers (both): bad or missing signature → 401, nothing stored; malformed → 400 naming the field; a report about
 * an unknown message → 202 `{ status: 'unmatched' }` (stored, logged, nothing else changes); applied or a repeat →
 * 200 `{ status: 'applied' | 'duplicate' }`; not configured (no secret) → 503 naming the environment variable.
 */
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { ownEntry } from '@/domain/platform/lookup';
import { classifyTwilioError, MAX_SMS_PARTS, parseRfc3339Instant, reportTimeProblem } from '@/domain/reports/report-state';
import { formParams, verifyTwilioSignature } from '@/domain/reports/twilio-signature';
import type { ReportKind } from '@/domain/vocabulary';
import { AppError, fromZodError } from '@/server/platform/errors';
import { applyReport, type IncomingReport } from './reports';

/** What a route answers: HTTP status and JSON body. */
interface IntakeAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** Largest report body read, bytes (a provider's event is a few KiB). */
export const MAX_REPORT_BODY_BYTES = 256 * 1024;

/** The path of the SMS status callback route (what PUNCTUAL_PUBLIC_URL is joined with). */
const SMS_REPORT_PATH = '/api/reports/sms';

const answer = (status: number, body: Record<string, unknown>): IntakeAnswer => ({ status, body });
const refuse = (status: number, error: string, field?: string): IntakeAnswer => answer(status, field ? { error, field } : { error });

/** Maps applyReport's result to the answer (module doc). */
async function apply(db: Db, report: IncomingReport, now: Date): Promise<IntakeAnswer> {
  const r = await applyReport(db, report, now);
  if (r.outcome === 'unmatched') return answer(202, { status: 'unmatched', reportId: r.reportId });
  if (r.outcome === 'duplicate') return answer(200, { status: 'duplicate', reportId: r.reportId });
  return answer(200, { status: 'applied', reportId: r.reportId, deliveryStatus: r.status });
}

/**
 * The event time `value` of a report received at `now` (domain/reports/report-state.ts: `parse` the text, then the
 * bounds of `reportTimeProblem`). @throws AppError('validation') naming `field`: `format` says what was expected.
 */
function eventTime(value: string, field: string, now: Date, parse: (v: string) => Date | null, format: string): Date {
  const at = parse(value);
  if (!at) throw new AppError('validation', `${field}: must be ${format}`, field);
  const problem = reportTimeProblem(at, now);
  if (problem) throw new AppError('validation', `${field}: ${value.slice(0, 40)} ${problem}`, field);
  return at;
}

/** The media type of a Content-Type header value, lower case, without parameters ('' when absent). */
const mediaType = (contentType: string | null | undefined) => (contentType ?? '').split(';')[0].trim().toLowerCase();

/** Runs a parse step; a validation AppError becomes the 400 answer naming the field. */
function parsed<T>(f: () => T): T | IntakeAnswer {
  try {
    return f();
  } catch (e) {
    if (e instanceof AppError && e.code === 'validation') return refuse(400, e.message, e.field);
    throw e;
  }
}
const isAnswer = (x: unknown): x is IntakeAnswer => !!x && typeof x === 'object' && 'status' in x && 'body' in x && typeof (x as IntakeAnswer).status === 'number';

// ------------------------------------------------------------------------------------------------------------
// HTTP email provider (Resend-style events, Standard Webhooks)

const emailEventSchema = z.object({
  type: z.string().min(1, 'required'),
  created_at: z.string(), // an RFC 3339 date-time: checked with the receiving instant in parseEmailEvent
  data: z.object({
    email_id: z.string().trim().min(1, 'required'),
    to: z.union([z.array(z.string()), z.string()]).optional(),
    bounce: z.object({ type: z.string().optional(), subType: z.string().optional(), message: z.string().optional() }).optional(),
  }),
});

const emailKinds: Readonly<Record<string, ReportKind | 'bounce'>> = {
  'email.sent': 'sent',
  'email.delivered': 'delivered',
  'email.delivery_delayed': 'deferred',
  'email.bounced': 'bounce',
  'email.complained': 'complaint',
};

/** `Ada <ada@example.test>` → `ada@example.test`. */
const bareAddress = (s: string) => (/<([^>]+)>/.exec(s)?.[1] ?? s).trim();

/**
 * Parses one verified email event into a report (module doc), or `'ignored'` for a type we do not use.
 * @param now the receiving instant: `created_at` may be at most a day after it.
 * @throws AppError('validation') naming the field (`body` when it is not a JSON object, `data.email_id`,
 *   `created_at`, `data.bounce.type`, …).
 */
function parseEmailEvent(json: unknown, webhookId: string, now: Date): IncomingReport | 'ignored' {
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new AppError('validation', 'body: must be a JSON object (one webhook event)', 'body');
  const r = emailEventSchema.safeParse(json);
  if (!r.success) throw fromZodError(r.error);
  const e = r.data;
  const occurredAt = eventTime(e.created_at, 'created_at', now, parseRfc3339Instant, 'an RFC 3339 date-time with Z or an offset, e.g. 2027-03-01T12:05:00Z');
  const mapped = ownEntry(emailKinds, e.type);
  if (!mapped) return 'ignored';
  let kind: ReportKind;
  if (mapped === 'bounce') {
    const t = e.data.bounce?.type?.trim().toLowerCase();
    if (!t) throw new AppError('validation', 'data.bounce.type: required for email.bounced (hard or soft)', 'data.bounce.type');
    if (t === 'hard' || t === 'permanent') kind = 'hard_bounce';
    else if (t === 'soft' || t === 'transient' || t === 'undetermined') kind = 'soft_bounce';
    else throw new AppError('validation', `data.bounce.type: "${e.data.bounce!.type}" is not hard, soft, Permanent, Transient or Undetermined`, 'data.bounce.type');
  } else kind = mapped;
  const to = Array.isArray(e.data.to) ? e.data.to[0] : e.data.to;
  const bounce = e.data.bounce;
  return {
    source: 'http_api',
    providerEventId: webhookId,
    providerMessageId: e.data.email_id,
    kind,
    occurredAt,
    address: to ? bareAddress(to) : null,
    errorCode: bounce?.subType ?? null,
    detail: bounce?.message ?? null,
    payload: { type: e.type, created_at: e.created_at, data: { email_id: e.data.email_id, to: e.data.to ?? null, ...(bounce ? { bounce } : {}) } },
  };
}

/**
 * `POST /api/reports/email` (module doc).
 * @param secret HTTP_EMAIL_WEBHOOK_SECRET (`whsec_…`); undefined → 503 naming it.
 * @param now the receiving instant (`received_at`).
 */
export async function intakeEmailEvent(db: Db, req: { rawBody: string; headers: Headers | Record<string, string>; secret: string | undefined; now: Date }): Promise<IntakeAnswer> {
  if (!req.secret) return refuse(503, 'email delivery reports are not configured: set HTTP_EMAIL_WEBHOOK_SECRET (the whsec_… signing secret of the provider’s webhook)');
  let wh: Webhook;
  try {
    wh = new Webhook(req.secret);
  } catch (e) {
    return refuse(503, `HTTP_EMAIL_WEBHOOK_SECRET cannot be used: ${(e as Error).message}`);
  }
  const h = req.headers instanceof Headers ? req.headers : new Headers(req.headers);
  const headers = { 'webhook-id': h.get('webhook-id') ?? '', 'webhook-timestamp': h.get('webhook-timestamp') ?? '', 'webhook-signature': h.get('webhook-signature') ?? '' };
  try {
    wh.verify(req.rawBody, headers, { jsonParse: false });
  } catch (e) {
    return refuse(401, `signature not valid: ${(e as Error).message || 'verification failed'}`);
  }
  const type = mediaType(h.get('content-type'));
  if (type !== 'application/json' && !/^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type)) {
    return refuse(415, `content-type: must be application/json (a Standard Webhooks event), not ${type || 'missing'}`, 'content-type');
  }
  let json: unknown;
  try {
    json = JSON.parse(req.rawBody);
  } catch {
    return refuse(400, 'body: not valid JSON', 'body');
  }
  const report = parsed(() => parseEmailEvent(json, headers['webhook-id'], req.now));
  if (isAnswer(report)) return report;
  if (report === 'ignored') return answer(200, { status: 'ignored', reason: `event type ${(json as { type?: string }).type} is not a delivery report` });
  return apply(db, report, req.now);
}

// ------------------------------------------------------------------------------------------------------------
// SMS provider (Twilio-style status callbacks, X-Twilio-Signature)

const smsKinds: Readonly<Record<string, ReportKind>> = {
  queued: 'queued',
  accepted: 'queued',
  scheduled: 'queued',
  sending: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
};

/** Twilio MessageStatus values that are not delivery reports (module doc): 200 ignored. */
const smsIgnoredStatuses: readonly string[] = ['canceled', 'receiving', 'received', 'partially_delivered'];

/** The value of a form parameter, trimmed; undefined when absent or empty. Repeats are refused before (parseSmsStatus). */
function one(p: Record<string, string | string[]>, name: string): string | undefined {
  const v = p[name];
  const s = (Array.isArray(v) ? v.join(',') : v)?.trim();
  return s ? s : undefined;
}

/** Twilio's `RawDlrDoneDate` (`YYMMDDhhmm`, optionally `ss`), read as UTC. Null when it is not such a date. */
function parseRawDlrDoneDate(v: string): Date | null {
  const m = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?$/.exec(v);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [2000 + Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && h < 24 && mi < 60 && s < 60 ? t : null;
}

/** A whole number from `min` to `max` from a form value. @throws AppError('validation') naming `field` and the range (`why` it ends there). */
function wholeNumber(v: string, field: string, min: number, max: number, why: string): number {
  const n = /^\d{1,6}$/.test(v) ? Number(v) : Number.NaN;
  if (!(n >= min && n <= max)) throw new AppError('validation', `${field}: must be a whole number from ${min} to ${max} (${why})`, field);
  return n;
}

/**
 * Parses one verified status callback into a report (module doc), or `'ignored'` for a status that is not a report.
 * @param now the receiving instant: the event time when the callback carries none, and the bound of one it carries.
 * @throws AppError('validation') naming the field (a repeated parameter, `MessageSid`, `MessageStatus`, `PartIndex`,
 *   `NumSegments`, `RawDlrDoneDate`, `Timestamp`, `ErrorCode`).
 */
function parseSmsStatus(p: Record<string, string | string[]>, now: Date): IncomingReport | 'ignored' {
  const repeated = Object.keys(p)
    .sort()
    .find((k) => Array.isArray(p[k]));
  if (repeated) throw new AppError('validation', `${repeated}: given more than once (a status callback names each parameter once)`, repeated);
  const sid = one(p, 'MessageSid') ?? one(p, 'SmsSid');
  if (!sid) throw new AppError('validation', 'MessageSid: required', 'MessageSid');
  if (!/^[A-Za-z0-9]{2,64}$/.test(sid)) throw new AppError('validation', 'MessageSid: must be letters and digits (SM…)', 'MessageSid');
  const statusField = one(p, 'MessageStatus') !== undefined ? 'MessageStatus' : 'SmsStatus';
  const statusRaw = one(p, statusField);
  if (!statusRaw) throw new AppError('validation', 'MessageStatus: required', 'MessageStatus');
  const status = statusRaw.toLowerCase();
  const kind = ownEntry(smsKinds, status);
  if (!kind) {
    if (smsIgnoredStatuses.includes(status)) return 'ignored';
    const allowed = [...Object.keys(smsKinds), ...smsIgnoredStatuses].join(', ');
    throw new AppError('validation', `${statusField}: "${statusRaw.slice(0, 40)}" is not a status: ${allowed}`, statusField);
  }
  const partRaw = one(p, 'PartIndex');
  let partIndex: number | null = null;
  let partCount: number | null = null;
  if (partRaw !== undefined) {
    const n = one(p, 'NumSegments');
    if (!n) throw new AppError('validation', 'NumSegments: required with PartIndex (the number of parts)', 'NumSegments');
    partCount = wholeNumber(n, 'NumSegments', 1, MAX_SMS_PARTS, 'the most parts one SMS can be sent as');
    partIndex = wholeNumber(partRaw, 'PartIndex', 0, partCount - 1, `below NumSegments ${partCount}`);
  }
  let occurredAt = now;
  const dlr = one(p, 'RawDlrDoneDate');
  const ts = one(p, 'Timestamp');
  if (dlr) occurredAt = eventTime(dlr, 'RawDlrDoneDate', now, parseRawDlrDoneDate, 'YYMMDDhhmm or YYMMDDhhmmss (UTC), a real date and time');
  else if (ts) occurredAt = eventTime(ts, 'Timestamp', now, parseRfc3339Instant, 'an RFC 3339 date-time with Z or an offset');
  const errorCode = one(p, 'ErrorCode') ?? null;
  if (errorCode !== null && !/^\d{1,6}$/.test(errorCode)) throw new AppError('validation', 'ErrorCode: must be a number', 'ErrorCode');
  const payload = Object.fromEntries(Object.entries(p).map(([k, v]) => [k, String(v)]));
  return {
    source: 'sms_api',
    providerEventId: `${sid}:${status}${partIndex !== null ? `:${partIndex}` : ''}`,
    providerMessageId: sid,
    kind,
    occurredAt,
    address: one(p, 'To') ?? null,
    errorCode: errorCode === '0' ? null : errorCode,
    detail: one(p, 'ErrorMessage') ?? (errorCode ? classifyTwilioError(errorCode).description : null),
    partIndex,
    partCount,
    payload,
  };
}

/**
 * The URL Twilio signed for a status callback: SMS_STATUS_CALLBACK_URL when set (the worker gave exactly that URL
 * to the provider), else PUNCTUAL_PUBLIC_URL + {@link SMS_REPORT_PATH} with the request's query string, else the
 * request's own URL.
 */
export function smsCallbackUrl(env: Record<string, string | undefined>, requestUrl: string): string {
  if (env.SMS_STATUS_CALLBACK_URL) return env.SMS_STATUS_CALLBACK_URL;
  const search = new URL(requestUrl).search;
  if (env.PUNCTUAL_PUBLIC_URL) return `${env.PUNCTUAL_PUBLIC_URL.replace(/\/+$/, '')}${SMS_REPORT_PATH}${search}`;
  return requestUrl;
}

/**
 * `POST /api/reports/sms` (module doc).
 * @param url the URL the provider called ({@link smsCallbackUrl}).
 * @param authToken SMS_AUTH_TOKEN; undefined → 503 naming it.
 * @param contentType the request's Content-Type (null when absent → 415); undefined (a caller without HTTP headers): not checked.
 * @param now the receiving instant (and the event time when the callback carries none).
 */
export async function intakeSmsStatus(
  db: Db,
  req: { rawBody: string; signature: string | null; contentType?: string | null; url: string; authToken: string | undefined; now: Date },
): Promise<IntakeAnswer> {
  if (!req.authToken) return refuse(503, 'SMS delivery reports are not configured: set SMS_AUTH_TOKEN (the SMS account’s auth token signs the callbacks)');
  const params = formParams(req.rawBody);
  if (!verifyTwilioSignature(req.authToken, req.url, params, req.signature)) {
    return refuse(401, req.signature ? 'X-Twilio-Signature not valid for this URL and body' : 'X-Twilio-Signature missing');
  }
  if (req.contentType !== undefined && mediaType(req.contentType) !== 'application/x-www-form-urlencoded') {
    return refuse(415, `content-type: must be application/x-www-form-urlencoded (a status callback's form), not ${mediaType(req.contentType) || 'missing'}`, 'content-type');
  }
  const report = parsed(() => parseSmsStatus(params, req.now));
  if (isAnswer(report)) return report;
  if (report === 'ignored') return answer(200, { status: 'ignored', reason: `MessageStatus ${one(params, 'MessageStatus') ?? one(params, 'SmsStatus')} is not a delivery report` });
  return apply(db, report, req.now);
}
