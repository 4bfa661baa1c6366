/**
 * The worker renders with React's production build (issue #11): `npm run worker` and `npm start` load
 * scripts/production-env.ts before anything else, so NODE_ENV is `production` (unless set) when React is first
 * loaded. Checked on the real entry point: `node --import tsx scripts/worker.ts` without DATABASE_URL loads all of
 * its imports (React included) and then exits; a preloaded probe reports which React build was loaded.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');

// Prints, at exit, NODE_ENV and the React JSX runtime builds that were run (CommonJS module cache).
const probe = `data:text/javascript,${encodeURIComponent(`
import { createRequire } from 'node:module';
const require = createRequire(${JSON.stringify(path.join(root, 'package.json'))});
process.on('exit', () => {
  // Only modules that ran: Node's ESM loader also pre-parses (without running) both builds that react/jsx-runtime.js may re-export.
  const loaded = Object.keys(require.cache).filter((k) => /react-jsx-runtime\\.(production|development)\\.js$/.test(k) && require.cache[k].loaded);
  process.stdout.write('PROBE ' + JSON.stringify({ nodeEnv: process.env.NODE_ENV ?? null, loaded }) + '\\n');
});
`)}`;

function runWorkerEntry(env: Record<string, string | undefined>): { nodeEnv: string | null; builds: string[]; loaded: string[] } {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) childEnv[k] = v;
  const r = spawnSync(process.execPath, ['--import', probe, '--import', 'tsx', path.join(root, 'scripts', 'worker.ts')], {
    cwd: root,
    env: childEnv as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('PROBE '));
  if (!line) throw new Error(`no probe output (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  const seen = JSON.parse(line.slice(6)) as { nodeEnv: string | null; loaded: string[] };
  return { ...seen, builds: seen.loaded.map((k) => (k.endsWith('.production.js') ? 'production' : 'development')) };
}

describe('worker entry points load React in production mode', () => {
  it('npm run worker (scripts/worker.ts) without NODE_ENV: production, React production build', () => {
    const seen = runWorkerEntry({ NODE_ENV: undefined, DATABASE_URL: undefined });
    expect(seen.nodeEnv).toBe('production');
    expect(seen.builds, JSON.stringify(seen)).toEqual(['production']);
  }, 60_000);

  it('an explicit NODE_ENV is kept', () => {
    const seen = runWorkerEntry({ NODE_ENV: 'development', DATABASE_URL: undefined });
    expect(seen.nodeEnv).toBe('development');
    expect(seen.builds, JSON.stringify(seen)).toEqual(['development']);
  }, 60_000);

  it('scripts/worker.ts and scripts/start.ts import scripts/production-env.ts first', () => {
    for (const file of ['worker.ts', 'start.ts']) {
      const source = readFileSync(path.join(root, 'scripts', file), 'utf8');
      const firstImport = source.match(/^import .*$/m)?.[0];
      expect(firstImport, file).toBe("import './production-env';");
    }
  });
});
