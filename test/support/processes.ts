/** Real worker processes for tests: `npm run worker`'s entry point, spawned with its own env. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');

export interface WorkerProcess {
  child: ChildProcess;
  output: () => string;
  ready: Promise<void>;
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  kill9(): void;
  /** SIGKILL, resolved once the process has exited (its socket to a peer is then closed by the kernel). */
  kill9AndWait(): Promise<void>;
}

/**
 * Spawns `scripts/worker.ts`; `ready` resolves when it prints "running".
 * @param opts.preload modules loaded with `--import` before the worker (paths relative to the project root),
 *   e.g. `test/support/system-skew.mjs` to give the process a wrong system clock.
 */
export function spawnWorker(env: Record<string, string>, opts: { preload?: string[] } = {}): WorkerProcess {
  const preload = (opts.preload ?? []).flatMap((m) => ['--import', path.join(root, m)]);
  const child = spawn(process.execPath, [...preload, '--import', 'tsx', path.join(root, 'scripts', 'worker.ts')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (b: Buffer) => {
      out += b.toString();
      if (out.includes('running')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    child.once('exit', (code, sig) => reject(new Error(`worker exited early (${code ?? sig}):\n${out}`)));
  });
  ready.catch(() => {});
  return {
    child,
    output: () => out,
    ready,
    kill9: () => child.kill('SIGKILL'),
    kill9AndWait() {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGKILL');
      return exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** Polls `check` every 100 ms until it returns true or `timeoutMs` passes. @throws on timeout, with `describe()`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, describe: () => Promise<string> | string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms: ${await describe()}`);
}
