/**
 * SMTP channel (nodemailer). Drives one `SMTPConnection` per send so it knows exactly when the DATA phase
 * began (the message stream is only read after the server's 354): failures before it are safe to retry,
 * failures after it are `ambiguous` (domain/smtp-outcome.ts). A failure carries the server's own reply text
 * (`response`, e.g. `421 4.3.2 Service shutting down`) whenever the server said something.
 *
 * URL form: `smtp://[user:pass@]host:port` (STARTTLS when offered; `?ignoreTLS=true` for plaintext
 * catchers) or `smtps://…` (implicit TLS, RFC 8314).
 */
import { Readable } from 'node:stream';
import MailComposer from 'nodemailer/lib/mail-composer';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { classifySmtpFailure } from '../domain/smtp-outcome';
import type { EmailChannel, OutgoingEmail, Outcome, SendOptions } from './types';

export interface SmtpChannelOptions {
  url: string;
  /** ms to wait for TCP connect / greeting; default 10 000. */
  connectTimeoutMs?: number;
  /** ms of socket inactivity before giving up; default 30 000. */
  socketTimeoutMs?: number;
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
  };
}

/** Builds the RFC 5322 message (multipart/alternative text + HTML) as bytes. */
export async function composeMessage(m: OutgoingEmail): Promise<Buffer> {
  const composer = new MailComposer({
    from: m.from,
    to: m.to,
    subject: m.subject,
    html: m.html,
    text: m.text,
    messageId: m.messageId,
    headers: m.headers,
    // nodemailer's iTIP support: a text/calendar alternative with `method=` plus the same file attached.
    ...(m.calendar ? { icalEvent: { method: m.calendar.method, filename: m.calendar.filename, content: m.calendar.content } } : {}),
  });
  return new Promise((resolve, reject) => composer.compile().build((err, buf) => (err ? reject(err) : resolve(buf))));
}

type SmtpErr = Error & { code?: string; responseCode?: number; command?: string; response?: string };

/** Creates an SMTP channel for `opts.url`. @throws Error for a malformed URL. */
export function createSmtpChannel(opts: SmtpChannelOptions): EmailChannel {
  const cfg = parseSmtpUrl(opts.url);
  return {
    name: 'smtp',
    async close() {},
    async send(message: OutgoingEmail, sendOpts: SendOptions): Promise<Outcome> {
      const raw = await composeMessage(message);
      let dataStarted = false;
      // Read only after 354: the first _read marks the start of the DATA phase.
      const body = new Readable({
        read() {
          if (!dataStarted) {
            dataStarted = true;
            this.push(raw);
            this.push(null);
          }
        },
      });
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
      const onAbort = () => conn.close();
      sendOpts.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const info = await new Promise<{ response: string; messageId?: string }>((resolve, reject) => {
          let settled = false;
          const fail = (e: SmtpErr) => {
            if (!settled) {
              settled = true;
              reject(e);
            }
          };
          conn.once('error', fail);
          // nodemailer emits 'end' while it closes, *before* it hands the pending send its error (e.g. a
          // `421 4.3.2 Service shutting down` to RCPT): give that error the first word, and otherwise keep the
          // server's last failure reply, so the attempt records what the server said.
          conn.once('end', () =>
            setImmediate(() => {
              const last = String((conn as unknown as { lastServerResponse?: string | false }).lastServerResponse || '');
              const reply = /^[45]\d{2}[ -]/.test(last) ? last : undefined;
              fail(Object.assign(new Error('connection closed'), { code: 'ECONNECTION', response: reply, responseCode: reply ? Number(reply.slice(0, 3)) : undefined }));
            }),
          );
          conn.connect(() => {
            const afterAuth = () =>
              // The envelope sender is the delivery's bounce address when set (VERP, issue #10 §4).
              conn.send({ from: message.envelopeFrom || message.from.address, to: [message.to.address] }, body, (err, res) => {
                if (err) return fail(err as SmtpErr);
                settled = true;
                resolve({ response: String(res.response ?? '') });
              });
            if (cfg.auth) conn.login(cfg.auth, (err) => (err ? fail(err as SmtpErr) : afterAuth()));
            else afterAuth();
          });
        });
        conn.quit();
        return { class: 'accepted', providerId: message.messageId, response: info.response };
      } catch (e) {
        const err = e as SmtpErr;
        conn.close();
        const c = classifySmtpFailure({ code: err.code, responseCode: err.responseCode, command: err.command, dataStarted, response: err.response });
        const code = err.responseCode ? String(err.responseCode) : (err.code ?? 'ERROR');
        // The server's own reply when there was one (`552 5.2.2 Mailbox full`), else nodemailer's description.
        const response = err.response || undefined;
        const msg = response ?? err.message;
        if (c.class === 'rejected') return { class: 'rejected', kind: c.kind, code, message: msg, response };
        if (c.class === 'rate_limited') return { class: 'rate_limited', code, message: msg, retryAfterMs: null, response };
        if (c.class === 'accepted') return { class: 'accepted', providerId: message.messageId };
        return { class: c.class, code, message: msg, response };
      } finally {
        sendOpts.signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}
