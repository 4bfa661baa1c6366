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

export interface EmailChannel {
  readonly name: string;
  send(message: OutgoingEmail, opts: SendOptions): Promise<Outcome>;
  close(): Promise<void>;
}
