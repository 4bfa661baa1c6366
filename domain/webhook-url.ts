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
 * Not checked here: whether the host resolves to a private address (SSRF, spec "Server side request
 * forgery") — that needs DNS and belongs to the network layer.
 */

export type WebhookUrlResult = { ok: true; url: string } | { ok: false; message: string };

/** Longest endpoint URL accepted, in characters. */
export const maxWebhookUrlLength = 2048;

/** Validates an endpoint URL typed by staff (module rules); never throws. */
export function parseWebhookUrl(input: string, opts: { allowHttp: boolean }): WebhookUrlResult {
  const text = input.trim();
  if (text === '') return { ok: false, message: 'enter the endpoint URL' };
  if (text.length > maxWebhookUrlLength) return { ok: false, message: `the endpoint URL is longer than ${maxWebhookUrlLength} characters` };
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return { ok: false, message: 'the endpoint must be an absolute URL such as https://hooks.example.com/punctual' };
  }
  if (u.protocol !== 'https:' && !(opts.allowHttp && u.protocol === 'http:')) {
    return { ok: false, message: `endpoint must be https (got ${u.protocol.replace(/:$/, '')})` };
  }
  if (u.username !== '' || u.password !== '') {
    return { ok: false, message: 'the endpoint URL must not contain a user name or password; the signing secret authenticates Punctual' };
  }
  if (u.hostname === '') return { ok: false, message: 'the endpoint URL has no host' };
  return { ok: true, url: u.href };
}
