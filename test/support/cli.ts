/**
 * Runs one of the repository's CLI scripts as a person's `npm run <name>` does, minus npm: a child
 * `node --import tsx scripts/<file>.ts args…` (the command package.json gives each of them, which
 * {@link packageScriptCommand} lets a test check), in the repository root. Skipping npm and npx saves about a
 * second per call on a quiet 2-core machine and several on a busy one, and keeps npm's own notices off stderr.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What a finished CLI run printed and its exit code (1 when it died by a signal or timed out). */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * `node --import tsx <script> …args` with `env` laid over this process's environment (a value of undefined
 * removes that variable). Never rejects: a non-zero exit is `code`. Times out after `timeoutMs` (default 60 s).
 */
export function runCli(script: string, args: string[], env: Record<string, string | undefined> = {}, timeoutMs = 60_000): Promise<CliRun> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', script, ...args], { cwd: repoRoot, env: childEnv, timeout: timeoutMs }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The command package.json runs for `npm run <name>`. */
export function packageScriptCommand(name: string): string | undefined {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  return pkg.scripts[name];
}
