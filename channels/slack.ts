/**
 * Slack-compatible incoming webhook (issue #10 §6: alerts to a person): POSTs `{ "text": "…" }` as JSON to the
 * URL an admin pasted (Slack "Sending messages using incoming webhooks"; Mattermost, Rocket.Chat and Discord's
 * `/slack` endpoints accept the same body). The text uses Slack mrkdwn, links as `<url|label>`.
 *
 *   POST <webhook URL>
 *   content-type: application/json
 *   user-agent: Punctual-Alerts/1
 *   {"text":"…"}
 *
 * Answers are classified like an outbound webhook's (domain/sending/webhook-outcome.ts): 2xx accepted; 429 rate-limited
 * with Retry-After; 408/5xx ambiguous; 3xx and other 4xx rejected (Slack answers 400 `invalid_payload`, 403
 * `action_prohibited`, 404 `no_service`, 410 `channel_is_archived`). A failure before the socket was ready is
 * transient, after it ambiguous (domain/alerts/messages.ts decideAlertSend retries both: an alert twice beats none).
 *
 * Server-side request forgery: the same rules as channels/webhook.ts — unless `allowHttp`, the URL must be https;
 * always, domain/sending/webhook-url.ts parseWebhookUrl refuses non-public IP literals and `localhost`, and the connection's
 * own `lookup` ({@link checkedLookup}) refuses a name that resolves to any non-public address, before any byte is
 * sent. `allowHttp` (PUNCTUAL_WEBHOOK_ALLOW_HTTP=true) allows the http scheme only; an origin named in
 * `allowedOrigins` (PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS: the demo's Slack-compatible receiver) is the one exception to
 * both address checks.
 */
import http from 'node:http';
import https from 'node:https';
import type { Outcome } from '@/domain/sending/outcome';
import { classifyWebhookNetworkError, classifyWebhookResponse } from '@/domain/sending/webhook-outcome';
import { isAllowedOrigin, parseWebhookUrl } from '@/domain/sending/webhook-url';
import { checkedLookup, PrivateAddressError } from './webhook';
import { identityHeaders } from '@/domain/sending/caught-identity';

export interface SlackPoster {
  /** Posts `{ text }` to `url`; never throws for a receiver or network failure. `now`: for a Retry-After date. */
  /** `opts.tenantId`: the tenant the alert is for, sent as `X-Punctual-Tenant` (domain/sending/caught-identity.ts). */
  post(url: string, text: string, opts: { now: Date; tenantId: string; signal?: AbortSignal }): Promise<Outcome>;
}

interface SlackPosterOptions {
  /** Whole-request deadline, ms (default 10 000). */
  timeoutMs?: number;
  /** Accept http:// URLs (PUNCTUAL_WEBHOOK_ALLOW_HTTP). Default false. Never non-public addresses. */
  allowHttp?: boolean;
  /** Origins called even though their host is not public (PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS). Default: none. */
  allowedOrigins?: readonly string[];
}

/** The `user-agent` of every post. */
const slackUserAgent = 'Punctual-Alerts/1';

/** Creates a poster (module doc). Each post opens its own connection (alerts are rare). */
export function createSlackPoster(opts: SlackPosterOptions = {}): SlackPoster {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const policy = { allowHttp: opts.allowHttp ?? false, allowedOrigins: opts.allowedOrigins ?? [] };
  const checked = checkedLookup();
  return {
    async post(rawUrl, text, o) {
      const target = parseWebhookUrl(rawUrl, policy);
      if (!target.ok) return { class: 'rejected', kind: 'permission', code: target.code, message: target.message };
      // An allowed origin (the demo's own receiver) is connected to as named; every other host through the checked lookup.
      const lookup = isAllowedOrigin(target.url, policy.allowedOrigins) ? undefined : checked;
      const url = new URL(target.url);
      const body = JSON.stringify({ text });
      const secure = url.protocol === 'https:';
      try {
        const res = await new Promise<{ status: number; body: string; retryAfter: string | null }>((resolve, reject) => {
          let written = false;
          const req = (secure ? https : http).request(
            url,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'user-agent': slackUserAgent, 'content-length': String(Buffer.byteLength(body)), ...identityHeaders(o) },
              signal: o.signal,
              timeout: timeoutMs,
              ...(lookup ? { lookup } : {}),
            },
            (r) => {
              const chunks: Buffer[] = [];
              r.on('data', (c: Buffer) => chunks.length < 64 && chunks.push(c));
              r.on('end', () => {
                const ra = r.headers['retry-after'];
                resolve({ status: r.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, 2000), retryAfter: (Array.isArray(ra) ? ra[0] : ra) ?? null });
              });
              r.on('error', (e) => reject(Object.assign(e, { requestWritten: written })));
            },
          );
          req.on('socket', (s) => {
            if (s.connecting) s.once(secure ? 'secureConnect' : 'connect', () => (written = true));
            else written = true;
          });
          req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
          req.on('error', (e) => reject(Object.assign(e, { requestWritten: written })));
          req.end(body);
        });
        return classifyWebhookResponse({ status: res.status, bodyText: res.body, retryAfter: res.retryAfter }, o.now);
      } catch (e) {
        if (e instanceof PrivateAddressError) return { class: 'rejected', kind: 'permission', code: 'PRIVATE_ADDRESS', message: e.message };
        const err = e as Error & { code?: string; requestWritten?: boolean };
        const code = err.name === 'AbortError' ? 'ETIMEDOUT' : (err.code ?? 'ERROR');
        return classifyWebhookNetworkError({ code, message: err.message, requestWritten: err.requestWritten ?? false });
      }
    },
  };
}
