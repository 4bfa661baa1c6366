/**
 * Twilio's request signature (`X-Twilio-Signature`), as documented in "Webhooks security — validating requests"
 * (https://www.twilio.com/docs/usage/webhooks/webhooks-security) and implemented by twilio-node's
 * `getExpectedTwilioSignature`/`validateRequest`:
 *
 *   1. take the full URL Twilio requested (scheme, host, port, path and query string, exactly as configured);
 *   2. for a POST with `application/x-www-form-urlencoded` parameters, sort the parameter names (plain code-unit
 *      order) and append each name immediately followed by its value (a name given several times: the name
 *      with each DISTINCT value, values sorted — twilio-node `toFormUrlEncodedParam` does
 *      `Array.from(new Set(values)).sort()`, twilio-python `compute_signature` `sorted(set(values))`);
 *   3. HMAC-SHA1 that string (UTF-8) with the account's Auth Token as the key;
 *   4. Base64 (standard alphabet, with padding) is the header value.
 *
 * Used both ways: the SMS status-callback route verifies with it (server/reports/report-intake.ts), and the test peer and
 * the demo SMS catcher sign their callbacks with it. Pure apart from node:crypto (no I/O, no clock).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Form parameters: one value per name, or several (a repeated name). */
type TwilioParams = Readonly<Record<string, string | readonly string[]>>;

/**
 * The string Twilio signs: `url` followed by every `name + value` in name order (module doc, step 2). Note what
 * it does NOT cover: the order of a repeated name's values (and how often a value repeats), so a receiver must not
 * give "the first value" a meaning — the SMS status intake refuses repeated names (server/reports/report-intake.ts).
 */
export function twilioSignedString(url: string, params: TwilioParams): string {
  let s = url;
  for (const name of Object.keys(params).sort()) {
    const v = params[name];
    const values = typeof v === 'string' ? [v] : [...new Set(v)].sort();
    for (const value of values) s += name + value;
  }
  return s;
}

/** The `X-Twilio-Signature` value for a request to `url` with POST `params`, signed with `authToken`. */
export function twilioSignature(authToken: string, url: string, params: TwilioParams): string {
  return createHmac('sha1', authToken).update(Buffer.from(twilioSignedString(url, params), 'utf8')).digest('base64');
}

/**
 * Whether `signature` (the header value; null/empty when absent) is Twilio's signature of the request.
 * Constant-time: both sides are hashed to a fixed length before `timingSafeEqual`, so neither the content nor the
 * length of the expected value leaks through timing.
 */
export function verifyTwilioSignature(authToken: string, url: string, params: TwilioParams, signature: string | null | undefined): boolean {
  if (!signature || !authToken) return false;
  const h = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(h(twilioSignature(authToken, url, params)), h(signature.trim()));
}

/**
 * The parameters of a form body (`application/x-www-form-urlencoded`) as Twilio signs them: every name with its
 * value(s), `+` as space and percent-decoding per the WHATWG URL standard. The object has no prototype.
 */
export function formParams(body: string): Record<string, string | string[]> {
  // No prototype: a parameter named `constructor` or `__proto__` is just a parameter (issue #12).
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [k, v] of new URLSearchParams(body)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}
