import net from 'node:net';
import { expect, test } from './support';

/**
 * The web server keeps an idle keep-alive connection open longer than Node's 5 s default (scripts/lib.ts
 * startNext, `--keepAliveTimeout` 65 s): a client that reuses a connection idle for a few seconds must get an
 * answer, not ECONNRESET (CI once failed on exactly that: Playwright's request context reused a socket that the
 * server was closing). Raw HTTP/1.1 on one socket, two requests 6 s apart.
 */
test('an idle keep-alive connection is still served after 6 s', async ({ baseURL }) => {
  const url = new URL(baseURL!);
  const socket = net.connect(Number(url.port), url.hostname);
  socket.setEncoding('latin1');
  let received = '';
  let closed = false;
  socket.on('data', (d: string) => (received += d));
  socket.on('close', () => (closed = true));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const request = `GET /api/health HTTP/1.1\r\nHost: ${url.host}\r\nConnection: keep-alive\r\n\r\n`;
  const responses = () => received.match(/^HTTP\/1\.1 \d{3}/gm)?.length ?? 0;
  try {
    socket.write(request);
    await expect.poll(responses, { timeout: 10_000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 6_000));
    expect(closed, 'the server closed the idle connection').toBe(false);
    socket.write(request);
    await expect.poll(responses, { timeout: 10_000 }).toBe(2);
  } finally {
    socket.destroy();
  }
});
