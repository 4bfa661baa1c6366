/**
 * A Slack-compatible incoming-webhook receiver for tests, on 127.0.0.1: `POST /services/<anything>` with a JSON
 * body `{ text }`. Each post takes the next scripted answer (the last repeats): `ok` → 200 `ok` (Slack's answer);
 * a number → that status (e.g. 500, 404 `no_service`). `posts` lists every post (answered or not) with its text.
 */
import http from 'node:http';

interface SlackPost {
  path: string;
  text: string;
  status: number;
  contentType: string | undefined;
}

export interface SlackPeer {
  /** Webhook URL to paste into the settings. */
  url: string;
  posts: SlackPost[];
  script(...answers: ('ok' | number)[]): void;
  close(): Promise<void>;
}

export async function startSlackPeer(initial: ('ok' | number)[] = ['ok']): Promise<SlackPeer> {
  let queue = [...initial];
  const next = () => (queue.length > 1 ? queue.shift()! : queue[0]);
  const posts: SlackPost[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let text = '';
      try {
        text = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text?: unknown }).text ?? '');
      } catch {
        text = '(not JSON)';
      }
      const a = next();
      const status = a === 'ok' ? 200 : a;
      posts.push({ path: req.url ?? '/', text, status, contentType: req.headers['content-type'] });
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(a === 'ok' ? 'ok' : status === 404 ? 'no_service' : 'error');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/services/T000/B000/alerts`,
    posts,
    script: (...a) => {
      queue = [...a];
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
