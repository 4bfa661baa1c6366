/**
 * The built-in webhook receiver for the demo (issue #9 §9): an HTTP endpoint on 127.0.0.1 that `npm start` points
 * the demo tenant's webhook at (the seed sets `<catcher url>/hooks/demo`). It stores EVERY delivery in
 * `caught_messages` (`channel` 'webhook'), verified or not, where `/mailbox` shows it beside the email and SMS.
 *
 *   POST /hooks/{tenantSlug}     a Standard Webhooks delivery (channels/webhook.ts)
 *   → 204 (no body)              the signature verified with that tenant's `notification_settings.webhook_secret`
 *   → 401 { error }              it did not (or the tenant or its secret is unknown) — stored all the same
 *   → 404 / 405                  another path / another method on a hook path (nothing stored)
 *   → 413                        a body over 1 MiB (nothing stored)
 *   → 500                        the delivery could not be stored (the sender retries it)
 *
 * Verification is the one a real receiver runs: `new Webhook(secret).verify(rawBody, headers)` from the
 * `standardwebhooks` package (HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, timestamp within 5
 * minutes of this host's clock; https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md).
 * The secret is read for every request, so a rotated secret applies at once.
 *
 *   POST /slack/{tenantSlug}[/{secret}]  a Slack-compatible alert post `{ text }` (issue #10 §6, channels/slack.ts):
 *                                the seed points the demo tenant's alert Slack URL at `/slack/demo/{random secret}`
 *   → 200 `ok`                   the URL is the one in that tenant's alert settings (Slack webhooks carry no
 *                                signature: the URL itself is the secret, so the seed puts one in it — without it
 *                                any local process could post a "verified" alert, issue #12) — stored as verified
 *   → 404 `no_service`           it is not (Slack's answer for an unknown webhook) — stored all the same, marked
 *                                not verified
 *
 * Stored as: message_id = the `webhook-id` header (or null), subject = the payload's `type` (or null; a Slack post:
 * `slack alert`, envelope_to also holds `/slack/{tenantSlug}`, with `/…` standing for a secret segment, which staff who
 * may read the mailbox but not the alert settings must not see),
 * text = the body as pretty-printed JSON (the body verbatim when it is not JSON), envelope_to = [the request
 * path, `/hooks/{tenantSlug}`], tenant_id = the sender's `X-Punctual-Tenant` header (what /mailbox lists a
 * tenant's deliveries by: domain/sending/caught-identity.ts — never the path, which any admin can point anywhere), envelope_from = null,
 * headers = the request headers (lower-case names) plus `verified` (boolean) and `verification` (what the check
 * said), raw = the body as received. No deduplication by webhook-id: a catcher shows every attempt.
 */
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { Db } from '@/db/client';
import { webhookSecretOfTenant } from '@/dev/queries/mailbox';
import { slackUrlOfTenant } from '@/db/queries/alerts/alerts';
import { caughtMessages } from '@/db/schema';
import { TENANT_HEADER, declaredTenant } from '@/domain/sending/caught-identity';

interface WebhookCatcherOptions {
  db: Db;
  /** 0 (default) = any free port. */
  port?: number;
}

export interface WebhookCatcher {
  port: number;
  /** Base URL, e.g. http://127.0.0.1:54321 — a tenant's endpoint is `${url}/hooks/${slug}` ({@link hookUrl}). */
  url: string;
  close(): Promise<void>;
}

const maxBodyBytes = 1024 * 1024;

/** The endpoint URL of `tenantSlug` on a catcher whose base URL is `catcherUrl` (trailing slashes dropped). */
export function hookUrl(catcherUrl: string, tenantSlug: string): string {
  return `${catcherUrl.replace(/\/+$/, '')}/hooks/${encodeURIComponent(tenantSlug)}`;
}

/** The path a tenant's deliveries are stored under (envelope_to), e.g. `/hooks/demo`. */
function hookPath(tenantSlug: string): string {
  return `/hooks/${tenantSlug}`;
}

/** Verification of one delivery: whether it passed, and in words what the check said. */
async function verifyDelivery(db: Db, slug: string, body: string, headers: Record<string, string>): Promise<{ verified: boolean; verification: string }> {
  const found = await webhookSecretOfTenant(db, slug);
  if (!found) return { verified: false, verification: `no tenant "${slug}"` };
  if (!found.secret) return { verified: false, verification: `tenant "${slug}" has no webhook secret` };
  let wh: Webhook;
  try {
    wh = new Webhook(found.secret);
  } catch (e) {
    return { verified: false, verification: `the stored secret cannot be used: ${(e as Error).message}` };
  }
  try {
    wh.verify(body, headers, { jsonParse: false });
    return { verified: true, verification: 'signature valid (standardwebhooks)' };
  } catch (e) {
    return { verified: false, verification: (e as Error).message || 'verification failed' };
  }
}

/**
 * Starts the receiver (module doc) on 127.0.0.1.
 * @throws when the port is taken.
 */
export async function startWebhookCatcher(opts: WebhookCatcherOptions): Promise<WebhookCatcher> {
  const server = http.createServer((req, res) => {
    const answer = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      if (res.headersSent || res.destroyed) return;
      if (body === undefined) {
        res.writeHead(status, headers);
        res.end();
        return;
      }
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= maxBodyBytes) chunks.push(c);
    });
    req.on('error', () => res.destroy());
    /** A Slack-compatible alert post (module doc): stored, `ok` when it came to the tenant's configured alert URL. */
    const catchSlack = async (rawSlug: string, path: string) => {
      if (req.method !== 'POST') return answer(405, { error: 'method not allowed: POST a message' }, { allow: 'POST' });
      if (size > maxBodyBytes) return answer(413, { error: `body over ${maxBodyBytes} bytes` });
      let slug: string;
      try {
        slug = decodeURIComponent(rawSlug);
      } catch {
        return answer(404, { error: 'not found' });
      }
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      try {
        const configured = await slackUrlOfTenant(opts.db, slug);
        const verified = !!configured && new URL(configured).pathname.replace(/\/+$/, '') === path.replace(/\/+$/, '');
        const verification = verified
          ? "posted to the Slack URL in this tenant's alert settings (Slack webhooks carry no signature: the URL is the secret)"
          : `no tenant "${slug}" has this URL as its alert Slack URL`;
        let pretty = body;
        try {
          pretty = JSON.stringify(JSON.parse(body), null, 2);
        } catch {
          /* stored verbatim */
        }
        await opts.db.insert(caughtMessages).values({
          channel: 'webhook',
          // Who sent it: the app's X-Punctual-Tenant request header (domain/sending/caught-identity.ts), never the path.
          tenantId: declaredTenant(req.headersDistinct[TENANT_HEADER.toLowerCase()]),
          envelopeFrom: null,
          envelopeTo: [hookPath(slug), `/slack/${slug}${path.replace(/\/+$/, '').split('/').length > 3 ? '/…' : ''}`],
          messageId: null,
          subject: 'slack alert',
          headers: { ...headers, verified, verification },
          html: null,
          text: pretty,
          raw: body,
        });
        if (!verified) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          return res.end('no_service');
        }
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      } catch (e) {
        console.error('[webhook-catcher]', e);
        return answer(500, { error: 'could not store the message' });
      }
    };
    req.on('end', async () => {
      const path = new URL(req.url ?? '/', 'http://catcher').pathname;
      const slackMatch = /^\/slack\/([^/]+)(?:\/[^/]+)?\/?$/.exec(path);
      if (slackMatch) return void catchSlack(slackMatch[1], path);
      const m = /^\/hooks\/([^/]+)\/?$/.exec(path);
      let slug: string | null = null;
      try {
        slug = m ? decodeURIComponent(m[1]) : null;
      } catch {
        slug = null;
      }
      if (!slug) return answer(404, { error: 'not found: deliveries go to POST /hooks/{tenantSlug} (alert posts: /slack/{tenantSlug})' });
      if (req.method !== 'POST') return answer(405, { error: 'method not allowed: POST a delivery' }, { allow: 'POST' });
      if (size > maxBodyBytes) return answer(413, { error: `body over ${maxBodyBytes} bytes` });

      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      try {
        const { verified, verification } = await verifyDelivery(opts.db, slug, body, headers);
        let payload: unknown;
        let pretty = body;
        try {
          payload = JSON.parse(body);
          pretty = JSON.stringify(payload, null, 2);
        } catch {
          payload = null;
        }
        const type =
          payload && typeof payload === 'object' && !Array.isArray(payload) && typeof (payload as { type?: unknown }).type === 'string'
            ? (payload as { type: string }).type
            : null;
        await opts.db.insert(caughtMessages).values({
          channel: 'webhook',
          // Who sent it: the app's X-Punctual-Tenant request header (domain/sending/caught-identity.ts), never the path.
          tenantId: declaredTenant(req.headersDistinct[TENANT_HEADER.toLowerCase()]),
          envelopeFrom: null,
          envelopeTo: [hookPath(slug)],
          messageId: headers['webhook-id'] ?? null,
          subject: type,
          // Ours last: a request header cannot pose as the verification result.
          headers: { ...headers, verified, verification },
          html: null,
          text: pretty,
          raw: body,
        });
        if (verified) return answer(204);
        return answer(401, { error: `webhook not verified: ${verification}` });
      } catch (e) {
        console.error('[webhook-catcher]', e);
        return answer(500, { error: 'could not store the delivery' });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  server.on('error', (e) => console.error('[webhook-catcher]', e));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
