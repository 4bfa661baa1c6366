/**
 * Who sent a message, as the sender declares it to the built-in catchers (the development mailbox).
 *
 * Every message Punctual sends — email (SMTP or HTTP email API), SMS (Twilio-compatible API) and webhook or Slack
 * POSTs — carries the id of the tenant it was sent for in one {@link TENANT_HEADER} header, written by the channel
 * adapter from the message's `tenantId` (channels/types.ts), which the producer takes from the delivery, alert,
 * test message or account mail that made it. The catchers record that id on the stored message
 * (`caught_messages.tenant_id`) and the mailbox lists by it alone — never by comparing a From address or SMS
 * sender with a tenant's settings, which any admin can set to another organisation's (an address says nothing
 * about who sent).
 *
 * The catchers take a declaration only from an authenticated client (SMTP AUTH, the SMS API's Basic auth) or, for
 * the webhook receiver, from the app's own POST; only the app's code writes the header, and nothing a person types
 * reaches a header name. Real providers ignore unknown headers (`X-` headers are passed through or dropped).
 *
 * Account mail (password reset, sign-in and verification links) additionally carries
 * `{@link CATEGORY_HEADER}: account`: the mailbox lists it only to a staff member signed in as its recipient.
 */

/** The header naming the sending tenant (a UUID), on email, the SMS API request and webhook/Slack POSTs. */
export const TENANT_HEADER = 'X-Punctual-Tenant';
/** The header marking account mail: `X-Punctual-Category: account`. */
export const CATEGORY_HEADER = 'X-Punctual-Category';
/** The {@link CATEGORY_HEADER} value of account mail. */
const ACCOUNT_CATEGORY = 'account';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The tenant a message declares, from the values of its {@link TENANT_HEADER} header as received (none, one, or —
 * should anything ever add a second — several). Exactly one value that is a UUID → that id in lower case;
 * anything else (absent, empty, not a UUID, two values even when equal) → null: the message is attributed to
 * nobody and shown to nobody, rather than guessed.
 */
export function declaredTenant(values: readonly (string | undefined | null)[] | string | undefined | null): string | null {
  const list = (Array.isArray(values) ? values : [values]).filter((v): v is string => typeof v === 'string');
  if (list.length !== 1) return null;
  const v = list[0].trim();
  return UUID.test(v) ? v.toLowerCase() : null;
}

/** Whether the {@link CATEGORY_HEADER} values mark account mail (exactly `account`, any case, once or more). */
export function isAccountMail(values: readonly (string | undefined | null)[] | string | undefined | null): boolean {
  const list = (Array.isArray(values) ? values : [values]).filter((v): v is string => typeof v === 'string');
  return list.some((v) => v.trim().toLowerCase() === ACCOUNT_CATEGORY);
}

/**
 * Whether a staff member signed in as `viewerEmail` is a recipient of a message sent to `recipients` (envelope
 * recipients, RCPT TO): the same address, compared case-insensitively after trimming (the domain part is
 * case-insensitive by RFC 5321 §2.4; the local part is compared without case too, as every mailbox provider
 * Punctual targets does and as staff addresses are stored in lower case).
 */
export function isRecipient(viewerEmail: string | null | undefined, recipients: readonly string[]): boolean {
  if (!viewerEmail) return false;
  const me = viewerEmail.trim().toLowerCase();
  return me !== '' && recipients.some((r) => r.trim().toLowerCase() === me);
}

/**
 * The identity headers of one outgoing message: `{ 'X-Punctual-Tenant': tenantId }`, plus
 * `X-Punctual-Category: account` for account mail. Channel adapters merge these LAST over any other headers, so
 * no other header of the message can stand in for them.
 */
export function identityHeaders(m: { tenantId: string; accountMail?: boolean }): Record<string, string> {
  return { [TENANT_HEADER]: m.tenantId, ...(m.accountMail ? { [CATEGORY_HEADER]: ACCOUNT_CATEGORY } : {}) };
}
