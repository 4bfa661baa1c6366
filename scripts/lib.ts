/** Shared process plumbing for the entry-point scripts. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTrustedProxies } from '../domain/client-address';

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
 * The secret that signs staff session cookies: `BETTER_AUTH_SECRET` when set, else one generated once per
 * data folder and kept in `<dataRoot>/auth-secret` (mode 0600), so sessions survive restarts.
 */
export function authSecret(dataRoot: string): string {
  if (process.env.BETTER_AUTH_SECRET) return process.env.BETTER_AUTH_SECRET;
  const file = path.join(dataRoot, 'auth-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const secret = randomBytes(32).toString('base64url');
    fs.mkdirSync(dataRoot, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

/**
 * Builds the Next.js app when there is no build or a source file is newer than it, in a child process that
 * does not block this one (the in-process worker keeps sending while the web app builds).
 * @throws when the build fails.
 */
export async function ensureNextBuild(log: (m: string) => void): Promise<void> {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  const sourceAt = Math.max(
    ...SOURCE_DIRS.map((d) => newestMtime(path.join(root, d))),
    ...SOURCE_FILES.map((f) => (fs.existsSync(path.join(root, f)) ? fs.statSync(path.join(root, f)).mtimeMs : 0)),
  );
  if (builtAt > sourceAt) return;
  log(builtAt ? 'sources changed since the last build: building the web app…' : 'building the web app (first start only, ~20 s)…');
  const child = spawn(process.execPath, [nextBin, 'build'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c));
  });
  if (code !== 0) throw new Error(`next build failed (exit ${code})`);
}

/**
 * Starts `next start` as a child on 127.0.0.1:`port` and resolves once it answers HTTP.
 * @throws Error naming PUNCTUAL_TRUSTED_PROXIES and the bad entry when that setting does not parse (checked
 *   before anything is spawned; the web process checks it again at start, instrumentation.ts).
 */
export async function startNext(port: number, env: Record<string, string>, log: (m: string) => void): Promise<ChildProcess> {
  parseTrustedProxies(env.PUNCTUAL_TRUSTED_PROXIES ?? process.env.PUNCTUAL_TRUSTED_PROXIES);
  // Idle keep-alive sockets stay open 65 s (Node's default is 5 s): a client (a proxy, a browser, Playwright's request
  // context) that reuses a socket just as the server closes it gets ECONNRESET. Proxies commonly keep idle upstream
  // connections for up to 60 s, so the server must outlast them (the usual advice for Node behind a load balancer).
  const keepAliveMs = Number(process.env.PUNCTUAL_KEEP_ALIVE_MS ?? 65_000);
  const child = spawn(process.execPath, [nextBin, 'start', '-p', String(port), '-H', '127.0.0.1', '--keepAliveTimeout', String(keepAliveMs)], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (b) => process.env.PUNCTUAL_VERBOSE && process.stdout.write(`[web] ${b}`));
  child.stderr?.on('data', (b) => process.stderr.write(`[web] ${b}`));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`web server exited with code ${code}`))));
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await Promise.race([fetch(`http://127.0.0.1:${port}/api/health`), exited]);
      if (res.status < 500) break;
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
 * `npm start` (found through `$PUNCTUAL_DATA_DIR/pg/postmaster.pid`: pid on line 1, port on line 4).
 * @returns null when neither is available.
 */
export function resolveDatabaseUrl(): string | null {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const pidFile = path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data', 'pg', 'postmaster.pid');
  try {
    const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    process.kill(pid, 0);
    return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  } catch {
    return null;
  }
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
