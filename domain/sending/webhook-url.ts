/**
 * Validation of a webhook endpoint URL as staff type it (issue #9 §5), and of the list of origins allowed past the
 * private-address check. Pure.
 *
 * Rules: an absolute URL (WHATWG URL parsing, no base); `https:` only (Standard Webhooks spec "Enforcing
 * HTTPS": the signature authenticates the payload but does not hide it), `http:` too when `allowHttp`
 * (PUNCTUAL_WEBHOOK_ALLOW_HTTP: the local demo, tests); no user name or password in it (credentials in a URL end up
 * in logs and screens — the signing secret authenticates us); at most 2048 characters. Surrounding whitespace is
 * trimmed; the URL returned is the parser's normalised form (lower-case scheme and host, default port dropped),
 * the one to store.
 *
 * The host must be public (SSRF, Standard Webhooks spec "Server side request forgery"; OWASP SSRF Prevention Cheat
 * Sheet): an IP literal in a non-public range (domain/sending/private-address.ts — loopback, private, link-local such as
 * the 169.254.169.254 metadata service, …) is refused, judged after the WHATWG parser has normalised it
 * (`0x7f000001`, `2130706433`, `127.1`, `0177.0.0.1` all become `127.0.0.1`; `[::ffff:127.0.0.1]` becomes
 * `[::ffff:7f00:1]`), and so are the names `localhost` and `*.localhost` with any trailing dots (RFC 6761 §6.3:
 * they always mean the loopback). `allowHttp` does NOT lift this: it only allows the scheme. The one exception is
 * an origin (scheme, host AND port) named in `allowedOrigins` (PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS, parsed by
 * {@link parseAllowedOrigins}): `npm start` names its own built-in receiver there (http://127.0.0.1:<port>), so
 * the demo's webhooks and Slack-compatible alerts reach it while every other loopback or private address —
 * another port on 127.0.0.1 included — is still refused. The allowlist does not allow `http:` by itself.
 *
 * Not checked here: what a DNS name resolves to — that needs DNS, can change between this check and the send
 * (DNS rebinding), and is checked by the channel at connect time (channels/webhook.ts), except for an allowed origin.
 */
import { describePrivateAddress } from './private-address';

/**
 * `code` says which rule failed: `PRIVATE_ADDRESS` for a non-public host (the channel reports it under that code),
 * `INVALID_ENDPOINT` for every other rule.
 */
type WebhookUrlResult = { ok: true; url: string } | { ok: false; code: 'INVALID_ENDPOINT' | 'PRIVATE_ADDRESS'; message: string };

/** What a deployment accepts beyond https to a public host (module doc). */
export interface WebhookUrlPolicy {
  /** Accept the `http:` scheme too (PUNCTUAL_WEBHOOK_ALLOW_HTTP=true). Never lifts the private-address check. */
  allowHttp: boolean;
  /**
   * Origins (`http://127.0.0.1:4010`, as `URL#origin` writes them: lower case, default port dropped) whose host is
   * accepted even when it is not public (PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS). Default: none.
   */
  allowedOrigins?: readonly string[];
}

/** True when the (absolute) `url`'s origin — scheme, host and port — is one of `allowedOrigins`. */
export function isAllowedOrigin(url: string, allowedOrigins: readonly string[] | undefined): boolean {
  if (!allowedOrigins || allowedOrigins.length === 0) return false;
  try {
    return allowedOrigins.includes(new URL(url).origin);
  } catch {
    return false;
  }
}

/**
 * PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS: origins separated by commas or spaces, each an `http(s)://host:port` with no
 * path beyond `/`, no query, fragment, user name or password. Unset or blank → none.
 * @returns the origins normalised as `URL#origin` (`HTTP://127.0.0.1:4010/` → `http://127.0.0.1:4010`), or the first
 *   problem in words starting with the variable's name.
 */
export function parseAllowedOrigins(raw: string | undefined): { ok: true; origins: string[] } | { ok: false; message: string } {
  const origins: string[] = [];
  for (const item of (raw ?? '').split(/[\s,]+/).filter(Boolean)) {
    const bad = (why: string) => ({ ok: false as const, message: `PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS: "${item.slice(0, 100)}" ${why} (expected origins such as http://127.0.0.1:4010, separated by commas)` });
    let u: URL;
    try {
      u = new URL(item);
    } catch {
      return bad('is not an absolute URL');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return bad('is not an http or https origin');
    if (u.username !== '' || u.password !== '') return bad('must not contain a user name or password');
    if (u.pathname !== '/' || u.search !== '' || u.hash !== '') return bad('is not an origin: it has a path, query or fragment');
    if (!origins.includes(u.origin)) origins.push(u.origin);
  }
  return { ok: true, origins };
}

/**
 * Why a URL host (`URL.hostname`: lower case, IPv4 normalised, IPv6 in brackets) is not a public address, e.g.
 * `127.0.0.1 is a loopback address`, `localhost is a loopback name`; null for a DNS name or a public IP literal.
 */
export function privateHostProblem(hostname: string): string | null {
  const name = hostname.replace(/\.+$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return `${hostname} is a loopback name`;
  if (hostname.startsWith('[') && hostname.endsWith(']')) return describePrivateAddress(hostname.slice(1, -1));
  // WHATWG URL parsing turns every IPv4 spelling into a dotted quad; anything else here is a DNS name.
  return /^\d+\.\d+\.\d+\.\d+$/.test(hostname) ? describePrivateAddress(hostname) : null;
}

/** Longest endpoint URL accepted, in characters. */
const maxWebhookUrlLength = 2048;

/** Validates an endpoint URL typed by staff (module rules: `opts.allowHttp` the scheme, `opts.allowedOrigins` the exceptions to the private-address check); never throws. */
export function parseWebhookUrl(input: string, opts: WebhookUrlPolicy): WebhookUrlResult {
  const invalid = (message: string): WebhookUrlResult => ({ ok: false, code: 'INVALID_ENDPOINT', message });
  const text = input.trim();
  if (text === '') return invalid('enter the endpoint URL');
  if (text.length > maxWebhookUrlLength) return invalid(`the endpoint URL is longer than ${maxWebhookUrlLength} characters`);
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return invalid('the endpoint must be an absolute URL such as https://hooks.example.com/punctual');
  }
  if (u.protocol !== 'https:' && !(opts.allowHttp && u.protocol === 'http:')) {
    return invalid(`endpoint must be https (got ${u.protocol.replace(/:$/, '')})`);
  }
  if (u.username !== '' || u.password !== '') {
    return invalid('the endpoint URL must not contain a user name or password; the signing secret authenticates Punctual');
  }
  if (u.hostname === '') return invalid('the endpoint URL has no host');
  if (!isAllowedOrigin(u.href, opts.allowedOrigins)) {
    const problem = privateHostProblem(u.hostname);
    if (problem) return { ok: false, code: 'PRIVATE_ADDRESS', message: `endpoint must be a public address: ${problem}` };
  }
  return { ok: true, url: u.href };
}
