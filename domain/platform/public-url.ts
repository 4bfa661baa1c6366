/**
 * The web app's public URL (`PUNCTUAL_PUBLIC_URL`) and the origins a browser request may come from (pure; the
 * environment is passed in). Issue #12: the Origin check (CSRF defence, app/_http/session.ts) and better-auth's
 * trusted origins come from this setting, never from `Host`/`X-Forwarded-Host`, which any client can send.
 *
 * - Set: one absolute `http://` or `https://` URL with no path beyond `/`, no query, no fragment and no user
 *   name or password, e.g. `https://punctual.example.org` or `http://10.0.0.5:3000/`. Its origin is the only one
 *   trusted; links in messages and alerts are made absolute with it.
 * - Unset: the local default `http://127.0.0.1:$PORT` (links) and BOTH `http://127.0.0.1:$PORT` and
 *   `http://localhost:$PORT` as trusted origins, so a browser on the same machine works whichever name it uses.
 *   `PORT` defaults to 3000 (Next's own default).
 */

/** The environment (`process.env` or a plain object): PUNCTUAL_PUBLIC_URL and PORT are read. */
type PublicUrlEnv = Readonly<Record<string, string | undefined>>;

/**
 * The origin (`scheme://host[:port]`, lower-case host, default port dropped, no trailing slash) of a
 * PUNCTUAL_PUBLIC_URL value.
 * @throws Error whose message starts with `PUNCTUAL_PUBLIC_URL:` and says which rule the value broke.
 */
export function parsePublicUrl(raw: string): string {
  const value = raw.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUNCTUAL_PUBLIC_URL: "${raw}" is not an absolute URL; use e.g. https://punctual.example.org`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`PUNCTUAL_PUBLIC_URL: must start with http:// or https://, not ${url.protocol}//`);
  if (url.username || url.password) throw new Error('PUNCTUAL_PUBLIC_URL: must not contain a user name or password');
  if (url.pathname !== '/') throw new Error(`PUNCTUAL_PUBLIC_URL: must have no path beyond "/" (the app is served at the root), not "${url.pathname}"`);
  if (url.search || value.includes('?')) throw new Error('PUNCTUAL_PUBLIC_URL: must have no query string');
  if (url.hash || value.includes('#')) throw new Error('PUNCTUAL_PUBLIC_URL: must have no fragment (#…)');
  return url.origin;
}

/** The port the web app listens on: PORT, else 3000. */
function port(env: PublicUrlEnv): string {
  const p = env.PORT?.trim();
  return p && /^\d{1,5}$/.test(p) ? p : '3000';
}

/**
 * The base URL links are made absolute with (no trailing slash): the PUNCTUAL_PUBLIC_URL origin, else
 * `http://127.0.0.1:$PORT`. @throws like {@link parsePublicUrl} for an invalid setting.
 */
export function publicBaseUrl(env: PublicUrlEnv): string {
  return env.PUNCTUAL_PUBLIC_URL?.trim() ? parsePublicUrl(env.PUNCTUAL_PUBLIC_URL) : `http://127.0.0.1:${port(env)}`;
}

/**
 * The origins a state-changing browser request may carry in its `Origin` header: the PUNCTUAL_PUBLIC_URL
 * origin alone, else `http://127.0.0.1:$PORT` and `http://localhost:$PORT`. @throws like {@link parsePublicUrl}.
 */
export function trustedOrigins(env: PublicUrlEnv): string[] {
  if (env.PUNCTUAL_PUBLIC_URL?.trim()) return [parsePublicUrl(env.PUNCTUAL_PUBLIC_URL)];
  return [`http://127.0.0.1:${port(env)}`, `http://localhost:${port(env)}`];
}

/** Whether the app is served over HTTPS (the public URL is https): decides Strict-Transport-Security. */
export function servedOverHttps(env: PublicUrlEnv): boolean {
  return publicBaseUrl(env).startsWith('https://');
}

/**
 * Whether a request's `Origin` header names one of the {@link trustedOrigins}. A missing header, `null`
 * (opaque origins: sandboxed frames, some redirects) or any other origin is false; the header is compared
 * exactly as browsers serialise it.
 */
export function isTrustedOrigin(origin: string | null | undefined, env: PublicUrlEnv): boolean {
  if (!origin || origin === 'null') return false;
  return trustedOrigins(env).includes(origin);
}
