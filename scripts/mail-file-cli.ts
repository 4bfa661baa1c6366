/**
 * What the mail-file commands (`bounces:ingest`, `replies:ingest`) share: reading their FILE arguments (`-` = stdin),
 * the usage and option errors, and the database to use (DATABASE_URL, else a running `npm start`'s).
 */
import { readFile } from 'node:fs/promises';
import { resolveDatabaseUrl } from './lib';

/** One mail as received: the file's bytes, or stdin's for `-`. @throws the read error (ENOENT, EACCES, …). */
export async function readMailInput(file: string): Promise<Buffer> {
  if (file !== '-') return readFile(file);
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Runs `ingest` on each FILE's mail in argument order (`-` = stdin). A file that cannot be read gets one line on stderr
 * (`<file>: cannot read: ENOENT`) and the others still run. `label` prefixes a file's output lines when there are
 * several files (`<file>: `, `(stdin): `), else it is empty.
 * @returns whether any file could not be read; rejects with what `ingest` rejects with (the remaining files are not run).
 */
export async function forEachMailFile(files: readonly string[], ingest: (raw: Buffer, file: string, label: string) => Promise<void>): Promise<boolean> {
  let unreadable = false;
  for (const file of files) {
    let raw: Buffer;
    try {
      raw = await readMailInput(file);
    } catch (e) {
      process.stderr.write(`${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
      unreadable = true;
      continue;
    }
    await ingest(raw, file, files.length > 1 ? `${file === '-' ? '(stdin)' : file}: ` : '');
  }
  return unreadable;
}

/**
 * The FILE arguments and the database URL of a mail-file command, or the exit code to end with: 0 after `--help`
 * (usage on stdout), 1 for an unknown option, no FILE or no database (a line on stderr, with the usage for the first two).
 */
export function mailFileCli(usage: string): { files: string[]; url: string } | { exit: number } {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(`${usage}\n`);
    return { exit: 0 };
  }
  const unknown = args.find((a) => a.startsWith('-') && a !== '-');
  if (unknown || args.length === 0) {
    process.stderr.write(`${unknown ? `unknown option ${unknown}` : 'missing FILE'}\n${usage}\n`);
    return { exit: 1 };
  }
  const url = resolveDatabaseUrl();
  if (!url) {
    process.stderr.write('DATABASE_URL is not set and no `npm start` database is running here: start the app with `npm start` (in another terminal), or set DATABASE_URL\n');
    return { exit: 1 };
  }
  return { files: args, url };
}
