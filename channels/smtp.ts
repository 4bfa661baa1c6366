/**
 * SMTP channel (nodemailer) over a small pool of reused connections. Each message drives the connection's
 * MAIL FROM / RCPT TO / DATA itself, so it knows exactly when its DATA phase began (the message stream is only
 * read after the server's 354): failures before it are safe to retry, failures after it are `ambiguous`
 * (domain/sending/smtp-outcome.ts) — per message, on a new or a reused connection alike. A failure carries the server's
 * own reply text (`response`, e.g. `421 4.3.2 Service shutting down`) whenever the server said something.
 *
 * Pool: at most `maxConnections` connections (default 5), each carrying up to `maxMessages` messages (default
 * 100; no RSET is needed between them: a completed transaction leaves the session ready for the next MAIL FROM,
 * RFC 5321 §4.1.4), closed with QUIT after `idleTimeoutMs` unused (default 10 000 ms). Sockets are no-delay. A
 * connection that had any error — a refused recipient included — is closed, never reused. When the server had
 * closed a reused connection while it sat idle (EOF, reset, or 421 to MAIL FROM before anything else was heard),
 * nothing of the message was sent and it goes out once more on a new connection, transparently. Sends beyond
 * `maxConnections` wait in order; the abort signal (provider timeout) ends a wait, or closes that message's
 * connection.
 *
 * URL form: `smtp://[user:pass@]host:port` (STARTTLS when offered; `?ignoreTLS=true` for plaintext
 * catchers) or `smtps://…` (implicit TLS, RFC 8314). Pool settings in the query: `?pool=N` (maxConnections),
 * `maxMessages=N`, `idleTimeout=ms`, e.g. `smtp://mail.example.com:587?pool=10`; options passed in code win.
 */
import { identityHeaders } from '@/domain/sending/caught-identity';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import MailComposer from 'nodemailer/lib/mail-composer';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { classifySmtpFailure } from '@/domain/sending/smtp-outcome';
import type { EmailChannel, OutgoingEmail, Outcome, SendOptions } from './types';

interface SmtpChannelOptions {
  url: string;
  /** ms to wait for TCP connect / greeting; default 10 000. */
  connectTimeoutMs?: number;
  /** ms of socket inactivity before giving up; default 30 000. */
  socketTimeoutMs?: number;
  /** Connections open at once (busy + idle); default 5, or `?pool=N` in the URL. */
  maxConnections?: number;
  /** Messages per connection before it is closed and replaced; default 100, or `?maxMessages=N`. */
  maxMessages?: number;
  /** ms a connection stays open unused; default 10 000, or `?idleTimeout=ms`. */
  idleTimeoutMs?: number;
}

/** A positive whole number, or undefined when absent. @throws Error naming the setting otherwise. */
function checkedInt(v: string | number | null | undefined, what: string): number | undefined {
  if (v === null || v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`SMTP ${what} must be a whole number ≥ 1 (got "${v}")`);
  return n;
}

function parseSmtpUrl(url: string) {
  const u = new URL(url);
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') throw new Error(`SMTP_URL must start with smtp:// or smtps:// (got ${u.protocol})`);
  return {
    host: u.hostname,
    port: Number(u.port || (u.protocol === 'smtps:' ? 465 : 587)),
    secure: u.protocol === 'smtps:',
    ignoreTLS: u.searchParams.get('ignoreTLS') === 'true',
    auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
    pool: checkedInt(u.searchParams.get('pool'), 'URL ?pool'),
    maxMessages: checkedInt(u.searchParams.get('maxMessages'), 'URL ?maxMessages'),
    idleTimeoutMs: checkedInt(u.searchParams.get('idleTimeout'), 'URL ?idleTimeout'),
  };
}

/** Builds the RFC 5322 message (multipart/alternative text + HTML) as bytes. */
export async function composeMessage(m: OutgoingEmail): Promise<Buffer> {
  const composer = new MailComposer({
    from: m.from,
    to: m.to,
    ...(m.replyTo ? { replyTo: m.replyTo } : {}),
    subject: m.subject,
    html: m.html,
    text: m.text,
    messageId: m.messageId,
    // The sender's identity for the development mailbox (domain/sending/caught-identity.ts), over any other header.
    headers: { ...m.headers, ...identityHeaders(m) },
    // nodemailer's iTIP support: a text/calendar alternative with `method=` plus the same file attached.
    ...(m.calendar ? { icalEvent: { method: m.calendar.method, filename: m.calendar.filename, content: m.calendar.content } } : {}),
  });
  return new Promise((resolve, reject) => composer.compile().build((err, buf) => (err ? reject(err) : resolve(buf))));
}

type SmtpErr = Error & { code?: string; responseCode?: number; command?: string; response?: string };

/** One pooled connection. */
interface Pooled {
  conn: SMTPConnection;
  /** Messages this connection carried (accepted or refused by a reply), towards `maxMessages`. */
  messages: number;
  /** It failed, or the server or its socket ended it: never handed out again. */
  broken: boolean;
  retired: boolean;
  /** Resolves when nodemailer has destroyed the connection ('end'). */
  ended: Promise<void>;
  idleTimer?: NodeJS.Timeout;
}

/** A connection to reuse, or (`pc: null`) a free slot to open a new one in. */
type Lease = { pc: Pooled; reused: true } | { pc: null; reused: false };

type Attempt =
  | { ok: true; response: string }
  | { ok: false; err: SmtpErr; dataStarted: boolean; staleReuse: boolean };

/** Pool figures (tests, diagnostics): connections open now (busy + idle + connecting), idle, queued sends, opened so far. */
interface SmtpPoolStats {
  open: number;
  idle: number;
  waiting: number;
  opened: number;
}

/** The SMTP channel: an {@link EmailChannel} with pool figures. */
export interface SmtpChannel extends EmailChannel {
  stats(): SmtpPoolStats;
}

/** The error a send gets when nodemailer closed the connection without handing the send an error of its own. */
function closedError(conn: SMTPConnection): SmtpErr {
  // Keep the server's last failure reply (`421 4.3.2 Service shutting down`), so the attempt records what it said.
  const last = String(conn.lastServerResponse || '');
  const reply = /^[45]\d{2}[ -]/.test(last) ? last : undefined;
  return Object.assign(new Error('connection closed'), { code: 'ECONNECTION', response: reply, responseCode: reply ? Number(reply.slice(0, 3)) : undefined });
}

/**
 * Routes a connection's failure to `fail` while one step (connect, one message) runs; returns the detach function.
 * nodemailer emits 'end' while it closes, *before* it hands the pending send its error (e.g. a `421 4.3.2` to RCPT):
 * 'end' waits a turn so that error has the first word.
 */
function watch(conn: SMTPConnection, fail: (e: SmtpErr) => void): () => void {
  const onError = (e: SmtpErr) => fail(e);
  const onEnd = () => setImmediate(() => fail(closedError(conn)));
  conn.on('error', onError);
  conn.once('end', onEnd);
  return () => {
    conn.off('error', onError);
    conn.off('end', onEnd);
  };
}

/**
 * Runs one step on `conn` (`run` gets `ok`, `fail` and whether it already settled) and settles once: with the step's own result, or with the
 * connection's error or close (see {@link watch}) if that comes first; the listeners are removed when it settles.
 */
function settleOnce<T>(conn: SMTPConnection, run: (ok: (v: T) => void, fail: (e: SmtpErr) => void, settled: () => boolean) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (f: () => void) => {
      if (settled) return;
      settled = true;
      detach();
      f();
    };
    const fail = (e: SmtpErr) => finish(() => reject(e));
    const detach = watch(conn, fail);
    run((v) => finish(() => resolve(v)), fail, () => settled);
  });
}

/** The socket under a connection (nodemailer keeps it private), for no-delay and ref/unref. */
function socketOf(conn: SMTPConnection): Socket | undefined {
  const s = (conn as unknown as { _socket?: Socket | false })._socket;
  return s || undefined;
}

/**
 * Whether a failure on a *reused* connection means the server had already closed it before it answered anything
 * about this message — it timed the idle session out (EOF, reset) or answered MAIL FROM with 421 (RFC 5321 §3.8:
 * it is closing the channel). Nothing of the message was handed over, so it may go out on a new connection.
 * `lastReply` is the connection's last server reply since this message began (false: none at all).
 */
function serverGoneBeforeReply(err: SmtpErr, lastReply: string | false): boolean {
  if (lastReply === false && (err.code === 'ECONNECTION' || err.code === 'ESOCKET')) return true;
  return err.responseCode === 421 && (err.command ?? '').toUpperCase().startsWith('MAIL');
}

const abortError = (what: string): SmtpErr => Object.assign(new Error(what), { code: 'ECONNECTION' });

/**
 * Creates an SMTP channel for `opts.url` with its own connection pool (see module doc). Options given here win over
 * the URL's query parameters. `close()` refuses new sends, waits for the sends already asked for (queued ones too),
 * then ends every connection (QUIT) and resolves once they are closed.
 * @throws Error for a malformed URL or pool setting.
 */
export function createSmtpChannel(opts: SmtpChannelOptions): SmtpChannel {
  const cfg = parseSmtpUrl(opts.url);
  const maxConnections = checkedInt(opts.maxConnections, 'maxConnections') ?? cfg.pool ?? 5;
  const maxMessages = checkedInt(opts.maxMessages, 'maxMessages') ?? cfg.maxMessages ?? 100;
  const idleTimeoutMs = checkedInt(opts.idleTimeoutMs, 'idleTimeoutMs') ?? cfg.idleTimeoutMs ?? 10_000;

  const all = new Set<Pooled>();
  /** Most recently used last: the next send takes the warmest connection, the others time out first. */
  const idle: Pooled[] = [];
  const waiters: { resolve(l: Lease): void; reject(e: SmtpErr): void; cleanup(): void }[] = [];
  const inFlight = new Set<Promise<unknown>>();
  /** Connections open or being opened, counted against `maxConnections`. */
  let slots = 0;
  let opened = 0;
  let closed = false;

  function newConnection(): Pooled {
    const conn = new SMTPConnection({
      host: cfg.host,
      port: cfg.port,
      secure: cfg.secure,
      ignoreTLS: cfg.ignoreTLS,
      connectionTimeout: opts.connectTimeoutMs ?? 10_000,
      greetingTimeout: opts.connectTimeoutMs ?? 10_000,
      socketTimeout: opts.socketTimeoutMs ?? 30_000,
      name: 'punctual.local',
    });
    const pc: Pooled = { conn, messages: 0, broken: false, retired: false, ended: new Promise((r) => conn.once('end', () => r())) };
    // Always listening: an idle connection's socket timeout, reset or the server's 421/EOF must end it quietly (an
    // 'error' without a listener would throw). A busy one is left to its send, which sees the same event.
    const gone = () => {
      pc.broken = true;
      if (idle.includes(pc)) retire(pc);
    };
    conn.on('error', gone);
    conn.once('end', () => {
      gone();
      all.delete(pc);
    });
    all.add(pc);
    opened++;
    return pc;
  }

  /** Connects (and logs in); rejects with nodemailer's error, or the server's last reply when it just closed. */
  function connect(pc: Pooled): Promise<void> {
    const { conn } = pc;
    return settleOnce<void>(conn, (ok, fail, settled) =>
      conn.connect((err) => {
        if (settled()) return;
        if (err) return fail(err as SmtpErr);
        // Commands go out in the batches they belong to (PIPELINING): Nagle would only hold each batch back until
        // the previous one is acknowledged. nodemailer sets it too; kept explicit so pooling never depends on it.
        socketOf(conn)?.setNoDelay(true);
        if (cfg.auth) conn.login(cfg.auth, (e) => (e ? fail(e as SmtpErr) : ok()));
        else ok();
      }),
    );
  }

  /** One message over `pc` (MAIL FROM, RCPT TO, DATA, body); resolves with the server's final reply. */
  function transmit(pc: Pooled, envelope: { from: string; to: string[] }, body: Readable): Promise<string> {
    const { conn } = pc;
    // "Nothing heard since this message began" is what tells an idle-closed connection apart (serverGoneBeforeReply).
    conn.lastServerResponse = false;
    return settleOnce<string>(conn, (ok, fail) =>
      // A copy: nodemailer writes its progress (mailError, rcptQueue, …) into the envelope it is given.
      conn.send({ from: envelope.from, to: [...envelope.to] }, body, (err, info) => (err ? fail(err as SmtpErr) : ok(String(info.response ?? '')))),
    );
  }

  function freeSlot(): void {
    const w = waiters.shift();
    if (w) {
      w.cleanup();
      w.resolve({ pc: null, reused: false });
    } else slots--;
  }

  /** Takes a connection out of use for good (QUIT when it is healthy); its slot goes to the next waiter unless kept. */
  function retire(pc: Pooled, how: { graceful?: boolean; keepSlot?: boolean } = {}): void {
    if (pc.retired) return;
    pc.retired = true;
    clearTimeout(pc.idleTimer);
    const i = idle.indexOf(pc);
    if (i >= 0) idle.splice(i, 1);
    if (how.graceful && !pc.broken && !pc.conn.destroyed) pc.conn.quit();
    else pc.conn.close();
    if (!how.keepSlot) freeSlot();
  }

  /** After a message the server answered 250: to the next waiter, to the idle list, or out after `maxMessages`. */
  function release(pc: Pooled): void {
    if (pc.broken || pc.conn.destroyed || pc.messages >= maxMessages) return retire(pc, { graceful: true });
    const w = waiters.shift();
    if (w) {
      w.cleanup();
      w.resolve({ pc, reused: true });
      return;
    }
    if (closed) return retire(pc, { graceful: true });
    // An idle connection does not keep the process alive, nor itself past idleTimeoutMs.
    socketOf(pc.conn)?.unref();
    idle.push(pc);
    pc.idleTimer = setTimeout(() => retire(pc, { graceful: true }), idleTimeoutMs);
    pc.idleTimer.unref();
  }

  function acquire(signal?: AbortSignal): Promise<Lease> {
    while (idle.length) {
      const pc = idle.pop()!;
      clearTimeout(pc.idleTimer);
      if (pc.broken || pc.conn.destroyed) {
        retire(pc);
        continue;
      }
      return Promise.resolve({ pc, reused: true });
    }
    if (slots < maxConnections) {
      slots++;
      return Promise.resolve({ pc: null, reused: false });
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const i = waiters.indexOf(w);
        if (i >= 0) waiters.splice(i, 1);
        reject(abortError('aborted while waiting for an SMTP connection'));
      };
      const w = { resolve, reject, cleanup: () => signal?.removeEventListener('abort', onAbort) };
      signal?.addEventListener('abort', onAbort, { once: true });
      waiters.push(w);
    });
  }

  /**
   * One try of a message on a leased connection (or a new one in the leased slot). The body stream is read only
   * after the server's 354: its first read marks the start of the DATA phase.
   */
  async function attempt(lease: Lease, raw: Buffer, envelope: { from: string; to: string[] }, signal?: AbortSignal): Promise<Attempt> {
    let dataStarted = false;
    const body = new Readable({
      read() {
        if (!dataStarted) {
          dataStarted = true;
          this.push(raw);
          this.push(null);
        }
      },
    });
    const pc = lease.pc ?? newConnection();
    // The provider timeout closes this message's connection (and only it); the send then fails as a closed
    // connection, `ambiguous` when the DATA phase had begun.
    const onAbort = () => pc.conn.close();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (!lease.pc) {
        try {
          await connect(pc);
        } catch (e) {
          retire(pc);
          return { ok: false, err: e as SmtpErr, dataStarted: false, staleReuse: false };
        }
      } else socketOf(pc.conn)?.ref();
      try {
        const response = await transmit(pc, envelope, body);
        pc.messages++;
        release(pc);
        return { ok: true, response };
      } catch (e) {
        const err = e as SmtpErr;
        const staleReuse = lease.reused && !dataStarted && !signal?.aborted && serverGoneBeforeReply(err, pc.conn.lastServerResponse);
        // A connection that had an error is never reused (a refused RCPT included: no RSET dance, a new one is cheap).
        retire(pc, { keepSlot: staleReuse });
        return { ok: false, err, dataStarted, staleReuse };
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async function deliver(raw: Buffer, envelope: { from: string; to: string[] }, signal?: AbortSignal): Promise<Attempt> {
    if (closed) return { ok: false, err: abortError('SMTP channel closed'), dataStarted: false, staleReuse: false };
    if (signal?.aborted) return { ok: false, err: abortError('aborted before the SMTP send began'), dataStarted: false, staleReuse: false };
    let lease: Lease;
    try {
      lease = await acquire(signal);
    } catch (e) {
      return { ok: false, err: e as SmtpErr, dataStarted: false, staleReuse: false };
    }
    const first = await attempt(lease, raw, envelope, signal);
    // The server had closed the reused connection before this message: nothing was sent; once more, on a new
    // connection in the same slot. Its failure (if any) is classified as usual.
    if (!first.ok && first.staleReuse) return attempt({ pc: null, reused: false }, raw, envelope, signal);
    return first;
  }

  return {
    name: 'smtp',
    stats: () => ({ open: slots, idle: idle.length, waiting: waiters.length, opened }),
    async close() {
      closed = true;
      for (const pc of [...idle]) retire(pc, { graceful: true });
      // Sends already asked for (queued ones too) finish; their connections are retired as they come back.
      while (inFlight.size) await Promise.allSettled([...inFlight]);
      // QUIT's reply, or 2 s, then the socket goes regardless.
      await Promise.all([...all].map((pc) => Promise.race([pc.ended, new Promise((r) => setTimeout(r, 2000).unref())])));
      for (const pc of all) pc.conn.close();
    },
    async send(message: OutgoingEmail, sendOpts: SendOptions): Promise<Outcome> {
      const raw = await composeMessage(message);
      // The envelope sender is the delivery's bounce address when set (VERP, issue #10 §4).
      const envelope = { from: message.envelopeFrom || message.from.address, to: [message.to.address] };
      const p = deliver(raw, envelope, sendOpts.signal);
      inFlight.add(p);
      const r = await p.finally(() => inFlight.delete(p));
      if (r.ok) return { class: 'accepted', providerId: message.messageId, response: r.response };
      const err = r.err;
      const c = classifySmtpFailure({ code: err.code, responseCode: err.responseCode, command: err.command, dataStarted: r.dataStarted, response: err.response });
      const code = err.responseCode ? String(err.responseCode) : (err.code ?? 'ERROR');
      // The server's own reply when there was one (`552 5.2.2 Mailbox full`), else nodemailer's description.
      const response = err.response || undefined;
      const msg = response ?? err.message;
      if (c.class === 'rejected') return { class: 'rejected', kind: c.kind, code, message: msg, response };
      if (c.class === 'rate_limited') return { class: 'rate_limited', code, message: msg, retryAfterMs: null, response };
      if (c.class === 'accepted') return { class: 'accepted', providerId: message.messageId };
      return { class: c.class, code, message: msg, response };
    },
  };
}
