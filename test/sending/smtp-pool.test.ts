/**
 * The SMTP channel's connection pool (channels/smtp.ts) against a real SMTP server (smtp-server on 127.0.0.1) that
 * counts connections and can fail the n-th message of a connection at a chosen point: many messages share few
 * connections; a connection the server closed while idle is replaced without the message noticing; a drop after the
 * DATA phase began on a reused connection is still `ambiguous` and that connection is never used again; the abort
 * signal closes only its message's connection; `close()` waits for the sends it was asked for.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { createSmtpChannel, type SmtpChannel } from '@/channels/smtp';
import type { OutgoingEmail } from '@/channels/types';

/** What the server does with one message: `n` is its 1-based number on its connection. */
type Behaviour = 'accept' | 'eof-at-mail' | '421-at-mail' | 'drop-mid-data' | '550-at-rcpt' | `delay:${number}`;

interface Sink {
  url: string;
  /** Connections opened so far. */
  connections: number;
  /** Open right now. */
  open(): number;
  /** Complete messages kept, with the connection (1-based) they came over. */
  received: { to: string; connection: number }[];
  /** DATA phases begun (bodies started), complete or not. */
  dataStarted: number;
  close(): Promise<void>;
}

async function startSink(plan: (n: number, connection: number) => Behaviour = () => 'accept', opts: { socketTimeoutMs?: number } = {}): Promise<Sink> {
  const sink = { connections: 0, received: [] as Sink['received'], dataStarted: 0 } as Sink;
  const connOf = new Map<string, { no: number; messages: number; behaviour: Behaviour }>();
  const kill = (sessionId: string) => {
    for (const c of (server as unknown as { connections: Set<{ id: string; _socket: { destroy(): void } }> }).connections) if (c.id === sessionId) c._socket.destroy();
  };
  const server: SMTPServer = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    ...(opts.socketTimeoutMs ? { socketTimeout: opts.socketTimeoutMs } : {}),
    onConnect(session, cb) {
      connOf.set(session.id, { no: ++sink.connections, messages: 0, behaviour: 'accept' });
      cb();
    },
    onMailFrom(_addr, session, cb) {
      const c = connOf.get(session.id)!;
      c.behaviour = plan(++c.messages, c.no);
      if (c.behaviour === 'eof-at-mail') return kill(session.id); // as if it had timed the session out just before
      if (c.behaviour === '421-at-mail') return cb(Object.assign(new Error('4.4.2 Idle timeout, closing connection'), { responseCode: 421 }));
      cb();
    },
    onRcptTo(_addr, session, cb) {
      if (connOf.get(session.id)!.behaviour === '550-at-rcpt') return cb(Object.assign(new Error('5.1.1 no such user'), { responseCode: 550 }));
      cb();
    },
    onData(stream, session, cb) {
      const c = connOf.get(session.id)!;
      sink.dataStarted++;
      if (c.behaviour === 'drop-mid-data') {
        stream.once('data', () => kill(session.id));
        stream.resume();
        return;
      }
      stream.resume();
      stream.on('end', async () => {
        if (c.behaviour.startsWith('delay:')) await new Promise((r) => setTimeout(r, Number(c.behaviour.slice(6))));
        sink.received.push({ to: session.envelope.rcptTo[0]?.address ?? '', connection: c.no });
        cb();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const a = server.server.address();
  sink.url = `smtp://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}?ignoreTLS=true`;
  sink.open = () => (server as unknown as { connections: Set<unknown> }).connections.size;
  sink.close = () =>
    new Promise((r) => {
      for (const c of (server as unknown as { connections: Set<{ _socket: { destroy(): void } }> }).connections) c._socket.destroy();
      server.close(() => r());
    });
  return sink;
}

const mail = (i: number): OutgoingEmail => ({
  tenantId: '00000000-0000-4000-8000-00000000a11a',
  from: { name: 'Acme', address: 'hi@acme.test' },
  to: { name: `P ${i}`, address: `p${i}@example.test` },
  subject: `Reminder ${i}`,
  html: `<p>${'Your workshop starts at 10:00. '.repeat(200)}</p>`,
  text: 'Your workshop starts at 10:00. '.repeat(200),
  messageId: `<m${i}@acme.test>`,
});

let sink: Sink | undefined;
let channel: SmtpChannel | undefined;
afterEach(async () => {
  await channel?.close();
  await sink?.close();
  channel = sink = undefined;
});
const send = (i: number, signal?: AbortSignal) => channel!.send(mail(i), { idempotencyKey: `k${i}`, signal });
const until = async (cond: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
};

describe('SMTP connection pool', () => {
  it('many messages reuse few connections: 60 sends 10 at a time over 3, 20 in a row over 1, maxMessages renews', async () => {
    sink = await startSink();
    channel = createSmtpChannel({ url: `${sink.url}&pool=3` });
    let next = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const out = [];
        while (next < 60) out.push(await send(next++));
        return out;
      }),
    );
    expect(outcomes.flat().map((o) => o.class)).toEqual(Array(60).fill('accepted'));
    expect(sink.received).toHaveLength(60);
    expect(sink.connections).toBeLessThanOrEqual(3);
    expect(channel.stats()).toMatchObject({ open: sink.connections, idle: sink.connections, waiting: 0 });

    const before = sink.connections;
    for (let i = 100; i < 120; i++) expect((await send(i)).class).toBe('accepted');
    expect(sink.connections).toBe(before); // the warm connections carried them
    await channel.close();

    // maxMessages: a connection is replaced after that many messages.
    channel = createSmtpChannel({ url: sink.url, maxMessages: 5 });
    const at = sink.connections;
    for (let i = 200; i < 220; i++) expect((await send(i)).class).toBe('accepted');
    expect(sink.connections - at).toBe(4);
  });

  it('a reused connection the server closed while idle (EOF or 421 at MAIL FROM) is replaced transparently', async () => {
    // The 2nd message of every connection finds it already closed by the server.
    for (const closing of ['eof-at-mail', '421-at-mail'] as const) {
      sink = await startSink((n) => (n === 2 ? closing : 'accept'));
      channel = createSmtpChannel({ url: sink.url, maxConnections: 1 });
      expect((await send(1)).class).toBe('accepted');
      const second = await send(2);
      expect(second, closing).toMatchObject({ class: 'accepted' });
      expect(sink.received.map((r) => [r.to, r.connection])).toEqual([
        ['p1@example.test', 1],
        ['p2@example.test', 2],
      ]);
      expect(sink.dataStarted).toBe(2); // sent once
      await channel.close();
      await sink.close();
    }
    // Not on a new connection: there the same failure is a plain transient failure, classified as before.
    sink = await startSink(() => 'eof-at-mail');
    channel = createSmtpChannel({ url: sink.url });
    expect(await send(3)).toMatchObject({ class: 'transient', code: 'ECONNECTION' });
    expect(sink.connections).toBe(1);
  });

  it('a connection the server timed out while idle is dropped from the pool; the next send opens a new one', async () => {
    sink = await startSink(() => 'accept', { socketTimeoutMs: 300 });
    channel = createSmtpChannel({ url: sink.url });
    expect((await send(1)).class).toBe('accepted');
    expect(channel.stats().idle).toBe(1);
    await until(() => channel!.stats().idle === 0);
    expect(channel.stats()).toMatchObject({ open: 0, idle: 0 });
    expect((await send(2)).class).toBe('accepted');
    expect(sink.connections).toBe(2);
  });

  it('a drop after the DATA phase began on a reused connection → ambiguous, not resent, and that connection is not reused', async () => {
    sink = await startSink((n, conn) => (conn === 1 && n === 2 ? 'drop-mid-data' : 'accept'));
    channel = createSmtpChannel({ url: sink.url, maxConnections: 1 });
    expect((await send(1)).class).toBe('accepted');
    const dropped = await send(2);
    expect(dropped).toMatchObject({ class: 'ambiguous' });
    expect(sink.dataStarted).toBe(2); // the body went once, never again
    expect((await send(3)).class).toBe('accepted');
    expect(sink.received.map((r) => [r.to, r.connection])).toEqual([
      ['p1@example.test', 1],
      ['p3@example.test', 2],
    ]);
  });

  it('a refused recipient on a reused connection → rejected, and the next message gets a new connection', async () => {
    sink = await startSink((n, conn) => (conn === 1 && n === 2 ? '550-at-rcpt' : 'accept'));
    channel = createSmtpChannel({ url: sink.url, maxConnections: 1 });
    expect((await send(1)).class).toBe('accepted');
    expect(await send(2)).toMatchObject({ class: 'rejected', kind: 'invalid_recipient', code: '550' });
    expect((await send(3)).class).toBe('accepted');
    expect(sink.received.map((r) => r.connection)).toEqual([1, 2]);
  });

  it('the abort signal closes that message’s connection only: ambiguous after DATA began, the other send is unharmed', async () => {
    sink = await startSink((n, conn) => (conn === 1 ? 'delay:1500' : 'accept'));
    channel = createSmtpChannel({ url: sink.url, maxConnections: 2 });
    const slow = send(1, AbortSignal.timeout(400));
    await until(() => sink!.connections === 1);
    const fast = send(2);
    expect(await fast).toMatchObject({ class: 'accepted' });
    expect(await slow).toMatchObject({ class: 'ambiguous' });
    await until(() => channel!.stats().open === 1);
    expect(channel.stats()).toMatchObject({ open: 1, idle: 1 }); // connection 2 kept, connection 1 gone
    expect((await send(3)).class).toBe('accepted');
    expect(sink.connections).toBe(2);
  });

  it('close() waits for in-flight and queued sends, then ends every connection; a send after it is transient', async () => {
    // Three 800 ms messages, one at a time: longer than the 2 s close() gives a connection to answer QUIT.
    sink = await startSink(() => 'delay:800');
    channel = createSmtpChannel({ url: sink.url, maxConnections: 1 });
    let settled = 0;
    const sends = [1, 2, 3].map((i) => send(i).finally(() => settled++));
    await until(() => sink!.connections === 1);
    const t0 = Date.now();
    await channel.close();
    expect(settled).toBe(3);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(2000);
    expect((await Promise.all(sends)).map((o) => o.class)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(sink.received).toHaveLength(3);
    expect(channel.stats()).toMatchObject({ open: 0, idle: 0, waiting: 0 });
    await until(() => sink!.open() === 0);
    expect(sink.open()).toBe(0);
    expect(await send(4)).toMatchObject({ class: 'transient' });
    expect(sink.connections).toBe(1);
  });

  it('reads pool settings from the URL and refuses bad ones', () => {
    expect(() => createSmtpChannel({ url: 'smtp://127.0.0.1:25?pool=0' })).toThrow(/pool/);
    expect(() => createSmtpChannel({ url: 'smtp://127.0.0.1:25?maxMessages=x' })).toThrow(/maxMessages/);
    expect(() => createSmtpChannel({ url: 'smtp://127.0.0.1:25', maxConnections: 1.5 })).toThrow(/maxConnections/);
  });
});
