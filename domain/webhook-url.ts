/**
 * Validation of a webhook endpoint URL as staff type it (issue #9 §5). Pure.
 *
 * Rules: an absolute URL (WHATWG URL parsing, no base); `https:` only (Standard Webhooks spec "Enforcing
 * HTTPS": the signature authenticates the payload but does not hide it), `http:` too when `allowHttp` (tests
 * and the local demo on http://127.0.0.1); no user name or password in it (credentials in a URL end up in
 * logs and screens — the signing secret authenticates us); at most 2048 characters. Surrounding whitespace is
 * trimmed; the URL returned is the parser's normalised form (lower-case scheme and host, default port dropped),
 * the one to store.
 *
 * Unless `allowHttp` (production), the host must be public (SSRF, Standard Webhooks spec "Server side request
 * forgery"; OWASP SSRF Prevention Cheat Sheet): an IP literal in a non-public range (domain/private-address.ts —
 * loopback, private, link-local such as the 169.254.169.254 metadata service, …) is refused, judged after the
 * WHATWG parser has normalised it (`0x7f000001`, `2130706433`, `127.1`, `0177.0.0.1` all become `127.0.0.1`;
 * `[::ffff:127.0.0.1]` becomes `[::ffff:7f00:1]`), and so are the names `localhost` and `*.localhost` with any
 * trailing dots (RFC 6761 §6.3: they always mean the loopback). With `allowHttp` (local demo, tests) they are
 * accepted.
 *
 * Not checked here: what a DNS name resolves to — that needs DNS, can change between this check and the send
 * (DNS rebinding), and is checked by the channel at connect time (channels/webhook.ts).
 */
import { describePrivateAddress } from './private-address';

/**
 * `code` says which rule failed: `PRIVATE_ADDRESS` for a non-public host (the channel reports it under that code),
 * `INVALID_ENDPOINT` for every other rule.
 */
export type WebhookUrlResult = { ok: true; url: string } | { ok: false; code: 'INVALID_ENDPOINT' | 'PRIVATE_ADDRESS'; message: string };

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
export const maxWebhookUrlLength = 2048;

/** Validates an endpoint URL typed by staff (module rules); never throws. */
export function parseWebhookUrl(input: string, opts: { allowHttp: boolean }): WebhookUrlResult {
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
  if (!opts.allowHttp) {
    const problem = privateHostProblem(u.hostname);
    if (problem) return { ok: false, code: 'PRIVATE_ADDRESS', message: `endpoint must be a public address: ${problem}` };
  }
  return { ok: true, url: u.href };
}
