/**
 * The web app's own settings (issue #12), checked once when the web server starts (instrumentation.ts) so that a
 * bad value stops it with a line naming the variable, instead of failing requests later:
 *
 *   PUNCTUAL_PUBLIC_URL               the public origin (domain/platform/public-url.ts): the Origin check, better-auth,
 *                                     HSTS; unset → http://127.0.0.1:$PORT and http://localhost:$PORT
 *   PUNCTUAL_MAX_BODY_BYTES           largest request body an API route reads (default 1 MiB; 413 above it,
 *                                     server/platform/request-body.ts)
 *   PUNCTUAL_DB_STATEMENT_TIMEOUT_MS  every web query's time limit (default 15 000; 0 = off; db/client.ts)
 *   PUNCTUAL_TRUSTED_PROXIES          reverse proxies whose X-Forwarded-For is believed (server/platform/client-address.ts)
 *   PUNCTUAL_SHUTDOWN_DRAIN_MS        SIGTERM → exit, answering "not ready" meanwhile (server/platform/web-shutdown.ts)
 *   PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS  origins the webhook and alert settings may name although not public
 *                                     (server/notifications/notification-settings.ts webhookUrlPolicy)
 *   PUNCTUAL_MAIL_FROM, PUNCTUAL_SENDER_DOMAINS  the deployment's sender and sender domains (server/organisations/sender-identity.ts)
 *   DATABASE_URL's TLS parameters     sslmode, sslrootcert, sslcert, sslkey (db/url.ts tlsFromUrl)
 */
import { statementTimeoutFromEnv } from '@/db/client';
import { tlsFromUrl } from '@/db/url';
import { publicBaseUrl } from '@/domain/platform/public-url';
import { trustedProxiesFromEnv } from './client-address';
import { webhookUrlPolicy } from '@/server/notifications/notification-settings';
import { maxBodyBytesFromEnv } from './request-body';
import { shutdownDrainFromEnv } from './web-shutdown';
import { senderIdentityFromEnv } from '@/server/organisations/sender-config';

/**
 * Validates the web settings above.
 * @throws Error whose message starts with the variable's name and says what it must be.
 */
export function checkWebSettings(env: Readonly<Record<string, string | undefined>>): void {
  publicBaseUrl(env);
  maxBodyBytesFromEnv(env);
  statementTimeoutFromEnv(env);
  trustedProxiesFromEnv(env);
  shutdownDrainFromEnv(env);
  webhookUrlPolicy(env);
  senderIdentityFromEnv(env);
  if (env.DATABASE_URL) tlsFromUrl(env.DATABASE_URL, env);
}

/** {@link checkWebSettings} on `process.env`; a bad value is printed (`[punctual] PUNCTUAL_…: …`) and the process exits 2. */
export function checkWebSettingsOrExit(): void {
  try {
    checkWebSettings(process.env);
  } catch (e) {
    console.error(`[punctual] ${(e as Error).message}`);
    process.exit(2);
  }
}
