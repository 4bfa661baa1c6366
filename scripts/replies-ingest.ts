/**
 * `npm run replies:ingest -- FILE.eml [FILE2.eml …]` (`-` reads one message from stdin)
 *
 * Reads iTIP REPLY mails (a participant's calendar answering an invitation: Accept / Decline / Tentative, e.g. saved
 * from the reply mailbox) and stores and applies them (server/calendar/replies.ts `ingestReply`) against DATABASE_URL,
 * else the embedded database of a running `npm start` (scripts/lib.ts `resolveDatabaseUrl`).
 *
 * stdout: one line per file, e.g. `applied (booking 3f2a…) — DECLINED: booking cancelled`, prefixed with the file
 * name when several files are given. Exit codes: 0 every reply applied, noted or already ingested; 1 a file is
 * unreadable, too large, has no calendar part or an unreadable one (a line on stderr names the file and why; nothing
 * stored), bad usage, or no database; 2 a reply was stored but does not count (unmatched or ignored: its reason is
 * printed) and nothing else failed. Each file is handled on its own: a bad file does not stop the others.
 */
import { createDb } from '@/db/client';
import { databaseNowMs } from '@/db/queries/platform/clock';
import { describeReply, ingestReply, ReplyIngestError } from '@/server/calendar/replies';
import { errorMessage } from './lib';
import { forEachMailFile, mailFileCli } from './mail-file-cli';

const USAGE = `usage: npm run replies:ingest -- FILE.eml [FILE2.eml …]

  FILE.eml   a calendar reply mail (iTIP METHOD:REPLY in a text/calendar part) as received; - reads stdin
exit: 0 applied, noted or already ingested, 1 unreadable / not a calendar reply, 2 stored but does not count (unmatched or ignored)`;

async function main(): Promise<number> {
  const cli = mailFileCli(USAGE);
  if ('exit' in cli) return cli.exit;
  const { files: args, url } = cli;
  const handle = createDb(url, { max: 2 });
  let failed = false;
  let notCounted = false;
  try {
    const unreadable = await forEachMailFile(args, async (raw, file, label) => {
      try {
        const r = await ingestReply(handle.db, raw, { source: 'file', now: new Date(await databaseNowMs(handle.db)) });
        process.stdout.write(`${label}${describeReply(r)}\n`);
        if (r.outcome === 'unmatched' || r.outcome === 'ignored') notCounted = true;
      } catch (e) {
        // A bad file does not stop the others: one line on stderr for it, exit code 1 at the end.
        process.stderr.write(`${file}: ${e instanceof ReplyIngestError ? e.message : `could not be stored: ${(e as Error).message}`}\n`);
        failed = true;
      }
    });
    if (unreadable) failed = true;
  } finally {
    await handle.close();
  }
  return failed ? 1 : notCounted ? 2 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`replies:ingest failed: ${errorMessage(e)}\n`);
    process.exit(1);
  },
);
