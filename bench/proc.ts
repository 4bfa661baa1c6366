/**
 * Process plumbing for the benchmark: child processes (Punctual workers, bare workers, SMTP sinks) and what
 * Linux says about them in /proc (CPU time, peak RSS). CPU figures are in milliseconds of CPU time
 * (user + system), read from `/proc/<pid>/stat` fields 14–17 (utime, stime, cutime, cstime) in clock ticks
 * (`getconf CLK_TCK`, 100 on Linux x86-64). Off Linux every reading is null.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root } from '@/scripts/lib';

const TICK_MS = (() => {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const hz = Number(r.stdout?.trim());
  return 1000 / (Number.isFinite(hz) && hz > 0 ? hz : 100);
})();

/** Fields of /proc/<pid>/stat after the command name (which may contain spaces). */
function statFields(pid: number): string[] | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return s.slice(s.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * CPU ms used by `pid` itself (utime + stime); with `children`, also by its waited-for children that have
 * exited (cutime + cstime). Null when the process is gone or /proc is absent.
 */
export function cpuMs(pid: number, children = false): number | null {
  const f = statFields(pid);
  if (!f) return null;
  // After "pid (comm) ", index 0 is state; utime is field 14 overall → index 11 here.
  const ticks = Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0);
  return ticks * TICK_MS;
}

/** Parent pid of `pid`, or null. */
function parentPid(pid: number): number | null {
  const f = statFields(pid);
  return f ? Number(f[1]) : null;
}

/** Pids of the live direct children of `pid` (scans /proc). */
function childPids(pid: number): number[] {
  let entries: string[] = [];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  return entries.filter((e) => /^\d+$/.test(e)).map(Number).filter((p) => parentPid(p) === pid);
}

/**
 * CPU ms of a whole server process tree rooted at `pid`: the process itself, its exited children (cutime/cstime,
 * e.g. PostgreSQL backends that have ended) and its live children. Differences of two readings give the CPU
 * the tree spent in between (a child that exits in between moves from "live" to "exited" without loss).
 */
export function treeCpuMs(pid: number): number | null {
  const own = cpuMs(pid, true);
  if (own === null) return null;
  return own + childPids(pid).reduce((s, c) => s + (cpuMs(c) ?? 0), 0);
}

/** Peak resident set size of `pid` in MB (VmHWM), or null. */
export function peakRssMb(pid: number): number | null {
  try {
    const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+)\s+kB/);
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export interface Child {
  proc: ChildProcess;
  pid: number;
  /** Resolves with the first stdout line that matches the ready pattern. */
  ready: Promise<string>;
  /** Asks it to stop (SIGTERM; SIGKILL after `graceMs`) and waits. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts `node --import tsx <script>` (relative to the repository root) with `env` added to ours; `ready`
 * resolves on the first stdout chunk matching `readyPattern` and rejects if it exits first or after 90 s.
 * Other stdout is dropped unless BENCH_VERBOSE is set; stderr is passed through with a prefix.
 */
export function startNode(script: string, env: Record<string, string>, readyPattern: RegExp, label: string, ipc = false): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(root, script)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} not ready after 90 s`)), 90_000);
    proc.stdout!.on('data', (b: Buffer) => {
      const text = b.toString();
      if (process.env.BENCH_VERBOSE) process.stdout.write(`[${label}] ${text}`);
      out += text;
      const m = out.match(readyPattern);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
        out = '';
      } else if (out.length > 10_000) out = out.slice(-2000);
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited (code ${code}) before it was ready`));
    });
  });
  ready.catch(() => {});
  proc.stderr!.on('data', (b: Buffer) => {
    const text = b.toString();
    if (process.env.BENCH_VERBOSE || !/ExperimentalWarning|--trace-warnings/.test(text)) process.stderr.write(`[${label}] ${text}`);
  });
  return {
    proc,
    pid: proc.pid!,
    ready,
    async stop(graceMs = 15_000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const done = new Promise<void>((r) => proc.once('exit', () => r()));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await done;
      clearTimeout(timer);
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
