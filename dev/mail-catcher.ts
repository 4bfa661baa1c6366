/**
 * The built-in mail catcher: a real SMTP server (smtp-server) on 127.0.0.1 that stores every message it
 * receives — raw source and parsed headers/parts — in `caught_messages`, where `/mailbox` shows them.
 * Used by `npm start` when SMTP_URL is unset, and by the tests as their real SMTP listener.
 *
 * Only the app's own mail is taken (issue #12: any local client could otherwise write into a tenant's mailbox):
 * a client must first log in with SMTP AUTH (PLAIN or LOGIN, RFC 4954) as `opts.auth` — `npm start` keeps a random
 * password per data folder (`<data folder>/mail-catcher-password`, 0600) and hands it to the worker and web app in
 * their SMTP_URL; without `opts.auth` one is made per catcher. There is no TLS on this loopback-only listener, so
 * AUTH is offered in the clear (smtp-server `allowInsecureAuth`). Wrong credentials answer `535 5.7.8`, mail without
 * logging in `530 5.7.0` (smtp-server's "authentication Required"); nothing is stored either way.
 *
 * The message is stored BEFORE the server answers 250, so "accepted by the server" implies "in the table". It is
 * stored with the tenant its `X-Punctual-Tenant` header declares and its account-mail mark (domain/sending/caught-identity.ts;
 * a DSN the catcher makes takes those of the message it reports on): /mailbox lists by them, never by an address.
 *
 * Fault injection for demos and browser tests: the FIRST reminder or nudge to a recipient whose local part ends
 * in `+deny-once` (e.g. `ana+deny-once@example.test`) is refused after DATA with `550 5.7.1` (a policy/permission
 * refusal, RFC 3463; nothing stored) — a dead letter to replay; later messages to that address are accepted.
 * The FIRST reminder or nudge to a `+drop-once` recipient is stored and then the connection is dropped before
 * the reply — the sender cannot know whether it went out (an `unknown` outcome for a person to decide).
 * Booking notifications (an `X-Punctual-Message-Key` of `ntf:…`, server/notifications/notify.ts) are never faulted: every new
 * booking of a tenant with a notification policy gets a confirmation first, which would otherwise use up the
 * fault meant for the reminder under test. Remembered per catcher process.
 *
 * Acting as the final delivery agent, the catcher records the envelope sender as `Return-Path: <…>` on top of the
 * stored message (RFC 5321 §4.4), so the mailbox shows the VERP bounce address a message went out with.
 *
 * Asynchronous bounces (issue #10 §4): a message to a recipient whose local part ends in `+bounce-later`
 * (`ana+bounce-later@example.test`) is accepted and stored like any other; `bounceLaterMs` later (default 3 s) the
 * catcher writes the RFC 3464 delivery status notification a real MTA would send for an unknown mailbox
 * (domain/reports/dsn.ts `composeFailureDsn`: Status 5.1.1) from `MAILER-DAEMON@<hostname>` to the message's envelope
 * sender, stores it in `caught_messages` too (envelope sender `<>`, recipient the bounce address) and hands it to
 * `onDsn` (scripts/start.ts: server/reports/bounces.ts `ingestDsn`, which refuses it when that envelope sender is a bounce
 * address that does not verify, and applies it only to a delivery sent to the recipient it names). The DSN names
 * only the `+bounce-later` envelope recipients of that message, as given in RCPT TO. A message with an empty envelope sender (`<>`) is
 * never bounced: notifications travel with a null reverse-path and none is sent to one, so they cannot loop
 * (RFC 5321 §4.5.5, §6.1; RFC 3461 §6.2). Every message to such an address bounces, booking notifications
 * included: the mailbox does not exist.
 */
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Db } from '@/db/client';
import { caughtMessages } from '@/db/schema';
import { CATEGORY_HEADER, TENANT_HEADER, declaredTenant, isAccountMail } from '@/domain/sending/caught-identity';
import { composeFailureDsn } from '@/domain/reports/dsn';

export interface MailCatcher {
  port: number;
  /** SMTP URL a channel can send to: `smtp://user:pass@127.0.0.1:port?ignoreTLS=true` (it carries the login). */
  url: string;
  /** The login the catcher requires (module doc). */
  auth: { user: string; pass: string };
  close(): Promise<void>;
}

export interface MailCatcherOptions {
  db: Db;
  /** 0 (default) = any free port. */
  port?: number;
  /** The only login accepted (module doc); default: user `punctual` and a random password made for this catcher. */
  auth?: { user: string; pass: string };
  /**
   * Test hook: runs after the message is stored and before the 250 reply (lets a test kill the sender at
   * the exact point where the server has the message but the client has no answer).
   */
  beforeReply?: (stored: { id: string; messageId: string | null }) => Promise<void>;
  /** ms from accepting a message for a `+bounce-later` recipient to making its DSN (default 3000). */
  bounceLaterMs?: number;
  /**
   * Receives each DSN the catcher makes, after it is stored: the raw message and its SMTP envelope recipients
   * (the bounce address). A failure is logged on stderr (the DSN stays in the mailbox).
   */
  onDsn?: (raw: Buffer, envelope: { to: string[]; storedId: string }) => Promise<unknown>;
  /** The catcher's host name in its DSNs (`Reporting-MTA`, `MAILER-DAEMON@…`); default `mail-catcher.punctual.local`. */
  hostname?: string;
}

/** A message as the catcher stores it: parsed fields of the raw source with `Return-Path` on top. */
async function storedForm(raw: Buffer, mailFrom: string) {
  // RFC 5321 §4.4: the delivery agent records the envelope sender as the first line of the message.
  const withPath = Buffer.concat([Buffer.from(`Return-Path: <${mailFrom}>\r\n`), raw]);
  const parsed = await simpleParser(withPath);
  // Decoded header values (RFC 2047 encoded words resolved by mailparser), keyed by lower-case name.
  const headers: Record<string, string> = {};
  for (const line of parsed.headerLines) headers[line.key] = line.line.slice(line.line.indexOf(':') + 1).trim();
  // Dates keep their original RFC 5322 text.
  // mailparser folds the RFC 2369 List-* headers into one structured `list` entry: their own lines are kept above.
  for (const [key, value] of parsed.headers) if (!(value instanceof Date) && key !== 'list') headers[key] = headerText(value);
  headers['return-path'] = `<${mailFrom}>`;
  // Who sent it, as the sender declared (domain/sending/caught-identity.ts): every line of each header, so two
  // declarations are seen as two (and attributed to nobody).
  const lines = (name: string) => parsed.headerLines.filter((l) => l.key === name.toLowerCase()).map((l) => l.line.slice(l.line.indexOf(':') + 1));
  return {
    parsed,
    row: {
      tenantId: declaredTenant(lines(TENANT_HEADER)),
      accountMail: isAccountMail(lines(CATEGORY_HEADER)),
      messageId: parsed.messageId ?? null,
      subject: parsed.subject ?? null,
      headers,
      html: typeof parsed.html === 'string' ? parsed.html : null,
      text: parsed.text ?? null,
      raw: withPath.toString('utf8'),
    },
  };
}

/** The header block of a raw message (everything before the first empty line), CRLF line ends. */
function headerBlock(raw: Buffer): string {
  const text = raw.toString('utf8');
  const end = text.search(/\r?\n\r?\n/);
  return (end < 0 ? text : text.slice(0, end)).replace(/\r?\n/g, '\r\n');
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

/** Whether `a` equals `b`, in time that does not depend on where they differ. */
function sameText(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** Starts the catcher. @throws when the port is taken. */
export async function startMailCatcher(opts: MailCatcherOptions): Promise<MailCatcher> {
  const deniedOnce = new Set<string>();
  const droppedOnce = new Set<string>();
  const hostname = opts.hostname ?? 'mail-catcher.punctual.local';
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();

  /** Makes, stores and hands on the DSN for `recipients` of a message that arrived at `arrivedAt`. */
  async function bounce(raw: Buffer, mailFrom: string, recipients: string[], arrivedAt: Date, original: { tenantId: string | null; accountMail: boolean }): Promise<void> {
    const now = new Date();
    const id = randomBytes(8).toString('hex');
    const dsn = Buffer.from(
      composeFailureDsn({
        reportingMta: hostname,
        to: mailFrom,
        recipients: recipients.map((a) => ({ address: a, status: '5.1.1', diagnostic: `550 5.1.1 <${a}>: mailbox unavailable` })),
        arrivalDate: arrivedAt,
        date: now,
        messageId: `<dsn.${now.getTime()}.${id}@${hostname}>`,
        boundary: `dsn-${id}/${hostname}`,
        originalHeaders: `Return-Path: <${mailFrom}>\r\n${headerBlock(raw)}`,
      }),
    );
    const { row } = await storedForm(dsn, '');
    // The DSN belongs to whoever sent the message it reports on (the catcher read that message's declaration).
    const [stored] = await opts.db
      .insert(caughtMessages)
      .values({ envelopeFrom: '', envelopeTo: [mailFrom], ...row, tenantId: original.tenantId, accountMail: original.accountMail })
      .returning({ id: caughtMessages.id });
    await opts.onDsn?.(dsn, { to: [mailFrom], storedId: stored.id });
  }

  function bounceLater(raw: Buffer, mailFrom: string, recipients: string[], original: { tenantId: string | null; accountMail: boolean }): void {
    const arrivedAt = new Date();
    const timer = setTimeout(() => {
      timers.delete(timer);
      const p = bounce(raw, mailFrom, recipients, arrivedAt, original)
        .catch((e: unknown) => console.error('[mail-catcher] bounce-later DSN failed:', e))
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }, opts.bounceLaterMs ?? 3000);
    timers.add(timer);
  }

  const auth = opts.auth ?? { user: 'punctual', pass: randomBytes(24).toString('base64url') };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    // Every message must come from a client that logged in as `auth` (module doc).
    authOptional: false,
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true,
    onAuth(login, _session, callback) {
      if (sameText(login.username ?? '', auth.user) && sameText(login.password ?? '', auth.pass)) return callback(null, { user: auth.user });
      callback(Object.assign(new Error('5.7.8 Authentication credentials invalid (Punctual mail catcher: only the app, with the SMTP_URL npm start gives it)'), { responseCode: 535 }));
    },
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
          const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          const { parsed, row: message } = await storedForm(raw, mailFrom);
          const headers = message.headers;
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
              ...message,
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
          // Never a notification about a message without a return path (a bounce itself). The DSN names exactly
          // the envelope recipients (RCPT TO, as given) that bounce — never an address taken from the headers.
          const bounced = mailFrom ? session.envelope.rcptTo.map((r) => r.address).filter((a) => /\+bounce-later@/i.test(a)) : [];
          if (bounced.length) bounceLater(raw, mailFrom, bounced, message);
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
    url: `smtp://${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@127.0.0.1:${port}?ignoreTLS=true`,
    auth,
    async close() {
      // Bounces not yet made are dropped; those being made are finished first.
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.all([...inFlight]);
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
