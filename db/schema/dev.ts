/**
 * Development / demo only: messages received by the built-in mail catcher, SMS API peer and webhook receiver
 * (not tenant data).
 * Part of the Drizzle schema (db/schema/index.ts re-exports every file); relative imports only, drizzle-kit loads it.
 */
import { boolean, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { channelEnum } from './enums';

/** Messages received by the built-in mail catcher (development / demo only; not tenant data). */
export const caughtMessages = pgTable(
  'caught_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** email (SMTP catcher), sms (the built-in SMS API peer) or webhook (the built-in receiver). */
    channel: channelEnum('channel').notNull().default('email'),
    receivedAt: ts('received_at').notNull().defaultNow(),
    envelopeFrom: text('envelope_from'),
    envelopeTo: text('envelope_to').array().notNull(),
    messageId: text('message_id'),
    subject: text('subject'),
    headers: jsonb('headers').notNull(),
    html: text('html'),
    text: text('text'),
    raw: text('raw').notNull(),
    /**
     * The tenant that sent the message, as the sender declared it when it sent (the `X-Punctual-Tenant` header
     * of an email, SMS API request or webhook POST — domain/sending/caught-identity.ts; a DSN takes the tenant of the
     * message it reports on). The mailbox lists a tenant's messages by this column alone, never by an address.
     * Null: no (valid) declaration — shown to nobody.
     */
    tenantId: uuid('tenant_id'),
    /**
     * Account mail (password reset, sign-in and verification links: `X-Punctual-Category: account`): listed only
     * to a staff member signed in as one of its envelope recipients.
     */
    accountMail: boolean('account_mail').notNull().default(false),
  },
  (t) => [
    index('caught_messages_received_idx').on(t.receivedAt),
    index('caught_messages_tenant_idx').on(t.tenantId, t.channel, t.receivedAt),
  ],
);

export type CaughtMessage = typeof caughtMessages.$inferSelect;
