/**
 * The rules of the house, as a check over source text (no new dependency): which layer may import which, and no
 * import cycles. The rules (DESIGN §2, README "Layout"):
 *   - `domain/**` imports only `domain/**` and packages, and reads neither the clock (`Date.now()`, `new Date()`
 *     with no argument, `performance.now()`) nor the environment (`process.env`);
 *   - `db/**` never imports `server/` or `app/`;
 *   - `components/**` imports `server/` or `db/` only as `import type`;
 *   - only the command-line entry points (`scripts/`: start, seed, mail-catcher), the benchmarks (`bench/`) and the
 *     mailbox (`app/(staff)/mailbox/**`, `app/api/mailbox/**`, `components/mailbox/**`) import `dev/`: the product's
 *     code (server, jobs, channels, db, every other page) never does;
 *   - nothing outside `app/` (tests apart) imports `app/`;
 *   - no import cycle among the product's modules (type-only imports do not run, so they do not count).
 * Tests (`test/`, `e2e/`, `*.test.ts`) may import anything, and are left out of the cycle check.
 *
 * Pure: {@link checkLayers} takes the files' paths and texts and returns the violations, so a test can plant one of
 * each kind; {@link readSourceTree} reads the real tree.
 */
import fs from 'node:fs';
import path from 'node:path';

/** One import found in a file: the resolved project path (or null for a package) and whether it is type-only. */
interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
  line: number;
}

const SOURCE = /\.(ts|tsx)$/;
const IMPORT_RE =
  /(?:^|\n)[ \t]*(import|export)\s+(type\s+)?(?:[\s\S]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Whether `file` is a test or browser spec (allowed to import anything). */
function isTestFile(file: string): boolean {
  return /^(test|e2e)\//.test(file) || /\.(test|spec)\.tsx?$/.test(file);
}

/** The project file an import specifier names, or null for a package (resolution as TypeScript's "bundler"). */
function resolve(from: string, spec: string, files: ReadonlySet<string>): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`, base.replace(/\.js$/, '.ts')]) {
    if (files.has(candidate)) return candidate;
  }
  return base; // a non-source file (JSON, CSS): still a project path, so layer rules apply
}

/** Every import of every file, resolved. */
function edgesOf(files: ReadonlyMap<string, string>): Edge[] {
  const names = new Set(files.keys());
  const edges: Edge[] = [];
  for (const [file, text] of files) {
    for (const m of text.matchAll(IMPORT_RE)) {
      const spec = m[3] ?? m[4] ?? m[5];
      const to = resolve(file, spec, names);
      if (to === null) continue;
      const typeOnly = !!m[2] || /^\s*(import|export)\s+type\s/.test(m[0].trimStart());
      edges.push({ from: file, to, typeOnly, line: text.slice(0, m.index).split('\n').length + (m[0].startsWith('\n') ? 1 : 0) });
    }
  }
  return edges;
}

const layer = (p: string) => p.split('/')[0];
const DEV_IMPORTERS = [/^scripts\//, /^bench\//, /^components\/mailbox\//, /^app\/\(staff\)\/mailbox\//, /^app\/api\/mailbox\//];

/** Clock and environment reads a pure module must not make, as (pattern, what) pairs. */
const IMPURE: [RegExp, string][] = [
  [/\bprocess\.env\b/, 'reads the environment (process.env)'],
  [/\bDate\.now\(\)/, 'reads the clock (Date.now())'],
  [/\bnew Date\(\s*\)/, 'reads the clock (new Date())'],
  [/\bperformance\.now\(\)/, 'reads the clock (performance.now())'],
];

/** Strips comments (so a doc comment that names `process.env` is not a read). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`])\/\/[^\n]*/g, '$1');
}

/**
 * The violations of the rules (module doc) in `files` (project-relative POSIX path → text), one line each:
 * `<file>:<line> <rule>: <detail>`. Empty when the house is in order.
 */
export function checkLayers(files: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  const edges = edgesOf(files);
  for (const e of edges) {
    if (isTestFile(e.from)) continue;
    const [a, b] = [layer(e.from), layer(e.to)];
    const at = `${e.from}:${e.line}`;
    if (a === 'domain' && b !== 'domain') out.push(`${at} domain imports only domain: ${e.to}`);
    if (a === 'db' && (b === 'server' || b === 'app')) out.push(`${at} db never imports ${b}/: ${e.to}`);
    if (a === 'components' && (b === 'server' || b === 'db') && !e.typeOnly) out.push(`${at} components import ${b}/ only as types: ${e.to}`);
    if (b === 'dev' && a !== 'dev' && !DEV_IMPORTERS.some((r) => r.test(e.from))) out.push(`${at} only the start script and the mailbox import dev/: ${e.to}`);
    if (b === 'app' && a !== 'app') out.push(`${at} nothing outside app/ imports app/: ${e.to}`);
  }
  for (const [file, text] of files) {
    if (layer(file) !== 'domain' || isTestFile(file)) continue;
    const lines = code(text).split('\n');
    lines.forEach((l, i) => {
      for (const [re, what] of IMPURE) if (re.test(l)) out.push(`${file}:${i + 1} domain is pure: ${what}`);
    });
  }
  for (const cycle of cycles(edges.filter((e) => !e.typeOnly && !isTestFile(e.from) && !isTestFile(e.to) && files.has(e.to)))) {
    out.push(`cycle: ${[...cycle, cycle[0]].join(' → ')}`);
  }
  return out;
}

/** The strongly connected components with more than one file (or a file importing itself): Tarjan's algorithm. */
function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (next.get(v) ?? []).includes(v)) found.push(scc.reverse());
    }
  };
  for (const v of [...next.keys()].sort()) if (!idx.has(v)) visit(v);
  return found;
}

/** The project's TypeScript sources under `root` (node_modules, .next, build output and data folders left out). */
export function readSourceTree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const skip = new Set(['node_modules', '.next', '.git', '.data', 'test-results', 'playwright-report', 'docs']);
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!skip.has(entry.name)) walk(rel);
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) files.set(rel, fs.readFileSync(path.join(root, rel), 'utf8'));
    }
  };
  walk('');
  return files;
}
