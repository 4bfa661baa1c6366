/**
 * Webhook signing secrets in the Standard Webhooks format (spec "Signature scheme", symmetric column):
 * `whsec_` followed by the standard base64 (RFC 4648 §4, with `=` padding) of a random key of at least 24 bytes
 * (192 bits) and at most 64 bytes (512 bits). The key signs `{webhook-id}.{webhook-timestamp}.{body}` with
 * HMAC-SHA256. One secret per endpoint (the spec: never reuse keys across customers).
 *
 * Pure: generating a secret needs randomness, so `newWebhookSecret()` (channels/webhook.ts) draws the bytes and
 * {@link formatWebhookSecret} here formats them.
 */

/** The prefix that marks a symmetric Standard Webhooks secret. */
const webhookSecretPrefix = 'whsec_';
/** Key length bounds in bytes (spec: 24 bytes minimum, 512 bits maximum). */
const webhookSecretMinBytes = 24;
const webhookSecretMaxBytes = 64;

/** `whsec_<base64(key)>`. @throws RangeError when the key is shorter than 24 or longer than 64 bytes. */
export function formatWebhookSecret(key: Uint8Array): string {
  if (key.length < webhookSecretMinBytes || key.length > webhookSecretMaxBytes) {
    throw new RangeError(`a webhook secret key has ${webhookSecretMinBytes}–${webhookSecretMaxBytes} bytes, got ${key.length}`);
  }
  return `${webhookSecretPrefix}${Buffer.from(key).toString('base64')}`;
}

/**
 * True when `s` is `whsec_` + canonical padded base64 of a 24–64-byte key (what {@link formatWebhookSecret}
 * produces and what the `standardwebhooks` library decodes). URL-safe base64, missing padding or whitespace
 * are refused, so a secret pasted with a stray character is caught before the first send.
 */
export function isWebhookSecret(s: unknown): s is string {
  if (typeof s !== 'string' || !s.startsWith(webhookSecretPrefix)) return false;
  const b64 = s.slice(webhookSecretPrefix.length);
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return false;
  const key = Buffer.from(b64, 'base64');
  return key.length >= webhookSecretMinBytes && key.length <= webhookSecretMaxBytes && key.toString('base64') === b64;
}
