/** Shared process plumbing for the entry-point scripts. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runningAppUrl } from '@/db/embedded';
import { parseTrustedProxies } from '@/domain/accounts/client-address';
import { SCHEMA_BEHIND_MESSAGE } from '@/domain/platform/schema-version';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');

const SOURCE_DIRS = ['app', 'components', 'db', 'domain', 'emails', 'server', 'channels'];
const SOURCE_FILES = ['next.config.ts', 'proxy.ts'];

function newestMtime(dir: string): number {
  let newest = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * A secret kept in the data folder: `<dataRoot>/<name>` (mode 0600), generated once (32 random bytes, base64url) so
 * it survives restarts. A file left readable by others is narrowed to 0600.
 */
export function dataFolderSecret(dataRoot: string, name: string): string {
  const file = path.join(dataRoot, name);
  try {
    const secret = fs.readFileSync(file, 'utf8').trim();
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
    return secret;
  } catch {
    const secret = randomBytes(32).toString('base64url');
    fs.mkdirSync(dataRoot, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

/**
 * The secret that signs staff session cookies: `BETTER_AUTH_SECRET` when set, else one generated once per
 * data folder and kept in `<dataRoot>/auth-secret` (mode 0600), so sessions survive restarts.
 */
export function authSecret(dataRoot: string): string {
  if (process.env.BETTER_AUTH_SECRET) return process.env.BETTER_AUTH_SECRET;
  return dataFolderSecret(dataRoot, 'auth-secret');
}

/**
 * The step a line of `next build` output names, e.g. "Creating an optimized production build", "Compiled successfully
 * in 68s", "Running TypeScript", "Generating static pages (12/20)"; null for other lines (the route table, blanks).
 */
export function buildPhase(line: string): string | null {
  // eslint-disable-next-line no-control-regex
  const text = line.replace(/\x1b\[[0-9;]*m/g, '').replace(/^[\s✓○▲⚠•-]+/u, '').replace(/\s*(\.{3}|…)\s*$/u, '').trim();
  return /^(?:[A-Z][a-z]+ing\b|Compiled\b|Finished\b)/.test(text) && text.length <= 100 ? text : null;
}

/**
 * Builds the Next.js app when there is no build or a source file is newer than it, in a child process that
 * does not block this one (the in-process worker keeps sending while the web app builds). A first build on a busy
 * 2-core machine takes minutes (README "First start").
 *   - without `logFile` (npm test): the build's own output passes through, and every 10 s a line says how long it
 *     has been building and the step it is at;
 *   - with `logFile` (npm start): the build's output goes to that file, and the terminal gets ONE progress line —
 *     rewritten in place each second on a terminal, a new line every 10 s when the output is a file or a pipe.
 *     When the build fails, the file's last 40 lines are printed before the error.
 * @throws when the build fails.
 */
export async function ensureNextBuild(log: (m: string) => void, opts: { logFile?: string } = {}): Promise<void> {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  const sourceAt = Math.max(
    ...SOURCE_DIRS.map((d) => newestMtime(path.join(root, d))),
    ...SOURCE_FILES.map((f) => (fs.existsSync(path.join(root, f)) ? fs.statSync(path.join(root, f)).mtimeMs : 0)),
  );
  if (builtAt > sourceAt) return;
  log(
    builtAt
      ? 'sources changed since the last build: building the web app…'
      : 'building the web app (first start only: about 1½ minutes on a quiet 2-core machine, 4–5 on a busy one)…',
  );
  const t0 = Date.now();
  let phase = 'starting';
  const child = spawn(process.execPath, [nextBin, 'build'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  const file = opts.logFile ? (fs.mkdirSync(path.dirname(opts.logFile), { recursive: true }), fs.openSync(opts.logFile, 'w')) : undefined;
  const pass = (stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream) => {
    let rest = '';
    stream?.on('data', (b: Buffer) => {
      if (file === undefined) out.write(b);
      else fs.writeSync(file, b);
      const lines = (rest + b.toString('utf8')).split(/\r?\n|\r/);
      rest = lines.pop() ?? '';
      for (const l of lines) phase = buildPhase(l) ?? phase;
    });
  };
  pass(child.stdout, process.stdout);
  pass(child.stderr, process.stderr);
  const status = () => `building the web app… ${Math.round((Date.now() - t0) / 1000)} s (${phase})`;
  // One line rewritten in place on a terminal; elsewhere (a file, a pipe) a new line every 10 s.
  const inPlace = file !== undefined && process.stdout.isTTY;
  const progress = inPlace
    ? setInterval(() => process.stdout.write(`\r\x1b[2K  ${status()}`), 1000)
    : setInterval(() => log(status()), 10_000);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c));
  }).finally(() => {
    clearInterval(progress);
    if (inPlace) process.stdout.write('\r\x1b[2K');
    if (file !== undefined) fs.closeSync(file);
  });
  if (code !== 0) {
    if (opts.logFile) process.stderr.write(`${fs.readFileSync(opts.logFile, 'utf8').split('\n').slice(-40).join('\n')}\n`);
    throw new Error(`next build failed (exit ${code})${opts.logFile ? `; its whole output is in ${path.relative(process.cwd(), opts.logFile)}` : ''}`);
  }
  log(`web app built in ${Math.round((Date.now() - t0) / 1000)} s`);
}

/**
 * Starts `next start` as a child on `host` (default 127.0.0.1):`port` (its stdout — the web app's JSON log lines —
 * appended to `opts.logFile` when given; its stderr always shown with a `[web]` prefix) and resolves once `/api/health` answers below
 * 500 — or answers 503 because the database schema is behind this build (then it logs that the app is up but not
 * ready, and resolves: readiness turns 200 once `npm run migrate` has run).
 * @throws Error naming PUNCTUAL_TRUSTED_PROXIES and the bad entry when that setting does not parse (checked
 *   before anything is spawned; the web process checks it again at start, instrumentation.ts).
 */
export async function startNext(
  port: number,
  env: Record<string, string>,
  log: (m: string) => void,
  host = '127.0.0.1',
  opts: { logFile?: string } = {},
): Promise<ChildProcess> {
  parseTrustedProxies(env.PUNCTUAL_TRUSTED_PROXIES ?? process.env.PUNCTUAL_TRUSTED_PROXIES);
  // Idle keep-alive sockets stay open 65 s (Node's default is 5 s): a client (a proxy, a browser, Playwright's request
  // context) that reuses a socket just as the server closes it gets ECONNRESET. Proxies commonly keep idle upstream
  // connections for up to 60 s, so the server must outlast them (the usual advice for Node behind a load balancer).
  const keepAliveMs = Number(process.env.PUNCTUAL_KEEP_ALIVE_MS ?? 65_000);
  const child = spawn(process.execPath, [nextBin, 'start', '-p', String(port), '-H', host, '--keepAliveTimeout', String(keepAliveMs)], {
    cwd: root,
    // NEXT_MANUAL_SIG_HANDLE: the app handles SIGTERM itself — not ready, drain, exit (server/platform/web-shutdown.ts).
    env: { ...process.env, ...env, PORT: String(port), NEXT_TELEMETRY_DISABLED: '1', NEXT_MANUAL_SIG_HANDLE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Its JSON log lines: to `opts.logFile` when given (npm start), to the terminal as well with PUNCTUAL_VERBOSE.
  const file = opts.logFile ? (fs.mkdirSync(path.dirname(opts.logFile), { recursive: true }), fs.openSync(opts.logFile, 'a', 0o600)) : undefined;
  child.stdout?.on('data', (b: Buffer) => {
    if (file !== undefined) fs.writeSync(file, b);
    if (process.env.PUNCTUAL_VERBOSE) process.stdout.write(`[web] ${b}`);
  });
  child.once('exit', () => file !== undefined && fs.closeSync(file));
  child.stderr?.on('data', (b) => process.stderr.write(`[web] ${b}`));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`web server exited with code ${code}`))));
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await Promise.race([fetch(`http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${port}/api/health`), exited]);
      if (res.status < 500) break;
      // Up, but the database schema is behind this build: it stays not ready (503 on /api/health/ready) until
      // `npm run migrate` has run — say so rather than wait out the minute.
      const body = (await res.json().catch(() => ({}))) as { error?: string };
      if (body.error?.startsWith(SCHEMA_BEHIND_MESSAGE)) {
        log(`web app on port ${port} is up but NOT READY: ${body.error}`);
        return child;
      }
    } catch (e) {
      if (e instanceof Error && e.message.startsWith('web server exited')) throw e;
    }
    if (Date.now() > deadline) throw new Error('web server did not answer within 60 s');
    await new Promise((r) => setTimeout(r, 150));
  }
  log(`web app ready on port ${port}`);
  return child;
}

/** Stops a child process and waits for it (SIGTERM, then SIGKILL after `graceMs`). */
export async function stopChild(child: ChildProcess | undefined, graceMs = 5000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await done;
  clearTimeout(timer);
}

/** Reads a required env var or exits 2 with a line on stderr naming it. */
export function requireEnv(name: string, hint: string): string {
  const v = process.env[name];
  if (!v) {
    console.error(`${name} is not set: ${hint}`);
    process.exit(2);
  }
  return v;
}

/**
 * The database a CLI command should use: DATABASE_URL when set, else the embedded PostgreSQL of a running
 * `npm start` in `$PUNCTUAL_DATA_DIR` (default `.data`): its app database as the app's role, over the server's Unix
 * socket (or TCP port), with the password from `<data folder>/pg-credentials.json` (db/embedded.ts).
 * @returns null when neither is available.
 */
export function resolveDatabaseUrl(): string | null {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  return runningAppUrl(path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data', 'pg'));
}

/** The same, or exit 2 with a line on stderr saying how to get one. */
export function requireDatabaseUrl(): string {
  const url = resolveDatabaseUrl();
  if (!url) {
    console.error('DATABASE_URL is not set and no `npm start` database is running here: start the app with `npm start` (in another terminal), or set DATABASE_URL');
    process.exit(2);
  }
  return url;
}

/** The message of an error for a person: the database's own words for a failed query (drizzle wraps them). */
export function errorMessage(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as { cause?: unknown }).cause;
  if (cause instanceof Error && /^Failed query/.test(e.message)) return cause.message;
  return e.message;
}

/**
 * The public URL of the `npm start` running in `$PUNCTUAL_DATA_DIR` (default `.data`): PUNCTUAL_PUBLIC_URL from the
 * `local.env` it writes (scripts/start.ts, mode 0600), or null when there is none. Used by CLI commands that print
 * links (`npm run tenant`) when neither PUNCTUAL_PUBLIC_URL nor DATABASE_URL is set — they then talk to that instance.
 */
export function runningAppPublicUrl(): string | null {
  try {
    const text = fs.readFileSync(path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data', 'local.env'), 'utf8');
    const m = /^PUNCTUAL_PUBLIC_URL='([^'\n]*)'$/m.exec(text);
    return m ? m[1] : null;
  } catch {
    return null;
  }
}
