/**
 * A PostgreSQL server that speaks TLS, for tests: a proxy in front of the real (plain-text) server that answers a
 * client's SSLRequest with 'S', performs the TLS handshake with the certificate it is given, and passes the
 * decrypted protocol on to the real server — what a TLS-enabled PostgreSQL looks like on the wire. Clients that
 * start without an SSLRequest are passed through in plain text. `tlsSessions` counts finished handshakes, so a test
 * can prove a connection really used TLS.
 */
import net from 'node:net';
import tls from 'node:tls';

/** The SSLRequest code (PostgreSQL protocol: Int32 length 8, Int32 80877103). */
const SSL_REQUEST = 80877103;

export interface TlsPgProxy {
  port: number;
  tlsSessions: () => number;
  /** `url` with host `host` (default localhost) and the proxy's port. */
  urlFor(url: string, host?: string): string;
  close(): Promise<void>;
}

export async function startTlsPgProxy(target: { host: string; port: number }, cert: { cert: string; key: string }): Promise<TlsPgProxy> {
  let sessions = 0;
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => (sockets.add(s), s.once('close', () => sockets.delete(s)), s);
  const pipe = (client: net.Socket, first: Buffer | null) => {
    const upstream = track(net.connect(target.port, target.host));
    if (first?.length) upstream.write(first);
    client.pipe(upstream).pipe(client);
    const end = () => (client.destroy(), upstream.destroy());
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  };
  const server = net.createServer((raw) => {
    track(raw);
    raw.once('readable', function onReadable() {
      const head = raw.read(8) as Buffer | null;
      if (!head) return raw.once('readable', onReadable);
      if (head.readInt32BE(0) !== 8 || head.readInt32BE(4) !== SSL_REQUEST) return pipe(raw, head);
      raw.write('S');
      const secure = track(new tls.TLSSocket(raw, { isServer: true, cert: cert.cert, key: cert.key }) as unknown as net.Socket);
      secure.once('secure', () => {
        sessions++;
        pipe(secure, null);
      });
      secure.on('error', () => raw.destroy());
    });
  });
  // Both loopbacks (`localhost` may resolve to ::1 or 127.0.0.1).
  await new Promise<void>((r) => server.listen({ port: 0, host: '::', ipv6Only: false }, () => r()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    tlsSessions: () => sessions,
    urlFor(url, host = 'localhost') {
      const u = new URL(url);
      u.hostname = host;
      u.port = String(port);
      return u.toString();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
