/**
 * A null SMTP sink: a real SMTP server (smtp-server) on 127.0.0.1 that accepts every message and forgets it.
 * No STARTTLS, no authentication, no reverse DNS lookup of the client (smtp-server's default lookup delays the
 * greeting), Nagle off on every socket (`setNoDelay`), so a sender's cost is what the benchmark sees. It keeps
 * only counts: messages received, and distinct `Message-ID` header values (to spot a duplicate send).
 */
import { SMTPServer } from 'smtp-server';

interface NullSink {
  port: number;
  /** smtp://127.0.0.1:<port>?ignoreTLS=true */
  url: string;
  stats(): { messages: number; distinctMessageIds: number; bytes: number };
  close(): Promise<void>;
}

/** Starts the sink on `port` (0 = any free port). @throws when the port is taken. */
export async function startNullSink(port = 0): Promise<NullSink> {
  let messages = 0;
  let bytes = 0;
  const ids = new Set<string>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    size: 0,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // The Message-ID header sits in the header block: look only at the first 16 kB.
        if (head.length < 16_384) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        messages++;
        const m = head.slice(0, 16_384).match(/^message-id:\s*(\S+)/im);
        if (m) ids.add(m[1]);
        callback();
      });
    },
  });
  server.server.on('connection', (socket: import('node:net').Socket) => socket.setNoDelay(true));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  server.on('error', (e) => console.error('[null-sink]', e));
  const addr = server.server.address();
  const p = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    port: p,
    url: `smtp://127.0.0.1:${p}?ignoreTLS=true`,
    stats: () => ({ messages, distinctMessageIds: ids.size, bytes }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
