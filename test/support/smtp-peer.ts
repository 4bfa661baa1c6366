/**
 * A fault-injecting SMTP peer for tests (a real SMTP server on 127.0.0.1, smtp-server). Each message is
 * handled by the next scripted behaviour (the last one repeats):
 *   accept            — store and answer 250
 *   drop-after-data   — read the whole message, store it (the peer HAS it), then destroy the connection
 *                       without answering: the sender cannot know
 *   reject-rcpt       — 550 to RCPT TO (invalid recipient)
 *   tempfail-rcpt     — 451 to RCPT TO
 *   delay:<ms>        — store, wait, then 250
 *   rcpt:<reply>      — answer RCPT TO with this exact reply, e.g. `rcpt:552 5.2.2 Mailbox full`
 *   data:<reply>      — read the message, keep nothing, answer the end of data with this reply
 *   greet:<reply>     — answer the connection itself with this reply instead of 220 and close, e.g.
 *                       `greet:421 4.3.2 Service shutting down` (decided per connection, before RCPT)
 * `received` lists every message the peer kept, so tests count real arrivals; `connectedAt` is this process's
 * clock (epoch ms) when the sender opened the connection — the start of its provider call.
 */
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

type PeerBehaviour =
  | 'accept'
  | 'drop-after-data'
  | 'reject-rcpt'
  | 'tempfail-rcpt'
  | `delay:${number}`
  | `rcpt:${number} ${string}`
  | `data:${number} ${string}`
  | `greet:${number} ${string}`;

/** `552 5.2.2 Mailbox full` → an smtp-server callback error that answers exactly that. */
function replyError(reply: string): Error {
  const m = /^(\d{3}) (.*)$/.exec(reply);
  if (!m) throw new Error(`smtp-peer: a scripted reply must be "<code> <text>" (got "${reply}")`);
  return Object.assign(new Error(m[2]), { responseCode: Number(m[1]) });
}

export interface SmtpPeer {
  url: string;
  port: number;
  received: { to: string[]; raw: string; messageKey: string | null; connectedAt: number }[];
  script(...b: PeerBehaviour[]): void;
  close(): Promise<void>;
}

interface SmtpPeerOptions {
  /** Addresses always answered 550 at RCPT TO. */
  invalidRecipients?: string[];
  /** A fixed behaviour per recipient address (case-insensitive), whatever the script says: concurrent sends in one test. */
  byRecipient?: Record<string, PeerBehaviour>;
  /** Random faults per message (chaos runs): drop after DATA, 451 at RCPT. */
  chaos?: { dropAfterData: number; tempfail: number; random?: () => number };
}

export async function startSmtpPeer(initial: PeerBehaviour[] = ['accept'], opts: SmtpPeerOptions = {}): Promise<SmtpPeer> {
  const invalid = new Set((opts.invalidRecipients ?? []).map((a) => a.toLowerCase()));
  let queue = [...initial];
  const next = (): PeerBehaviour => (queue.length > 1 ? queue.shift()! : queue[0]);
  const received: SmtpPeer['received'] = [];
  // One behaviour per session, decided at RCPT TO (the first point where a message is addressed).
  const bySession = new Map<string, PeerBehaviour>();
  const connectedAt = new Map<string, number>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    // No reverse DNS of 127.0.0.1 before the greeting (0.4–1.5 s here): senders see the peer at once.
    disableReverseLookup: true,
    logger: false,
    onConnect(session, cb) {
      connectedAt.set(session.id, Date.now());
      if (!opts.chaos && queue[0]?.startsWith('greet:')) return cb(replyError(next().slice('greet:'.length)));
      cb();
    },
    onRcptTo(addr, session, cb) {
      let b = next();
      if (opts.chaos) {
        const r = (opts.chaos.random ?? Math.random)();
        if (r < opts.chaos.dropAfterData) b = 'drop-after-data';
        else if (r < opts.chaos.dropAfterData + opts.chaos.tempfail) b = 'tempfail-rcpt';
      }
      const fixed = Object.entries(opts.byRecipient ?? {}).find(([a]) => a.toLowerCase() === addr.address.toLowerCase());
      if (fixed) b = fixed[1];
      if (invalid.has(addr.address.toLowerCase())) b = 'reject-rcpt';
      bySession.set(session.id, b);
      if (b === 'reject-rcpt') return cb(Object.assign(new Error('5.1.1 no such user'), { responseCode: 550 }));
      if (b === 'tempfail-rcpt') return cb(Object.assign(new Error('4.3.0 try again later'), { responseCode: 451 }));
      if (b.startsWith('rcpt:')) return cb(replyError(b.slice('rcpt:'.length)));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const b = bySession.get(session.id) ?? 'accept';
        if (b.startsWith('data:')) return cb(replyError(b.slice('data:'.length)));
        const raw = Buffer.concat(chunks).toString('utf8');
        // Parsed, not regex-matched: a long header is folded over several lines.
        const keyHeader = (await simpleParser(raw)).headers.get('x-punctual-message-key');
        const messageKey = typeof keyHeader === 'string' ? keyHeader : null;
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, messageKey, connectedAt: connectedAt.get(session.id) ?? Date.now() });
        if (b === 'drop-after-data') {
          // Destroy the client's connection without a reply.
          for (const conn of (server as unknown as { connections: Set<{ _socket: { destroy(): void }; id: string }> }).connections) {
            if (conn.id === session.id) conn._socket.destroy();
          }
          return;
        }
        if (b.startsWith('delay:')) await new Promise((r) => setTimeout(r, Number(b.slice(6))));
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  server.on('error', () => {});
  const addr = server.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    port,
    received,
    script: (...b) => {
      queue = [...b];
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
