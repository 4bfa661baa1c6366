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
 *     email.complained → complaint · any other type → 200 `{ status: 'ignored' }`, nothing stored.
 *   providerEventId = the `webhook-id` header; occurredAt = `created_at`; providerMessageId = `data.email_id`.
 *
 * `POST /api/reports/sms` — Twilio-style status callbacks (form body `MessageSid`, `MessageStatus`, `ErrorCode`,
 *   `ErrorMessage`, `To`, `From`, `AccountSid`, …), verified with `X-Twilio-Signature` (domain/twilio-signature.ts)
 *   using SMS_AUTH_TOKEN over the URL the provider called. Statuses: queued/accepted/scheduled/sending → queued,
 *   sent → sent, delivered/read → delivered, undelivered → undelivered, failed → failed; others (canceled, …) → 200
 *   ignored. OUR EXTENSION for multi-part SMS: `PartIndex` (0-based) with `NumSegments` (the number of parts) makes
 *   the callback a report about one part (Twilio itself reports the whole message). Twilio sends no event time:
 *   occurredAt = the receiving instant, unless `RawDlrDoneDate` (the carrier's `YYMMDDhhmm`, read as UTC) or
 *   `Timestamp` (ISO-8601 with offset; our extension) is given. providerEventId = `MessageSid:MessageStatus[:PartIndex]`.
 *
 * Answers (both): bad or missing signature → 401, nothing stored; malformed → 400 naming the field; a report about
 * an unknown message → 202 `{ status: 'unmatched' }` (stored, logged, nothing else changes); applied or a repeat →
 * 200 `{ status: 'applied' | 'duplicate' }`; not configured (no secret) → 503 naming the environment variable.
 */
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import type { Db } from '../db/client';
import { classifyTwilioError } from '../domain/report-state';
import { formParams, verifyTwilioSignature } from '../domain/twilio-signature';
import type { ReportKind } from '../domain/vocabulary';
import { AppError, fromZodError } from './errors';
import { applyReport, type IncomingReport } from './reports';

/** What a route answers: HTTP status and JSON body. */
export interface IntakeAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** Largest report body read, bytes (a provider's event is a few KiB). */
export const MAX_REPORT_BODY_BYTES = 256 * 1024;

/** The path of the SMS status callback route (what PUNCTUAL_PUBLIC_URL is joined with). */
export const SMS_REPORT_PATH = '/api/reports/sms';

const answer = (status: number, body: Record<string, unknown>): IntakeAnswer => ({ status, body });
const refuse = (status: number, error: string, field?: string): IntakeAnswer => answer(status, field ? { error, field } : { error });

/** Maps applyReport's result to the answer (module doc). */
async function apply(db: Db, report: IncomingReport, now: Date): Promise<IntakeAnswer> {
  const r = await applyReport(db, report, now);
  if (r.outcome === 'unmatched') return answer(202, { status: 'unmatched', reportId: r.reportId });
  if (r.outcome === 'duplicate') return answer(200, { status: 'duplicate', reportId: r.reportId });
  return answer(200, { status: 'applied', reportId: r.reportId, deliveryStatus: r.status });
}

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

const validInstant = z.string().refine((v) => !Number.isNaN(Date.parse(v)) && /\d{4}-\d{2}-\d{2}T/.test(v), { message: 'must be an ISO-8601 date-time' });
const emailEventSchema = z.object({
  type: z.string().min(1, 'required'),
  created_at: validInstant,
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
 * @throws AppError('validation') naming the field (`data.email_id`, `created_at`, `data.bounce.type`, …).
 */
export function parseEmailEvent(json: unknown, webhookId: string): IncomingReport | 'ignored' {
  const r = emailEventSchema.safeParse(json);
  if (!r.success) throw fromZodError(r.error);
  const e = r.data;
  const mapped = emailKinds[e.type];
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
    occurredAt: new Date(e.created_at),
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
  let json: unknown;
  try {
    json = JSON.parse(req.rawBody);
  } catch {
    return refuse(400, 'body: not valid JSON', 'body');
  }
  const report = parsed(() => parseEmailEvent(json, headers['webhook-id']));
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

/** One value of a form parameter (the first when repeated), trimmed; undefined when absent or empty. */
function one(p: Record<string, string | string[]>, name: string): string | undefined {
  const v = p[name];
  const s = (Array.isArray(v) ? v[0] : v)?.trim();
  return s ? s : undefined;
}

/** Twilio's `RawDlrDoneDate` (`YYMMDDhhmm`, optionally `ss`), read as UTC. Null when it is not such a date. */
export function parseRawDlrDoneDate(v: string): Date | null {
  const m = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?$/.exec(v);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [2000 + Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && h < 24 && mi < 60 && s < 60 ? t : null;
}

/** A whole number ≥ `min` from a form value. @throws AppError('validation') naming `field`. */
function wholeNumber(v: string, field: string, min: number): number {
  if (!/^\d{1,4}$/.test(v) || Number(v) < min) throw new AppError('validation', `${field}: must be a whole number ≥ ${min}`, field);
  return Number(v);
}

/**
 * Parses one verified status callback into a report (module doc), or `'ignored'` for a status that is not a report.
 * @param now the receiving instant: the event time when the callback carries none.
 * @throws AppError('validation') naming the field (`MessageSid`, `MessageStatus`, `PartIndex`, `NumSegments`, …).
 */
export function parseSmsStatus(p: Record<string, string | string[]>, now: Date): IncomingReport | 'ignored' {
  const sid = one(p, 'MessageSid') ?? one(p, 'SmsSid');
  if (!sid) throw new AppError('validation', 'MessageSid: required', 'MessageSid');
  if (!/^[A-Za-z0-9]{2,64}$/.test(sid)) throw new AppError('validation', 'MessageSid: must be letters and digits (SM…)', 'MessageSid');
  const status = (one(p, 'MessageStatus') ?? one(p, 'SmsStatus'))?.toLowerCase();
  if (!status) throw new AppError('validation', 'MessageStatus: required', 'MessageStatus');
  const kind = smsKinds[status];
  if (!kind) return 'ignored';
  const partRaw = one(p, 'PartIndex');
  const partIndex = partRaw === undefined ? null : wholeNumber(partRaw, 'PartIndex', 0);
  let partCount: number | null = null;
  if (partIndex !== null) {
    const n = one(p, 'NumSegments');
    if (!n) throw new AppError('validation', 'NumSegments: required with PartIndex (the number of parts)', 'NumSegments');
    partCount = wholeNumber(n, 'NumSegments', 1);
    if (partIndex >= partCount) throw new AppError('validation', `PartIndex: must be below NumSegments (${partCount})`, 'PartIndex');
  }
  let occurredAt = now;
  const dlr = one(p, 'RawDlrDoneDate');
  const ts = one(p, 'Timestamp');
  if (dlr) {
    const d = parseRawDlrDoneDate(dlr);
    if (!d) throw new AppError('validation', 'RawDlrDoneDate: must be YYMMDDhhmm (UTC)', 'RawDlrDoneDate');
    occurredAt = d;
  } else if (ts) {
    if (!/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(ts) || Number.isNaN(Date.parse(ts))) {
      throw new AppError('validation', 'Timestamp: must be an ISO-8601 date-time with an offset', 'Timestamp');
    }
    occurredAt = new Date(ts);
  }
  const errorCode = one(p, 'ErrorCode') ?? null;
  if (errorCode !== null && !/^\d{1,6}$/.test(errorCode)) throw new AppError('validation', 'ErrorCode: must be a number', 'ErrorCode');
  const payload = Object.fromEntries(Object.entries(p).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]));
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
 * @param now the receiving instant (and the event time when the callback carries none).
 */
export async function intakeSmsStatus(db: Db, req: { rawBody: string; signature: string | null; url: string; authToken: string | undefined; now: Date }): Promise<IntakeAnswer> {
  if (!req.authToken) return refuse(503, 'SMS delivery reports are not configured: set SMS_AUTH_TOKEN (the SMS account’s auth token signs the callbacks)');
  const params = formParams(req.rawBody);
  if (!verifyTwilioSignature(req.authToken, req.url, params, req.signature)) {
    return refuse(401, req.signature ? 'X-Twilio-Signature not valid for this URL and body' : 'X-Twilio-Signature missing');
  }
  const report = parsed(() => parseSmsStatus(params, req.now));
  if (isAnswer(report)) return report;
  if (report === 'ignored') return answer(200, { status: 'ignored', reason: `MessageStatus ${one(params, 'MessageStatus') ?? one(params, 'SmsStatus')} is not a delivery report` });
  return apply(db, report, req.now);
}
