/**
 * The one adapter interface every channel implements (DESIGN §3 "Outcome"). An adapter performs one
 * provider call and returns a classified outcome; it never throws for a provider failure (only for a
 * programming error), and it never decides retries — that is domain policy.
 */
export interface OutgoingEmail {
  /**
   * The tenant the message is sent for (the delivery's sending tenant, the alert's, test message's or account's
   * tenant). Written as the `X-Punctual-Tenant` header (domain/sending/caught-identity.ts), which the built-in catcher
   * records so the development mailbox lists the message for that tenant only.
   */
  tenantId: string;
  /** Account mail (password and sign-in links): `X-Punctual-Category: account`, listed only to its recipient. */
  accountMail?: boolean;
  from: { name: string; address: string };
  to: { name: string; address: string };
  /**
   * The Reply-To address (RFC 5322 §3.6.2): where a reader's reply goes instead of `from.address` — the
   * organisation's reply-to setting (issue #13); unset = no Reply-To header. SMTP writes the header; the HTTP API
   * channel sends it as `reply_to`.
   */
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
  /** RFC 5322 Message-ID derived from the message key (stable across retries). */
  messageId: string;
  headers?: Record<string, string>;
  /**
   * The SMTP envelope sender (`MAIL FROM`, RFC 5321 §4.1.1.2), which the receiving side records as `Return-Path`
   * and sends bounces to: the delivery's VERP bounce address (server/sending/bounce-address.ts). Unset: `from.address`.
   * Only the SMTP channel uses it; HTTP API providers handle bounces themselves.
   */
  envelopeFrom?: string;
  /**
   * An iCalendar invitation (RFC 5546 iTIP, issue #9 §6): sent as a `text/calendar; method=…` alternative and
   * as an `.ics` attachment, so calendar clients offer to add or update the entry.
   */
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string; filename: string };
}

export type { Outcome, RejectKind } from '@/domain/sending/outcome';
import type { Outcome } from '@/domain/sending/outcome';

export interface SendOptions {
  /** Idempotency key (the message key); providers that honour one deduplicate on it. */
  idempotencyKey: string;
  signal?: AbortSignal;
}

/** What a provider knows about a message key (only providers that honour idempotency keys can say). */
export type LookupResult = { found: true; providerId: string } | { found: false } | { error: string };

export interface EmailChannel {
  readonly name: string;
  /**
   * True when the provider deduplicates on the idempotency key: an ambiguous call may then be retried with
   * the same key, and `lookup` can reconcile it. SMTP has no such key: false.
   */
  readonly idempotent?: boolean;
  send(message: OutgoingEmail, opts: SendOptions): Promise<Outcome>;
  /** Looks a message up by its idempotency key (idempotent providers only). */
  lookup?(idempotencyKey: string, signal?: AbortSignal): Promise<LookupResult>;
  close(): Promise<void>;
}

/**
 * One SMS for a Twilio-compatible `Messages` resource (issue #9 §4). `to`/`from` are E.164 numbers
 * ("+31612345678"); `body` is plain text (segment counting: domain/sending/sms-segments.ts).
 */
export interface OutgoingSms {
  /** The tenant it is sent for: the `X-Punctual-Tenant` request header (see {@link OutgoingEmail.tenantId}). */
  tenantId: string;
  from: string;
  to: string;
  body: string;
  /** Where the provider should POST status reports (`StatusCallback`), or null for none. */
  statusCallbackUrl: string | null;
  /** The message key (for logs and the test peer; Twilio has no idempotency key, so it is not deduplicated). */
  messageKey: string;
}

/**
 * SMS adapter. Twilio's Messages API has no idempotency key: `idempotent` is false, so an answer lost after
 * the request was written is `ambiguous` → `unknown`, exactly as for SMTP (invariant 6).
 */
export interface SmsChannel {
  readonly name: string;
  readonly idempotent: false;
  send(message: OutgoingSms, opts: SendOptions): Promise<Outcome>;
  close(): Promise<void>;
}

/**
 * One webhook delivery (issue #9 §5): a JSON body POSTed to the tenant's HTTPS endpoint, signed per the
 * Standard Webhooks specification (`webhook-id` = the message key, `webhook-timestamp` in seconds,
 * `webhook-signature` = `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the endpoint's `whsec_` secret).
 */
export interface OutgoingWebhook {
  /** The tenant it is sent for: the `X-Punctual-Tenant` request header (see {@link OutgoingEmail.tenantId}). */
  tenantId: string;
  url: string;
  /** The endpoint's signing secret, `whsec_<base64>`. */
  secret: string;
  /** `webhook-id`: the message key, the same on every retry, so the receiver can deduplicate. */
  id: string;
  /** The JSON payload (serialised once by the adapter; the signature covers exactly the bytes sent). */
  payload: unknown;
}

/**
 * Webhook adapter. The `webhook-id` lets a receiver deduplicate, so it counts as idempotent: an ambiguous
 * answer is retried with the same id. 410 Gone = the receiver wants no more (rejected, `endpoint_gone`).
 */
export interface WebhookChannel {
  readonly name: string;
  readonly idempotent: true;
  /** `now` is the signing instant (the database clock, ms); the timestamp header is derived from it. */
  send(message: OutgoingWebhook, opts: SendOptions & { now: Date }): Promise<Outcome>;
  close(): Promise<void>;
}
