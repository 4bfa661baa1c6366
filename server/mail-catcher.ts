/**
 * The built-in mail catcher: a real SMTP server (smtp-server) on 127.0.0.1 that stores every message it
 * receives — raw source and parsed headers/parts — in `caught_messages`, where `/mailbox` shows them.
 * Used by `npm start` when SMTP_URL is unset, and by the tests as their real SMTP listener.
 *
 * The message is stored BEFORE the server answers 250, so "accepted by the server" implies "in the table".
 *
 * Fault injection for demos and browser tests: the FIRST reminder or nudge to a recipient whose local part ends
 * in `+deny-once` (e.g. `ana+deny-once@example.test`) is refused after DATA with `550 5.7.1` (a policy/permission
 * refusal, RFC 3463; nothing stored) — a dead letter to replay; later messages to that address are accepted.
 * The FIRST reminder or nudge to a `+drop-once` recipient is stored and then the connection is dropped before
 * the reply — the sender cannot know whether it went out (an `unknown` outcome for a person to decide).
 * Booking notifications (an `X-Punctual-Message-Key` of `ntf:…`, server/notify.ts) are never faulted: every new
 * booking of a tenant with a notification policy gets a confirmation first, which would otherwise use up the
 * fault meant for the reminder under test. Remembered per catcher process.
 */
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Db } from '../db/client';
import { caughtMessages } from '../db/schema';

export interface MailCatcher {
  port: number;
  /** SMTP URL a channel can send to. */
  url: string;
  close(): Promise<void>;
}

export interface MailCatcherOptions {
  db: Db;
  /** 0 (default) = any free port. */
  port?: number;
  /**
   * Test hook: runs after the message is stored and before the 250 reply (lets a test kill the sender at
   * the exact point where the server has the message but the client has no answer).
   */
  beforeReply?: (stored: { id: string; messageId: string | null }) => Promise<void>;
}

function headerText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Date) return v.toISOString();
  if (v && typeof v === 'object' && 'text' in v && typeof (v as { text: unknown }).text === 'string') return (v as { text: string }).text;
  if (v && typeof v === 'object' && 'value' in v) {
    const o = v as { value: unknown; params?: Record<string, string> };
    const params = Object.entries(o.params ?? {}).map(([k, p]) => `; ${k}=${p}`).join('');
    return `${String(o.value)}${params}`;
  }
  return Array.isArray(v) ? v.map(headerText).join(', ') : JSON.stringify(v);
}

/** Starts the catcher. @throws when the port is taken. */
export async function startMailCatcher(opts: MailCatcherOptions): Promise<MailCatcher> {
  const deniedOnce = new Set<string>();
  const droppedOnce = new Set<string>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    banner: 'Punctual mail catcher',
    // No reverse DNS of the client before the greeting (0.4–1.5 s per connection here).
    disableReverseLookup: true,
    size: 25 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', (e) => callback(e));
      stream.on('end', async () => {
        try {
          const raw = Buffer.concat(chunks);
          const parsed = await simpleParser(raw);
          // Decoded header values (RFC 2047 encoded words resolved by mailparser), keyed by lower-case name.
          const headers: Record<string, string> = {};
          for (const line of parsed.headerLines) headers[line.key] = line.line.slice(line.line.indexOf(':') + 1).trim();
          // Dates keep their original RFC 5322 text.
          for (const [key, value] of parsed.headers) if (!(value instanceof Date)) headers[key] = headerText(value);
          const faultable = !/^ntf:/.test(headers['x-punctual-message-key'] ?? '');
          const recipients = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          const deny = faultable ? recipients.find((a) => /\+deny-once@/.test(a) && !deniedOnce.has(a)) : undefined;
          if (deny) {
            deniedOnce.add(deny);
            return callback(Object.assign(new Error('5.7.1 Sender not authorized for this recipient (Punctual catcher: simulated permission error, once)'), { responseCode: 550 }));
          }
          const [row] = await opts.db
            .insert(caughtMessages)
            .values({
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              messageId: parsed.messageId ?? null,
              subject: parsed.subject ?? null,
              headers,
              html: typeof parsed.html === 'string' ? parsed.html : null,
              text: parsed.text ?? null,
              raw: raw.toString('utf8'),
            })
            .returning({ id: caughtMessages.id });
          if (opts.beforeReply) await opts.beforeReply({ id: row.id, messageId: parsed.messageId ?? null });
          const drop = faultable ? recipients.find((a) => /\+drop-once@/.test(a) && !droppedOnce.has(a)) : undefined;
          if (drop) {
            droppedOnce.add(drop);
            // smtp-server keeps its connections (with their session and socket) in a private Set.
            const conns = (server as unknown as { connections: Set<{ session: unknown; _socket: { destroy(): void } }> }).connections;
            for (const c of conns) if (c.session === session) c._socket.destroy();
            return;
          }
          callback();
        } catch (e) {
          // Storage failed: answer 451 so the sender knows the message was not taken.
          callback(Object.assign(new Error('could not store message'), { responseCode: 451 }));
          console.error('[mail-catcher]', e);
        }
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  server.on('error', (e) => console.error('[mail-catcher]', e));
  const addr = server.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    port,
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
