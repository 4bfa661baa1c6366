/**
 * `npm run bounces:ingest -- FILE.eml [FILE2.eml …]` (`-` reads one message from stdin)
 *
 * Reads RFC 3464 delivery status notifications (bounces of mail sent over SMTP, e.g. saved from the bounce
 * mailbox) and applies them like provider reports (server/reports/bounces.ts `ingestDsn`) against DATABASE_URL, else the
 * embedded database of a running `npm start` (scripts/lib.ts `resolveDatabaseUrl`). Bounce addresses are verified
 * with the key derived from BETTER_AUTH_SECRET (else the secret `npm start` keeps in its data folder); without
 * one, DSNs are matched by the headers they return only (a line on stderr says so).
 *
 * stdout: one line per recipient, e.g. `delivery 3f2a… bounced (5.1.1) — address suppressed`, prefixed with the
 * file name when several files are given. A recipient that is not the address the named delivery was sent to is
 * `ignored` (another recipient's failure is not this message's). Exit codes: 0 every report applied or already
 * processed (duplicate); 1 a file is unreadable, not a DSN, or rejected because its bounce address does not verify
 * (a line on stderr names the file and why; a rejected DSN stores nothing), bad usage, or no database; 2 a DSN
 * names no delivery we know (stored unmatched), or every recipient of it was ignored (nothing else failed). Reading
 * an unmatched DSN again once its delivery can be named (e.g. with the right key) applies it. Each file is applied
 * on its own: a bad file does not stop the others.
 */
import path from 'node:path';
import { createDb } from '@/db/client';
import { databaseNowMs } from '@/db/queries/platform/clock';
import { bounceAddressKeyForCli } from '@/server/sending/bounce-address';
import { DsnError, describeDsnOutcome, ingestDsn } from '@/server/reports/bounces';
import { errorMessage, root } from './lib';
import { forEachMailFile, mailFileCli } from './mail-file-cli';

const USAGE = `usage: npm run bounces:ingest -- FILE.eml [FILE2.eml …]

  FILE.eml   a delivery status notification (RFC 3464 multipart/report) as received; - reads stdin
exit: 0 applied or already processed, 1 unreadable / not a DSN / bounce address does not verify,
      2 names no delivery we know (stored unmatched) or no recipient of the delivery it names`;

async function main(): Promise<number> {
  const cli = mailFileCli(USAGE);
  if ('exit' in cli) return cli.exit;
  const { files: args, url } = cli;
  const key = bounceAddressKeyForCli(path.resolve(root, process.env.PUNCTUAL_DATA_DIR ?? '.data'));
  if (!key) process.stderr.write('bounces:ingest: BETTER_AUTH_SECRET is not set: bounce addresses cannot be verified; matching by returned headers only\n');

  const handle = createDb(url, { max: 2 });
  let failed = false;
  let unmatched = false;
  try {
    const unreadable = await forEachMailFile(args, async (raw, file, label) => {
      try {
        const result = await ingestDsn(handle.db, raw, { key, now: new Date(await databaseNowMs(handle.db)) });
        if (result.rejected) {
          process.stderr.write(`${file}: rejected: ${result.rejected} — nothing stored\n`);
          failed = true;
          return;
        }
        for (const r of result.recipients) {
          process.stdout.write(`${label}${describeDsnOutcome(r)}\n`);
          if (r.outcome === 'unmatched') unmatched = true;
          if (r.outcome === 'skipped') {
            process.stderr.write(`${file}: ${r.problem}\n`);
            failed = true;
          }
        }
        // Every usable recipient ignored: the DSN changed nothing about the delivery it names.
        const usable = result.recipients.filter((r) => r.outcome !== 'skipped');
        if (usable.length > 0 && usable.every((r) => r.outcome === 'ignored')) unmatched = true;
      } catch (e) {
        if (!(e instanceof DsnError)) throw e;
        process.stderr.write(`${file}: ${e.message}\n`);
        failed = true;
      }
    });
    if (unreadable) failed = true;
  } finally {
    await handle.close();
  }
  return failed ? 1 : unmatched ? 2 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`bounces:ingest failed: ${errorMessage(e)}\n`);
    process.exit(1);
  },
);
