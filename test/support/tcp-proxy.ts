/**
 * A TCP proxy in front of a real server (PostgreSQL here) that can be FROZEN: while paused, connections are still
 * accepted and bytes are still read from both sides, but nothing is passed on — to the client the server looks
 * exactly like a stopped process (SIGSTOP): the socket is open, nothing ever answers. `resume()` delivers what was
 * held, in order, as a thawed server would.
 */
import net from 'node:net';

export interface TcpProxy {
  /** 127.0.0.1 port the proxy listens on. */
  port: number;
  /** `url` (a postgres:// URL of the real server) with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (host and port of the real server). */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let paused = false;
  const held: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  const pass = (to: net.Socket) => (chunk: Buffer) => {
    const send = () => {
      if (!to.destroyed) to.write(chunk);
    };
    if (paused) held.push(send);
    else send();
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    client.on('data', pass(upstream));
    upstream.on('data', pass(client));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      for (const send of held.splice(0)) send();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
