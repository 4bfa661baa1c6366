/**
 * The operator's sender settings from the environment (server/organisations/sender-identity.ts has the rules): PUNCTUAL_MAIL_FROM
 * and PUNCTUAL_SENDER_DOMAINS. Its own small module (zod and domain/ only), so the web app's start-up check
 * (server/platform/web-settings.ts) and the start script load no database code for it.
 */
import { z } from 'zod';
import { parseSenderDomains, type SenderIdentityConfig } from '@/domain/organisations/sender-identity';

/** The default of PUNCTUAL_MAIL_FROM (the schema's default sender address of a tenant created without one). */
export const DEFAULT_MAIL_FROM = 'reminders@punctual.local';

const mailFrom = z.email('must be one email address such as reminders@mail.example.com');

/**
 * The operator's sender settings from the environment (module doc).
 * @throws Error starting with the variable's name when a value is invalid.
 */
export function senderIdentityFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): SenderIdentityConfig {
  // Read once per distinct setting (every send asks): a changed environment is read anew.
  const key = `${env.PUNCTUAL_MAIL_FROM ?? ''}\n${env.PUNCTUAL_SENDER_DOMAINS ?? ''}`;
  if (cached?.key === key) return cached.cfg;
  const cfg = parseSenderIdentity(env);
  cached = { key, cfg };
  return cfg;
}

let cached: { key: string; cfg: SenderIdentityConfig } | null = null;

function parseSenderIdentity(env: Readonly<Record<string, string | undefined>>): SenderIdentityConfig {
  const from = env.PUNCTUAL_MAIL_FROM?.trim() || DEFAULT_MAIL_FROM;
  const f = mailFrom.safeParse(from);
  if (!f.success) throw new Error(`PUNCTUAL_MAIL_FROM: ${f.error.issues[0]!.message} (got ${JSON.stringify(from.slice(0, 80))})`);
  const d = parseSenderDomains(env.PUNCTUAL_SENDER_DOMAINS);
  if (!d.ok) throw new Error(`PUNCTUAL_SENDER_DOMAINS: ${JSON.stringify(d.invalid.slice(0, 80))} is not a domain name (list domains such as example.com, separated by commas)`);
  return { defaultSender: from, allowedDomains: d.domains };
}
