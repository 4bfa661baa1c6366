/**
 * Worker configuration from the environment, validated with zod at the boundary (a bad value stops the
 * process with a line naming the variable). Every setting has a default that suits one machine.
 *
 *   SMTP_URL                      smtp://host:port (see channels/smtp.ts)
 *   HTTP_EMAIL_API_URL, HTTP_EMAIL_API_KEY
 *                                 an HTTP email API (channels/http-email.ts) for tenants whose provider is http_api
 *   PUNCTUAL_RATE_SMTP, PUNCTUAL_RATE_HTTP_API
 *                                 send rate per minute shared by all workers (unset: unlimited)
 *   PUNCTUAL_RETRY_SMTP, PUNCTUAL_RETRY_HTTP_API
 *                                 retry policy "baseMs,capMs,maxAttempts" (default 5000,600000,8)
 *   PUNCTUAL_CLAIM_LEASE_MS (60 000), PUNCTUAL_SEND_LEASE_MS (120 000), PUNCTUAL_STALE_DISPATCH_MS (90 000)
 *   PUNCTUAL_SWEEP_INTERVAL_MS    dispatcher/recovery sweep in each worker besides the minute cron (default off)
 *   WORKER_CONCURRENCY (10), PUNCTUAL_CLOCK_OFFSET_MS (tests only)
 *   WORKER_POLL_INTERVAL_MS (2000) how often an idle worker reads the job queue by itself — a safety net only: jobs
 *                                 added for now start by NOTIFY, jobs whose run_at lies ahead (wake-ups at due instants,
 *                                 retries) by the worker's wake timer at their run_at (jobs/wake-timer.ts), which re-reads
 *                                 at least this often; graphile-worker's own per-slot poll is this × concurrency (≤ 60 s)
 *   PUNCTUAL_SEND_BATCH_MAX (50)  largest send batch: due reminders of one tenant and channel sent by one job, in waves
 *                                 of one transaction each before their provider calls (server/sending/send-batch.ts);
 *                                 1 = one job each. A batch holds no more messages in `sending` than the worker's send
 *                                 window (WORKER_CONCURRENCY), so a killed worker leaves no more `unknown` than the
 *                                 single path did (see BENCHMARKS.md for the rate)
 *   WORKER_LOCAL_QUEUE_SIZE       jobs one fetch locks and hands to this worker's tasks (default 1: off, one fetch
 *                                 per job — graphile-worker 0.18 fails to return a non-empty local queue on a
 *                                 graceful stop, jobs/worker.ts)
 *   SMS_API_URL, SMS_ACCOUNT_SID, SMS_AUTH_TOKEN
 *                                 a Twilio-compatible Messages API (channels/sms.ts); all three or none
 *   SMS_FROM                      default SMS sender (E.164 or alphanumeric id) when a tenant names none
 *   SMS_STATUS_CALLBACK_URL       StatusCallback URL given to the SMS provider (delivery reports, issue #10); the web
 *                                 app verifies X-Twilio-Signature over it (else over PUNCTUAL_PUBLIC_URL + /api/reports/sms)
 *   PUNCTUAL_RATE_SMS_API, PUNCTUAL_RETRY_SMS_API, PUNCTUAL_RETRY_WEBHOOK
 *   PUNCTUAL_PUBLIC_URL           base URL of the web app, for the signed preferences link in every message and
 *                                 the one-click unsubscribe link (List-Unsubscribe) in every non-essential email;
 *                                 an absolute http(s) URL with no path beyond "/" (domain/platform/public-url.ts)
 *   BETTER_AUTH_SECRET            the web app's session secret: both links are signed with keys derived from it
 *   PUNCTUAL_WEBHOOK_ALLOW_HTTP   "true" lets webhooks go to http:// endpoints (local demo and tests only); it does not
 *                                 let them reach loopback or private addresses
 *   PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS
 *                                 origins (http://127.0.0.1:4010, comma-separated) webhooks and Slack alerts may reach
 *                                 although their host is not public: `npm start` names its built-in receiver
 *   PUNCTUAL_WEBHOOK_ALLOW_HTTP   "true" lets webhooks go to http:// endpoints (local demo and tests only)
 *   PUNCTUAL_MAIL_FROM, PUNCTUAL_SENDER_DOMAINS
 *                                 the deployment's own sender address and the operator's sender domains
 *                                 (server/organisations/sender-identity.ts): which address each message goes From
 *   BETTER_AUTH_SECRET            (or AUTH_SECRET) when set, mail sent over SMTP has a VERP bounce address as
 *                                 envelope sender, signed with a key derived from it (server/sending/bounce-address.ts);
 *                                 unset, the envelope sender is the From address and bounces cannot be matched
 * Read by the WEB app's delivery-report routes (issue #10, server/reports/report-intake.ts), not by the worker:
 *   HTTP_EMAIL_WEBHOOK_SECRET     whsec_… secret of the HTTP email provider's event webhook (POST /api/reports/email);
 *                                 unset → that route answers 503 naming it
 *   SMS_AUTH_TOKEN                (above) also verifies the SMS status callbacks (POST /api/reports/sms); unset → 503
 */
import { z } from 'zod';
import { parsePublicUrl } from '@/domain/platform/public-url';
import { parseAllowedOrigins } from '@/domain/sending/webhook-url';
import { defaultRetryPolicy, type RetryPolicy } from '@/domain/sending/retry';
import type { Provider } from '@/domain/vocabulary';
import { bounceAddressKey } from '@/server/sending/bounce-address';
import { preferencesSecret } from '@/server/sending/preference-link';
import { actionLinkSecrets } from '@/server/sending/action-link';
import { unsubscribeSecrets } from '@/server/sending/unsubscribe-link';
import { senderIdentityFromEnv } from '@/server/organisations/sender-config';
import type { SenderIdentityConfig } from '@/domain/organisations/sender-identity';

const ms = z.coerce.number().int().min(100).max(24 * 3600_000);
const perMinute = z.coerce.number().positive().max(1_000_000);
const retry = z
  .string()
  .regex(/^\d+,\d+,\d+$/, 'must be "baseMs,capMs,maxAttempts", e.g. 5000,600000,8')
  .transform((v): RetryPolicy => {
    const [baseMs, capMs, maxAttempts] = v.split(',').map(Number);
    return { baseMs, capMs, maxAttempts };
  });

const envSchema = z.object({
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  HTTP_EMAIL_API_URL: z.url().optional(),
  HTTP_EMAIL_API_KEY: z.string().min(1).optional(),
  PUNCTUAL_RATE_SMTP: perMinute.optional(),
  PUNCTUAL_RATE_HTTP_API: perMinute.optional(),
  PUNCTUAL_RETRY_SMTP: retry.optional(),
  PUNCTUAL_RETRY_HTTP_API: retry.optional(),
  PUNCTUAL_CLAIM_LEASE_MS: ms.default(60_000),
  PUNCTUAL_SEND_LEASE_MS: ms.default(120_000),
  PUNCTUAL_STALE_DISPATCH_MS: ms.default(90_000),
  PUNCTUAL_SEND_BATCH_MAX: z.coerce.number().int().min(1).max(500).default(50),
  PUNCTUAL_SWEEP_INTERVAL_MS: ms.optional(),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(10),
  WORKER_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(2000),
  WORKER_LOCAL_QUEUE_SIZE: z.coerce.number().int().min(1).max(1000).optional(),
  SMS_API_URL: z.url().optional(),
  SMS_ACCOUNT_SID: z.string().min(1).optional(),
  SMS_AUTH_TOKEN: z.string().min(1).optional(),
  SMS_FROM: z.string().min(1).optional(),
  SMS_STATUS_CALLBACK_URL: z.url().optional(),
  PUNCTUAL_RATE_SMS_API: perMinute.optional(),
  PUNCTUAL_RETRY_SMS_API: retry.optional(),
  PUNCTUAL_RETRY_WEBHOOK: retry.optional(),
  PUNCTUAL_PUBLIC_URL: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (!v) return;
      try {
        parsePublicUrl(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message.replace(/^PUNCTUAL_PUBLIC_URL: /, '') });
      }
    }),
  PUNCTUAL_WEBHOOK_ALLOW_HTTP: z.enum(['true', 'false']).optional(),
  PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const r = parseAllowedOrigins(v);
      if (r.ok) return r.origins;
      ctx.addIssue({ code: 'custom', message: r.message.replace(/^PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS: /, '') });
      return z.NEVER;
    }),
});

export interface WorkerConfig {
  smtpUrl?: string;
  httpApi?: { baseUrl: string; apiKey: string };
  rateLimits: Partial<Record<Provider, number>>;
  retryPolicies: Record<Provider, RetryPolicy>;
  sms?: { baseUrl: string; accountSid: string; authToken: string };
  smsFrom?: string;
  smsStatusCallbackUrl?: string;
  /**
   * Public base URL and signing keys of the preferences link and the one-click unsubscribe link (none without
   * PUNCTUAL_PUBLIC_URL: messages then carry neither).
   */
  links?: { publicUrl: string; secret: string; unsubscribeSecret: string; actionSecret: string };
  /** The VERP key for bounce addresses (none without BETTER_AUTH_SECRET: then no VERP envelope sender). */
  bounceKey?: string;
  webhookAllowHttp: boolean;
  /** Origins webhooks and Slack alerts may reach although their host is not public (PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS); unset = none. */
  webhookAllowedOrigins?: readonly string[];
  /** PUNCTUAL_MAIL_FROM and PUNCTUAL_SENDER_DOMAINS (server/organisations/sender-identity.ts). */
  senderIdentity: SenderIdentityConfig;
  claimLeaseMs: number;
  sendLeaseMs: number;
  staleDispatchMs: number;
  /** Largest send batch (PUNCTUAL_SEND_BATCH_MAX; server/sending/dispatch.ts `sendBatchMax`); 1 = one job per reminder. */
  sendBatchMax: number;
  sweepIntervalMs?: number;
  concurrency: number;
  /** The wake timer's longest sleep between reads of the job queue, ms (WORKER_POLL_INTERVAL_MS; module doc, jobs/worker.ts). */
  pollIntervalMs: number;
  /** Jobs locked per fetch into this worker's local queue; 1 = no local queue (WORKER_LOCAL_QUEUE_SIZE). */
  localQueueSize: number;
}

/**
 * Reads the worker configuration. @throws Error whose message names the variable and the rule it broke
 * ("PUNCTUAL_RATE_SMTP: …").
 */
export function readWorkerConfig(env: Record<string, string | undefined> = process.env): WorkerConfig {
  const r = envSchema.safeParse(env);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new Error(`${i.path.join('.')}: ${i.message}`);
  }
  const e = r.data;
  if (!!e.HTTP_EMAIL_API_URL !== !!e.HTTP_EMAIL_API_KEY) {
    throw new Error(`${e.HTTP_EMAIL_API_URL ? 'HTTP_EMAIL_API_KEY' : 'HTTP_EMAIL_API_URL'}: set both HTTP_EMAIL_API_URL and HTTP_EMAIL_API_KEY, or neither`);
  }
  const smsParts = [e.SMS_API_URL, e.SMS_ACCOUNT_SID, e.SMS_AUTH_TOKEN];
  if (smsParts.some(Boolean) && !smsParts.every(Boolean)) {
    const missing = (['SMS_API_URL', 'SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN'] as const).find((k) => !e[k]);
    throw new Error(`${missing}: set SMS_API_URL, SMS_ACCOUNT_SID and SMS_AUTH_TOKEN together, or none`);
  }
  return {
    sms: e.SMS_API_URL ? { baseUrl: e.SMS_API_URL, accountSid: e.SMS_ACCOUNT_SID!, authToken: e.SMS_AUTH_TOKEN! } : undefined,
    smsFrom: e.SMS_FROM,
    smsStatusCallbackUrl: e.SMS_STATUS_CALLBACK_URL,
    // The link is signed with a key derived from BETTER_AUTH_SECRET (server/sending/preference-link.ts): a public URL without it is an error naming it.
    links: e.PUNCTUAL_PUBLIC_URL ? { publicUrl: e.PUNCTUAL_PUBLIC_URL, secret: preferencesSecret(env), unsubscribeSecret: unsubscribeSecrets(env)[0], actionSecret: actionLinkSecrets(env)[0] } : undefined,
    bounceKey: env.BETTER_AUTH_SECRET || env.AUTH_SECRET ? bounceAddressKey(env) : undefined,
    webhookAllowHttp: e.PUNCTUAL_WEBHOOK_ALLOW_HTTP === 'true',
    webhookAllowedOrigins: e.PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS,
    senderIdentity: senderIdentityFromEnv(env),
    smtpUrl: e.SMTP_URL,
    httpApi: e.HTTP_EMAIL_API_URL ? { baseUrl: e.HTTP_EMAIL_API_URL, apiKey: e.HTTP_EMAIL_API_KEY! } : undefined,
    rateLimits: {
      ...(e.PUNCTUAL_RATE_SMTP ? { smtp: e.PUNCTUAL_RATE_SMTP } : {}),
      ...(e.PUNCTUAL_RATE_HTTP_API ? { http_api: e.PUNCTUAL_RATE_HTTP_API } : {}),
      ...(e.PUNCTUAL_RATE_SMS_API ? { sms_api: e.PUNCTUAL_RATE_SMS_API } : {}),
    },
    retryPolicies: {
      smtp: e.PUNCTUAL_RETRY_SMTP ?? defaultRetryPolicy,
      http_api: e.PUNCTUAL_RETRY_HTTP_API ?? defaultRetryPolicy,
      sms_api: e.PUNCTUAL_RETRY_SMS_API ?? defaultRetryPolicy,
      webhook: e.PUNCTUAL_RETRY_WEBHOOK ?? defaultRetryPolicy,
    },
    claimLeaseMs: e.PUNCTUAL_CLAIM_LEASE_MS,
    sendLeaseMs: e.PUNCTUAL_SEND_LEASE_MS,
    staleDispatchMs: e.PUNCTUAL_STALE_DISPATCH_MS,
    sendBatchMax: e.PUNCTUAL_SEND_BATCH_MAX,
    sweepIntervalMs: e.PUNCTUAL_SWEEP_INTERVAL_MS,
    concurrency: e.WORKER_CONCURRENCY,
    pollIntervalMs: e.WORKER_POLL_INTERVAL_MS,
    localQueueSize: e.WORKER_LOCAL_QUEUE_SIZE ?? 1,
  };
}

/**
 * What a worker started with `config` will not do, one sentence each naming the variables that would fix it, for a
 * warning at start: SMS without SMS_API_URL/SMS_ACCOUNT_SID/SMS_AUTH_TOKEN (an SMS it claims becomes a configuration
 * dead letter), emails without unsubscribe and preferences links (no PUNCTUAL_PUBLIC_URL), and emails without a signed
 * bounce address (no BETTER_AUTH_SECRET). Empty when nothing is missing. Pure.
 */
export function workerConfigGaps(config: Pick<WorkerConfig, 'sms' | 'links' | 'bounceKey'>): string[] {
  const gaps: string[] = [];
  if (!config.sms) gaps.push('no SMS provider (SMS_API_URL, SMS_ACCOUNT_SID, SMS_AUTH_TOKEN): an SMS this worker claims becomes a dead letter owned by configuration');
  if (!config.links) gaps.push('no PUNCTUAL_PUBLIC_URL: emails this worker sends carry no unsubscribe (List-Unsubscribe) or preferences links');
  if (!config.bounceKey) gaps.push('no BETTER_AUTH_SECRET: emails this worker sends use the sender as return path, so bounces cannot be matched to deliveries');
  return gaps;
}
