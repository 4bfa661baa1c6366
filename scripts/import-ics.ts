/**
 * `npm run import:ics -- FILE.ics --tenant SLUG [--horizon-days N]`
 *
 * Imports an iCalendar file into a tenant (server/calendar/import-ics.ts) against DATABASE_URL. The file is read as
 * bytes (domain/calendar/ics.ts decodes it after unfolding). Prints the summary on stdout (domain/calendar/import-summary.ts:
 * a first line with the counts, then what was read and why anything was skipped). When the import has run for
 * more than PUNCTUAL_IMPORT_PROGRESS_AFTER_MS (default 3000) a progress line goes to stderr at most once a
 * second. Exit codes: 0 imported; 1 the import failed (malformed file, unknown tenant, database
 * error — nothing was imported), with `import failed: <reason>` on stderr; 2 bad usage, or no database: DATABASE_URL unset and no `npm start` running in this folder.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createDb } from '@/db/client';
import { databaseNowMs } from '@/db/queries/platform/clock';
import { AppError } from '@/server/platform/errors';
import { IcsError } from '@/domain/calendar/ics';
import { formatImportSummary } from '@/domain/calendar/import-summary';
import { IMPORT_HORIZON_FUTURE_DAYS, IMPORT_HORIZON_PAST_DAYS, importIcs, type ImportProgress } from '@/server/calendar/import-ics';
import { errorMessage, resolveDatabaseUrl } from './lib';

const USAGE = `usage: npm run import:ics -- FILE.ics --tenant SLUG [--horizon-days N]

  FILE.ics          iCalendar file to import (VEVENTs become events; re-importing updates them)
  --tenant SLUG     the tenant to import into
  --horizon-days N  expand recurring events up to N days ahead (default ${IMPORT_HORIZON_FUTURE_DAYS}; from ${IMPORT_HORIZON_PAST_DAYS} days ago)`;

function usage(problem: string): never {
  process.stderr.write(`${problem}\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: { tenant: { type: 'string' }, 'horizon-days': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (e) {
    usage((e as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 1) usage(positionals.length === 0 ? 'missing FILE' : `expected one FILE, got ${positionals.length}`);
  if (!values.tenant) usage('missing --tenant SLUG');
  let horizonDays: number | undefined;
  if (values['horizon-days'] !== undefined) {
    if (!/^\d+$/.test(values['horizon-days'])) usage('--horizon-days must be a whole number of days');
    horizonDays = Number(values['horizon-days']);
  }
  const url = resolveDatabaseUrl();
  if (!url) {
    process.stderr.write('DATABASE_URL is not set and no `npm start` database is running here: start the app with `npm start` (in another terminal), or set DATABASE_URL\n');
    return 2;
  }

  const file = positionals[0];
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    process.stderr.write(`import failed: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    return 1;
  }

  const handle = createDb(url, { max: 2 });
  try {
    const s = await importIcs(handle.db, values.tenant, bytes, new Date(await databaseNowMs(handle.db)), { horizonDays, onProgress: progressReporter() });
    process.stdout.write(`${formatImportSummary(file, values.tenant, s).join('\n')}\n`);
    return 0;
  } catch (e) {
    if (e instanceof IcsError || e instanceof AppError) {
      process.stderr.write(`import failed: ${e.message}\n`);
    } else {
      process.stderr.write(`import failed: ${errorMessage(e)}\n`);
    }
    return 1;
  } finally {
    await handle.close();
  }
}

/** A progress line on stderr once the import has taken longer than a few seconds, at most once a second. */
function progressReporter(): (p: ImportProgress) => void {
  const after = Number(process.env.PUNCTUAL_IMPORT_PROGRESS_AFTER_MS ?? 3000);
  const started = Date.now();
  let last = 0;
  return (p) => {
    const t = Date.now();
    if (t - started < after || (t - last < 1000 && p.done < p.total)) return;
    last = t;
    const what = p.phase === 'read' ? 'VEVENTs read' : 'events written';
    process.stderr.write(`import: ${p.done.toLocaleString('en')} of ${p.total.toLocaleString('en')} ${what} (${Math.round((t - started) / 1000)} s)\n`);
  };
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`import failed: ${errorMessage(e)}\n`);
    process.exit(1);
  },
);
