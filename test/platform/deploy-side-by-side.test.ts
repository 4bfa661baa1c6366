/**
 * Issue #13 part 7, a deploy with old and new workers side by side: the PREVIOUS release's worker (the commit named in
 * deploy/previous-release, checked out with `git archive` into a temp folder) and THIS version's worker run together,
 * as real processes, against one database that this version's migrations were applied to first (a deploy migrates
 * before the new version starts, so the old worker runs on the new schema). 200 reminders fall due within a few
 * seconds; midway the old worker gets SIGTERM (the deploy stops it). Exactly 200 messages reach the SMTP catcher:
 * 200 distinct message keys, none twice, every reminder `done`, every delivery `accepted`.
 *
 * node_modules for the old release: a symlink to this checkout's when the two package-lock.json files are identical,
 * else `npm ci --ignore-scripts` in the temp folder (timed; kept in the OS temp folder keyed by commit and lock, so the
 * next run reuses it). A clone without that commit (a shallow clone) fails with the command that fetches it.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createDb, type DbHandle } from '@/db/client';
import { caughtMessages, deliveries, reminders } from '@/db/schema';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { startMailCatcher, type MailCatcher } from '@/dev/mail-catcher';
import { tenantWithRules } from '@/test/support/fixtures';
import { waitFor } from '@/test/support/processes';
import { databaseUrl } from '@/test/support/urls';
import { TASK } from '@/jobs/registry';
import { waitForQueueIdle } from '@/test/support/lock-wait';

const root = path.resolve(import.meta.dirname, '../..');
const N = 200;

/** The previous release's commit, from deploy/previous-release (first line that is not a comment). */
function previousRelease(): string {
  const line = fs
    .readFileSync(path.join(root, 'deploy', 'previous-release'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !l.startsWith('#'));
  if (!line || !/^[0-9a-f]{40}$/.test(line)) throw new Error(`deploy/previous-release must start with a full 40-digit commit hash (found ${JSON.stringify(line)})`);
  return line;
}

const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 });

/**
 * The previous release's files with a node_modules, in the OS temp folder; returns its path.
 * @throws Error saying how to fetch the commit when this clone lacks it.
 */
function checkOutPreviousRelease(commit: string): string {
  if (git('cat-file', '-e', `${commit}^{commit}`).status !== 0) {
    throw new Error(
      `deploy/previous-release names ${commit}, which this clone does not have (a shallow clone?). Fetch it: ` +
        '`git fetch --unshallow` (or `git fetch origin ' + commit + '`), then run the test again.',
    );
  }
  const oldLock = git('show', `${commit}:package-lock.json`).stdout;
  const newLock = fs.readFileSync(path.join(root, 'package-lock.json'));
  // PUNCTUAL_DEPLOY_TEST_INSTALL=1 takes the install path even when the locks are the same (to time it).
  const sameLock = Buffer.compare(oldLock, newLock) === 0 && process.env.PUNCTUAL_DEPLOY_TEST_INSTALL !== '1';
  const dir = path.join(os.tmpdir(), `punctual-release-${commit.slice(0, 12)}-${createHash('sha256').update(oldLock).digest('hex').slice(0, 8)}${sameLock ? '-linked' : ''}`);
  const done = path.join(dir, '.punctual-ready');
  if (fs.existsSync(done)) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const archive = git('archive', '--format=tar', commit);
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`);
  execFileSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (sameLock) {
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    console.log(`previous release ${commit.slice(0, 12)}: same package-lock.json, node_modules linked`);
  } else {
    const t0 = Date.now();
    execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
    console.log(`previous release ${commit.slice(0, 12)}: package-lock.json differs, npm ci --ignore-scripts took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  fs.writeFileSync(done, new Date().toISOString());
  return dir;
}

interface Proc {
  child: ChildProcess;
  out: () => string;
  ready: Promise<void>;
  exited: Promise<number | null>;
}

/** Runs `<dir>/scripts/<script>` as `npm run` would (node --import tsx), from `dir`. */
function run(dir: string, script: string, env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(dir, 'scripts', script)], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (/"msg":"running"|^migrated$/m.test(out)) resolve();
    });
    child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    child.once('exit', (code) => reject(new Error(`${script} in ${dir} exited (${code}):\n${out}`)));
  });
  ready.catch(() => {});
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, out: () => out, ready, exited };
}

const sendsBy = (p: Proc) => (p.out().match(/"msg":"send attempt"/g) ?? []).length;

let releaseDir: string;
let dbName: string;
let url: string;
let h: DbHandle;
let catcher: MailCatcher;
const procs: Proc[] = [];

beforeAll(async () => {
  releaseDir = checkOutPreviousRelease(previousRelease());
  // An empty database, migrated as production was: by the previous release, then by this one (the deploy's step).
  const server = inject('pgServerUrl');
  dbName = `punctual_deploy_${inject('runId')}_${randomBytes(3).toString('hex')}`;
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  await admin.end();
  url = databaseUrl(server, dbName);
  h = createDb(url, { max: 10 });
}, 600_000);

afterAll(async () => {
  for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await catcher?.close();
  await h?.close();
  // The database itself is dropped by the global teardown (its name carries the run id).
});

describe('deploy: the previous release’s worker and this one side by side', () => {
  it('200 due reminders, the old worker stopped midway: exactly 200 messages, none twice, none lost', async () => {
    const oldMigrate = run(releaseDir, 'migrate.ts', { DATABASE_URL: url });
    expect(await oldMigrate.exited).toBe(0);
    const newMigrate = run(root, 'migrate.ts', { DATABASE_URL: url });
    expect(await newMigrate.exited).toBe(0);
    const [{ n: applied }] = await h.sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
    const journal = JSON.parse(fs.readFileSync(path.join(root, 'db/migrations/meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    expect(applied).toBe(journal.entries.length);

    // Each message takes 1 s at the SMTP server (8 at a time per worker: the old worker alone needs ~25 s for 200), so
    // the old worker is stopped with sends in flight and work left for the new one.
    catcher = await startMailCatcher({ db: h.db, beforeReply: () => new Promise((r) => setTimeout(r, 1000)) });
    // 200 reminders due within 4 seconds: 4 events × 50 attendees, a -PT1H rule, starts 1 s apart.
    const { tenant } = await tenantWithRules(h.db, [{ offset: '-PT1H', window: 3600 }]);
    const now = new Date();
    const firstDue = Math.ceil(now.getTime() / 1000) * 1000 + 5_000;
    for (let e = 0; e < 4; e++) {
      const start = new Date(firstDue + e * 1000 + 3_600_000);
      const event = await createEvent(h.db, tenant.id, { title: `Deploy ${e}`, startsAt: start, endsAt: new Date(start.getTime() + 3_600_000), timeZone: 'Europe/Amsterdam' });
      for (let i = 0; i < N / 4; i++) {
        await addBooking(h.db, tenant.id, { eventId: event.id, role: 'attendee', contact: { email: `p${e}-${i}@deploy.test`, name: `P ${e}-${i}` } }, now);
      }
    }
    expect((await h.db.select({ id: reminders.id }).from(reminders)).length).toBe(N);
    // The old worker runs first, as before a deploy: it claims the reminders as they fall due and starts sending
    // them (as single `send_reminder` jobs, which both versions run). Then the new version starts beside it — whose
    // dispatcher would put reminders into `send_reminders` batches that the previous release cannot run, so the old
    // worker must have its work before the new one claims — and takes the jobs left when the deploy stops the old one.
    const env = { DATABASE_URL: url, SMTP_URL: catcher.url, WORKER_CONCURRENCY: '8' };
    const caught = async () => (await h.db.select({ n: sql<number>`count(*)::int` }).from(caughtMessages))[0].n;
    const oldWorker = run(releaseDir, 'worker.ts', env);
    procs.push(oldWorker);
    await oldWorker.ready;
    await waitFor(async () => (await caught()) >= 8, 60_000, async () => `caught ${await caught()}\nOLD:\n${oldWorker.out()}`);
    const newWorker = run(root, 'worker.ts', env);
    procs.push(newWorker);
    await newWorker.ready;

    // Midway — once some messages went out — the deploy stops the old worker.
    await waitFor(async () => (await caught()) >= 40, 60_000, async () => `caught ${await caught()}\nOLD:\n${oldWorker.out()}\nNEW:\n${newWorker.out()}`);
    const inFlightAtStop = (await h.db.select({ n: sql<number>`count(*)::int` }).from(deliveries).where(sql`${deliveries.status} in ('claimed', 'sending')`))[0].n;
    const caughtAtStop = await caught();
    expect(caughtAtStop).toBeLessThan(N - 20); // midway, really
    const stopAt = Date.now();
    oldWorker.child.kill('SIGTERM');
    expect(await oldWorker.exited).toBe(0);
    const stopMs = Date.now() - stopAt;
    const caughtAtExit = await caught();
    expect(oldWorker.out()).toContain('SIGTERM: finishing in-flight work');

    const accepted = async () => (await h.db.select({ n: sql<number>`count(*)::int` }).from(deliveries).where(eq(deliveries.status, 'accepted')))[0].n;
    await waitFor(async () => (await accepted()) === N, 60_000, async () => `accepted ${await accepted()}\nNEW:\n${newWorker.out()}`);
    // Any straggling duplicate job has run before counting: no send or deliver job is running or runnable.
    await waitForQueueIdle(h.db, { tasks: [TASK.sendReminder, TASK.sendReminders, TASK.deliver] });

    const mail = await h.db.select().from(caughtMessages);
    const keys = mail.map((m) => (m.headers as Record<string, string>)['x-punctual-message-key']);
    expect(mail).toHaveLength(N);
    expect(new Set(keys).size).toBe(N);
    expect(keys.every(Boolean)).toBe(true);
    expect(new Set(mail.map((m) => m.messageId)).size).toBe(N);
    expect(await h.sql`select status, count(*)::int as n from reminders group by 1`).toEqual([{ status: 'done', n: N }]);
    expect(await h.sql`select status, count(*)::int as n from deliveries group by 1`).toEqual([{ status: 'accepted', n: N }]);
    const [{ n: attempts }] = await h.sql<{ n: number }[]>`select count(*)::int as n from delivery_attempts`;
    expect(attempts).toBe(N);
    // Both versions did part of the work.
    const byOld = sendsBy(oldWorker);
    const byNew = sendsBy(newWorker);
    expect(byOld).toBeGreaterThan(0);
    expect(byNew).toBeGreaterThan(0);
    expect(byOld + byNew).toBe(N);
    console.log(
      `deploy: previous release sent ${byOld}, this version ${byNew}; at the old worker's SIGTERM ${caughtAtStop} messages were out and ` +
        `${inFlightAtStop} deliveries claimed or sending; it exited ${stopMs} ms later with ${caughtAtExit} out`,
    );
  }, 180_000);
});
