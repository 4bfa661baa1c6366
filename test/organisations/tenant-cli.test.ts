/**
 * `npm run tenant` (issue #13) as a person runs it: the real CLI as a child process against this file's database,
 * then the printed link through better-auth's real HTTP endpoints (test/support/auth-http.ts).
 *
 * The scenario: `tenant create --slug acme …` then `import:ics -- pyconuk-2015-schedule.ics --tenant acme`
 * → exactly 162 events in acme; the printed link (once in stdout) sets the admin's password and signs them in,
 * exactly once; a duplicate slug, a bad zone, email or slug, an address that already has an account → exit 1 with
 * one stderr line naming the problem, and nothing written.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, events, staffAccounts, staffUsers, staffVerifications, tenants } from '@/db/schema';
import { startAuthServer, type AuthServer } from '@/test/support/auth-http';
import { packageScriptCommand, runCli, type CliRun } from '@/test/support/cli';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

const PUBLIC = 'https://punctual.example.test';
const pyconPath = path.resolve(process.cwd(), 'test/fixtures/ics/pyconuk-2015-schedule.ics');
const CREATE = ['create', '--slug', 'acme', '--name', 'Acme Events', '--time-zone', 'Europe/Dublin', '--sender', 'reminders@acme.example', '--admin-email', 'ops@acme.example'];

let tdb: TestDatabase;
let auth: AuthServer;

beforeAll(async () => {
  tdb = await createTestDatabase();
  auth = await startAuthServer(tdb.url);
});

afterAll(async () => {
  await auth?.close();
  await tdb?.close();
});

/**
 * `npm run <script> -- args…` against this file's database, without npm's own start-up: the command package.json
 * gives `script` (`node --import tsx scripts/<file>.ts`) run directly (test/support/cli.ts). One case below still
 * goes through npm itself, so the wiring is tested too.
 */
function npmRun(script: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const command = packageScriptCommand(script);
  const file = command?.match(/^node --import tsx (scripts\/[\w-]+\.ts)$/)?.[1];
  if (!file) throw new Error(`package.json script "${script}" is not "node --import tsx scripts/….ts": ${command}`);
  return runCli(file, args, { DATABASE_URL: tdb.url, PUNCTUAL_PUBLIC_URL: PUBLIC, ...env });
}

/** Everything a refused command must leave as it was. */
async function snapshot() {
  const n = async (t: typeof tenants | typeof staffUsers | typeof staffAccounts | typeof staffVerifications | typeof auditLog) => (await tdb.db.select({ n: count() }).from(t))[0].n;
  return { tenants: await n(tenants), staff: await n(staffUsers), accounts: await n(staffAccounts), links: await n(staffVerifications), audit: await n(auditLog) };
}

const LINK = /https:\/\/punctual\.example\.test\/set-password\?token=([A-Za-z0-9_-]+)/g;

describe('npm run tenant', () => {
  let token = '';
  let acmeId = '';

  it('the issue’s scenario: create acme with its first admin, then import the PyCon UK 2015 schedule → 162 events', async () => {
    const r = await npmRun('tenant', CREATE);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // The link is printed exactly once, with until when it works in the organisation's zone.
    const links = [...r.stdout.matchAll(LINK)];
    expect(links).toHaveLength(1);
    token = links[0][1];
    expect(r.stdout.split(token)).toHaveLength(2);
    expect(r.stdout).toMatch(/valid until \w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \S+ \(24 hours\); it works once/);
    expect(r.stdout).toContain('No reminder rules yet — add them on the Reminder rules page');
    expect(r.stdout).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);

    const [acme] = await tdb.db.select().from(tenants).where(eq(tenants.slug, 'acme'));
    expect(acme).toMatchObject({ name: 'Acme Events', timeZone: 'Europe/Dublin', senderEmail: 'reminders@acme.example', senderName: null });
    acmeId = acme.id;
    const [admin] = await tdb.db.select().from(staffUsers).where(eq(staffUsers.email, 'ops@acme.example'));
    expect(admin).toMatchObject({ tenantId: acme.id, role: 'admin', name: 'ops' });
    // No password: no credential account until the link is used.
    expect(await tdb.db.select().from(staffAccounts).where(eq(staffAccounts.userId, admin.id))).toEqual([]);
    // better-auth's own reset token: `reset-password:<token>` → the user id, 24 hours.
    const [v] = await tdb.db.select().from(staffVerifications).where(eq(staffVerifications.identifier, `reset-password:${token}`));
    expect(v.value).toBe(admin.id);
    expect(v.expiresAt.getTime() - v.createdAt.getTime()).toBe(24 * 3600_000);
    const audit = await tdb.db.select({ action: auditLog.action, actor: auditLog.actor }).from(auditLog).where(eq(auditLog.tenantId, acme.id));
    expect(audit.map((a) => a.action).sort()).toEqual(['sign_in_link', 'tenant_create']);
    // Nothing secret in the audit log.
    expect(JSON.stringify(await tdb.db.select().from(auditLog))).not.toContain(token);

    const imp = await npmRun('import:ics', [pyconPath, '--tenant', 'acme']);
    expect(imp.code).toBe(0);
    const [{ n }] = await tdb.db.select({ n: count() }).from(events).where(eq(events.tenantId, acme.id));
    expect(n).toBe(162);
  }, 120_000);

  it('the printed link sets the admin’s password and signs them in — exactly once', async () => {
    expect(token).not.toBe('');
    // Before: there is no password to sign in with.
    expect((await auth.post('127.0.0.21', '/sign-in/email', { email: 'ops@acme.example', password: 'a-fine-password-1' })).status).toBe(401);
    const set = await auth.post('127.0.0.21', '/reset-password', { token, newPassword: 'a-fine-password-1' });
    expect(set.status).toBe(200);
    const signIn = await auth.post('127.0.0.21', '/sign-in/email', { email: 'ops@acme.example', password: 'a-fine-password-1' });
    expect(signIn.status).toBe(200);
    const session = await auth.get('127.0.0.21', '/get-session', { cookie: signIn.cookie });
    expect((session.json.user as { email?: string } | undefined)?.email).toBe('ops@acme.example');
    // A second use is refused, and the password stays the one set first.
    const again = await auth.post('127.0.0.21', '/reset-password', { token, newPassword: 'another-password-2' });
    expect(again.status).toBe(400);
    expect(again.json.code).toBe('INVALID_TOKEN');
    expect((await auth.post('127.0.0.21', '/sign-in/email', { email: 'ops@acme.example', password: 'another-password-2' })).status).toBe(401);
    // Audited in acme, by the person themselves.
    const entries = await tdb.db.select().from(auditLog).where(and(eq(auditLog.tenantId, acmeId), eq(auditLog.action, 'password_reset')));
    expect(entries).toHaveLength(1);
    expect(entries[0].actor).toBe('ops@acme.example');
  });

  it('a duplicate slug: exit 1, one line, nothing changed', async () => {
    const before = await snapshot();
    const r = await npmRun('tenant', [...CREATE.slice(0, -1), 'someone-else@acme.example']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('tenant "acme" already exists\n');
    expect([...r.stdout.matchAll(LINK)]).toHaveLength(0);
    expect(await snapshot()).toEqual(before);
  });

  it('an address that already has a staff account (in any tenant): exit 1, one line, nothing changed', async () => {
    const before = await snapshot();
    const r = await npmRun('tenant', ['create', '--slug', 'acme-two', '--name', 'Acme Two', '--time-zone', 'Europe/Dublin', '--sender', 'r@acme.example', '--admin-email', 'OPS@acme.example']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^--admin-email: ops@acme\.example already has a staff account \(tenant "acme"\)[^\n]*\n$/);
    expect(await snapshot()).toEqual(before);
    expect(await tdb.db.select().from(tenants).where(eq(tenants.slug, 'acme-two'))).toEqual([]);
  });

  it.each([
    ['--time-zone', ['--time-zone', 'Europe/Dublinn']],
    ['--admin-email', ['--admin-email', 'ops@']],
    ['--sender', ['--sender', 'reminders']],
    ['--slug', ['--slug', 'Acme Events']],
  ])('a bad %s: exit 1, one line naming the flag, nothing written', async (flag, change) => {
    const args = ['create', '--slug', 'beta', '--name', 'Beta', '--time-zone', 'Europe/Dublin', '--sender', 'r@beta.example', '--admin-email', 'admin@beta.example'];
    args[args.indexOf(change[0]) + 1] = change[1];
    const before = await snapshot();
    const r = await npmRun('tenant', args);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')).toHaveLength(2); // one line and its newline
    expect(r.stderr.startsWith(`${flag}: `)).toBe(true);
    expect(r.stdout).toBe('');
    expect(await snapshot()).toEqual(before);
  });

  it('link --email: a fresh link (printed once) replaces the unused one; list shows acme; usage errors exit 2, --help 0', async () => {
    // An account that never used its link: created for the test through the CLI.
    const created = await npmRun('tenant', ['create', '--slug', 'gamma', '--name', 'Gamma', '--time-zone', 'America/New_York', '--sender', 'r@gamma.example', '--admin-email', 'lead@gamma.example', '--admin-name', 'Lee Lead']);
    expect(created.code).toBe(0);
    const first = [...created.stdout.matchAll(LINK)][0][1];
    const r = await npmRun('tenant', ['link', '--email', 'Lead@Gamma.example']);
    expect(r.code).toBe(0);
    const links = [...r.stdout.matchAll(LINK)];
    expect(links).toHaveLength(1);
    const second = links[0][1];
    expect(second).not.toBe(first);
    expect(r.stdout).toMatch(/valid until .* \(24 hours\); it works once/);
    // The old link no longer works; the new one does.
    expect((await auth.post('127.0.0.22', '/reset-password', { token: first, newPassword: 'gamma-password-1' })).json.code).toBe('INVALID_TOKEN');
    expect((await auth.post('127.0.0.22', '/reset-password', { token: second, newPassword: 'gamma-password-1' })).status).toBe(200);
    expect(await tdb.db.select().from(staffVerifications).where(like(staffVerifications.identifier, 'reset-password:%'))).toEqual([]);

    const unknown = await npmRun('tenant', ['link', '--email', 'nobody@nowhere.example']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('--email: no staff account has the address nobody@nowhere.example\n');

    const list = await npmRun('tenant', ['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^acme\s+Acme Events\s+Europe\/Dublin\s+reminders@acme\.example\s+1\s+1\s+162\s/m);

    // Through npm itself once, as a person types it.
    const help = await new Promise<CliRun>((resolve) =>
      execFile('npm', ['run', '--silent', 'tenant', '--', '--help'], { env: { ...process.env, npm_config_update_notifier: 'false' } }, (error, stdout, stderr) =>
        resolve({ code: error ? 1 : 0, stdout, stderr }),
      ),
    );
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: npm run tenant -- create');
    const bad = await npmRun('tenant', ['frobnicate']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^unknown subcommand "frobnicate"/);
    const flag = await npmRun('tenant', ['create', '--colour', 'blue']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^Unknown option '--colour'/);
  }, 240_000);
});
