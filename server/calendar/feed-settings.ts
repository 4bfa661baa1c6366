/**
 * Where staff-facing feed addresses point and how they are signed, from this process's environment: the public base
 * URL (domain/platform/public-url.ts `publicBaseUrl`) and the signing key (server/calendar/feed-link.ts
 * `feedSecrets`, null when no session secret is set — then no address is shown).
 */
import { publicBaseUrl } from '@/domain/platform/public-url';
import { feedSecrets } from './feed-link';

/** `{ baseUrl, secret }` for server/calendar/calendar-feed.ts `feedViewOf` / `changeFeed`. */
export function feedLinkSettings(env: Record<string, string | undefined> = process.env): { baseUrl: string; secret: string | null } {
  let secret: string | null = null;
  try {
    secret = feedSecrets(env)[0];
  } catch {
    secret = null;
  }
  return { baseUrl: publicBaseUrl(env), secret };
}
