/**
 * The one adapter interface every channel implements (DESIGN §3 "Outcome"). An adapter performs one
 * provider call and returns a classified outcome; it never throws for a provider failure (only for a
 * programming error), and it never decides retries — that is domain policy.
 */
export interface OutgoingEmail {
  from: { name: string; address: string };
  to: { name: string; address: string };
  subject: string;
  html: string;
  text: string;
  /** RFC 5322 Message-ID derived from the message key (stable across retries). */
  messageId: string;
  headers?: Record<string, string>;
}

export type { Outcome, RejectKind } from '../domain/outcome';
import type { Outcome } from '../domain/outcome';

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
