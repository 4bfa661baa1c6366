/**
 * `npm run import:ics -- FILE.ics --tenant SLUG [--horizon-days N]`
 *
 * Imports an iCalendar file into a tenant (server/import-ics.ts) against DATABASE_URL. Prints one summary
 * line on stdout. Exit codes: 0 imported; 1 the import failed (malformed file, unknown tenant, database
 * error — nothing was imported), with `import failed: <reason>` on stderr; 2 bad usage or DATABASE_URL unset.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createDb } from '../db/client';
import { AppError } from '../server/errors';
import { IcsError } from '../server/ics';
import { IMPORT_HORIZON_FUTURE_DAYS, IMPORT_HORIZON_PAST_DAYS, importIcs } from '../server/import-ics';
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
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    process.stderr.write(`import failed: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    return 1;
  }

  const handle = createDb(url, { max: 2 });
  try {
    const s = await importIcs(handle.db, values.tenant, text, new Date(), { horizonDays });
    process.stdout.write(
      `imported ${file} into ${values.tenant}: ${s.total} ${s.total === 1 ? 'event' : 'events'} (${s.created} created, ${s.updated} updated, ` +
        `${s.rescheduled} rescheduled, ${s.unchanged} unchanged, ${s.cancelled} cancelled)\n`,
    );
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

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`import failed: ${errorMessage(e)}\n`);
    process.exit(1);
  },
);
