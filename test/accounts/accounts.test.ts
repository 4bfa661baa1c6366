/**
 * Accounts (issue #13), over real HTTP against real PostgreSQL: a real server feeds better-auth's route handler
 * (app/api/auth/[...all]/route.ts, with our plugin server/accounts/auth-plugin.ts and the sign-in limits) and staff API
 * routes (GET /api/alert-settings, PUT /api/staff/:id/disabled) with the cookies a browser would send.
 * - "Disabling an account signs it out on its next request": sign in → a staff API request 200 → an admin disables
 *   the account → the very next request is 401 and its session rows are gone; it cannot sign in (403, clear
 *   message, no budget spent); re-enabled it can. An admin cannot disable themselves; a stale version is a 409.
 * - A password change through better-auth ends every other session (even when the client asks not to) and keeps
 *   this one; audited without the password.
 * - TOTP two-factor: enable (password) → confirm with a code computed here → sign-in needs the second step; a
 *   wrong code is refused and counted against the sign-in limits; a backup code works once; turned off again.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import { hashPassword } from 'better-auth/crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { auditLog, rateLimits, staffSessions, staffTwoFactors, staffUsers } from '@/db/schema';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { tenantWithRules } from '@/test/support/fixtures';

const PASSWORD = 'correct-horse-battery';
let tdb: TestDatabase;
let savedEnv: Record<string, string | undefined>;
const db = (): Db => tdb.db;
let server: http.Server;
let port = 0;
let tenantId: string;
let n = 0;

type Handler = (request: Request, params: Record<string, string>) => Promise<Response>;
const routes: { pattern: RegExp; load: () => Promise<{ GET?: Handler; POST?: Handler; PUT?: Handler }> }[] = [
  { pattern: /^\/api\/auth\//, load: async () => (await import('@/app/api/auth/[...all]/route')) as never },
  { pattern: /^\/api\/alert-settings$/, load: async () => (await import('@/app/api/alert-settings/route')) as never },
  { pattern: /^\/api\/staff\/(?<id>[^/]+)\/disabled$/, load: async () => (await import('@/app/api/staff/[id]/disabled/route')) as never },
];

beforeAll(async () => {
  tdb = await createTestDatabase();
  savedEnv = { DATABASE_URL: process.env.DATABASE_URL, BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET, PUNCTUAL_PUBLIC_URL: process.env.PUNCTUAL_PUBLIC_URL };
  process.env.DATABASE_URL = tdb.url;
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-accounts-0123456789abcdef';
  const g = globalThis as { __punctualDb?: unknown; __punctualAuth?: unknown };
  delete g.__punctualDb;
  delete g.__punctualAuth;
  const { installPeerStamp } = await import('@/server/platform/client-address');
  installPeerStamp();
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
        const url = new URL(`http://127.0.0.1:${port}${req.url}`);
        const route = routes.find((r) => r.pattern.test(url.pathname));
        if (!route) {
          res.writeHead(404);
          res.end();
          return;
        }
        const params = url.pathname.match(route.pattern)?.groups ?? {};
        const mod = await route.load();
        const handler = mod[req.method as 'GET' | 'POST' | 'PUT'];
        const request = new Request(url, { method: req.method, headers, body: req.method === 'GET' ? undefined : Buffer.concat(chunks) });
        const response = await handler!(request, { params: Promise.resolve(params) } as never);
        const out: Record<string, string | string[]> = {};
        response.headers.forEach((v, k) => (out[k] = k === 'set-cookie' ? response.headers.getSetCookie() : v));
        res.writeHead(response.status, out);
        res.end(Buffer.from(await response.arrayBuffer()));
      })().catch((e: unknown) => {
        res.writeHead(500);
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
  // Our pages' origin: better-auth trusts it, and staff routes accept state changes from it.
  process.env.PUNCTUAL_PUBLIC_URL = `http://127.0.0.1:${port}`;
  tenantId = (await tenantWithRules(db(), [])).tenant.id;
});

afterAll(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  const g = globalThis as { __punctualDb?: { close(): Promise<void> }; __punctualAuth?: unknown };
  await g.__punctualDb?.close();
  delete g.__punctualDb;
  delete g.__punctualAuth;
  for (const [k, v] of Object.entries(savedEnv ?? {})) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await tdb?.close();
});

beforeEach(async () => {
  await db().delete(rateLimits).where(like(rateLimits.key, 'signin:%'));
});

interface Answer {
  status: number;
  json: Record<string, unknown>;
  cookies: string[];
  headers: http.IncomingHttpHeaders;
}

/** One request from the loopback address `from` (the socket peer the sign-in limits key by). */
function call(method: 'GET' | 'POST' | 'PUT', path: string, opts: { body?: unknown; cookie?: string; from?: string } = {}): Promise<Answer> {
  const data = opts.body === undefined ? '' : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress: opts.from ?? '127.0.0.1',
        method,
        path,
        agent: false,
        headers: {
          ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}),
          ...(method !== 'GET' ? { origin: `http://127.0.0.1:${port}` } : {}),
          ...(opts.cookie ? { cookie: opts.cookie } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            json = { text };
          }
          resolve({ status: res.statusCode ?? 0, json, cookies: res.headers['set-cookie'] ?? [], headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** A browser's cookie jar: `Set-Cookie` answers update it; expired ones are dropped. */
class Jar {
  private readonly jar = new Map<string, string>();
  take(a: Answer): Answer {
    for (const c of a.cookies) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1);
      if (!value || attrs.some((x) => /max-age=0$/i.test(x.trim()))) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return a;
  }
  get header(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  async call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, from?: string): Promise<Answer> {
    return this.take(await call(method, path, { body, cookie: this.header || undefined, from }));
  }
}

let hash: string | undefined;
async function account(name: string, role: 'admin' | 'staff' = 'staff'): Promise<{ id: string; email: string }> {
  hash ??= await hashPassword(PASSWORD);
  const email = `${name}${++n}@accounts.test`;
  const id = await insertStaffUser(db(), { tenantId, email, name, role, passwordHash: hash });
  return { id: id!, email };
}

async function signedIn(email: string, password = PASSWORD, from?: string): Promise<Jar> {
  const jar = new Jar();
  const r = await jar.call('POST', '/api/auth/sign-in/email', { email, password }, from);
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return jar;
}

const versionOf = async (id: string) => (await db().select({ v: staffUsers.version }).from(staffUsers).where(eq(staffUsers.id, id)))[0].v;
const sessionsOf = (id: string) => db().select().from(staffSessions).where(eq(staffSessions.userId, id));
const auditOf = (action: string, email: string) =>
  db()
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.tenantId, tenantId), eq(auditLog.action, action as never)))
    .then((rows) => rows.filter((r) => (r.details as { email?: string }).email === email));

describe('disabling an account', () => {
  it('Disabling an account signs it out on its next request', async () => {
    const admin = await account('ada', 'admin');
    const sam = await account('sam');
    const adminJar = await signedIn(admin.email);
    const samJar = await signedIn(sam.email);
    const samPhone = await signedIn(sam.email);
    expect((await samJar.call('GET', '/api/alert-settings')).status).toBe(200);
    expect(await sessionsOf(sam.id)).toHaveLength(2);

    const r = await adminJar.call('PUT', `/api/staff/${sam.id}/disabled`, { disabled: true, version: await versionOf(sam.id) });
    expect([r.status, r.json]).toEqual([200, { ok: true, sessionsEnded: 2 }]);

    // The very next request with Sam's cookie is refused, and every session row of the account is gone.
    const next = await samJar.call('GET', '/api/alert-settings');
    expect([next.status, next.json.error]).toEqual([401, 'This account has been disabled']);
    expect((await samPhone.call('GET', '/api/alert-settings')).status).toBe(401);
    expect(await sessionsOf(sam.id)).toEqual([]);
    // The page side (server components' requireStaff) decides from the same lookup: signed out → /sign-in.
    const { sessionStateFromHeaders, signInPathFor } = await import('@/app/_http/session');
    const state = await sessionStateFromHeaders(new Headers({ cookie: samJar.header }));
    expect(state).toEqual({ session: null, refused: 'disabled' });
    expect(signInPathFor('disabled')).toBe('/sign-in?disabled=1');
    expect(await sessionStateFromHeaders(new Headers({ cookie: 'punctual.session_token=made-up.sig' }))).toEqual({ session: null, refused: 'signed_out' });

    const [entry] = await auditOf('staff_disable', sam.email);
    expect(entry).toMatchObject({ actor: admin.email, details: { email: sam.email, sessionsEnded: 2 } });
    const [row] = await db().select().from(staffUsers).where(eq(staffUsers.id, sam.id));
    expect(row.disabledBy).toBe(admin.email);
    expect(row.disabledAt).toBeInstanceOf(Date);
    // Re-enabled, the account signs in afresh; its old cookies stay signed out (and no longer say "disabled").
    expect((await adminJar.call('PUT', `/api/staff/${sam.id}/disabled`, { disabled: false, version: await versionOf(sam.id) })).status).toBe(200);
    expect(await sessionStateFromHeaders(new Headers({ cookie: samJar.header }))).toEqual({ session: null, refused: 'signed_out' });
    expect((await samJar.call('GET', '/api/alert-settings')).json.error).toBe('not signed in');
  });

  it('a disabled account cannot sign in (403, a clear message, no sign-in budget spent); re-enabled it can', async () => {
    const admin = await account('ada', 'admin');
    const vic = await account('vic');
    const adminJar = await signedIn(admin.email);
    await adminJar.call('PUT', `/api/staff/${vic.id}/disabled`, { disabled: true, version: await versionOf(vic.id) });

    const refused = await call('POST', '/api/auth/sign-in/email', { body: { email: vic.email, password: PASSWORD }, from: '127.0.0.21' });
    expect([refused.status, refused.json.code, refused.json.message]).toEqual([
      403,
      'ACCOUNT_DISABLED',
      'This account has been disabled. Ask an admin of your organisation to turn it back on.',
    ]);
    expect(refused.cookies.filter((c) => c.includes('session_token=') && !/max-age=0/i.test(c))).toEqual([]);
    expect(await sessionsOf(vic.id)).toEqual([]);
    // Without the password nothing is told: a wrong one is the usual 401 (and counts).
    const wrong = await call('POST', '/api/auth/sign-in/email', { body: { email: vic.email, password: 'not-the-password' }, from: '127.0.0.21' });
    expect(wrong.status).toBe(401);
    // 12 refusals with the right password (more than the account's budget of 10) never turn into a 429.
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await call('POST', '/api/auth/sign-in/email', { body: { email: vic.email, password: PASSWORD }, from: '127.0.0.22' })).status);
    expect(statuses).toEqual(Array(12).fill(403));

    const back = await adminJar.call('PUT', `/api/staff/${vic.id}/disabled`, { disabled: false, version: await versionOf(vic.id) });
    expect([back.status, back.json]).toEqual([200, { ok: true, sessionsEnded: 0 }]);
    const vicJar = await signedIn(vic.email, PASSWORD, '127.0.0.22');
    expect((await vicJar.call('GET', '/api/alert-settings')).status).toBe(200);
    expect(await auditOf('staff_enable', vic.email)).toHaveLength(1);
    // 16 real password checks (scrypt, CPU-bound by design): on a loaded 2-core machine this took over a minute.
  }, 180_000);

  it('an admin cannot disable themselves; a stale version is a 409 that writes nothing; non-admins are refused', async () => {
    const admin = await account('ada', 'admin');
    const other = await account('oli');
    const staffer = await account('stu');
    const adminJar = await signedIn(admin.email);
    const self = await adminJar.call('PUT', `/api/staff/${admin.id}/disabled`, { disabled: true, version: await versionOf(admin.id) });
    expect([self.status, self.json.field]).toEqual([409, 'disabled']);
    await db().update(staffUsers).set({ name: 'Oli renamed' }).where(eq(staffUsers.id, other.id));
    const old = await adminJar.call('PUT', `/api/staff/${other.id}/disabled`, { disabled: true, version: (await versionOf(other.id)) - 1 });
    expect([old.status, old.json.field]).toEqual([409, 'version']);
    expect((await db().select().from(staffUsers).where(eq(staffUsers.id, other.id)))[0].disabledAt).toBeNull();
    const stuJar = await signedIn(staffer.email);
    expect((await stuJar.call('PUT', `/api/staff/${other.id}/disabled`, { disabled: true, version: await versionOf(other.id) })).status).toBe(403);
  });

  it('a session of a disabled account found anyway is refused (401 saying so), and a disabled actor may write nothing', async () => {
    const mia = await account('mia', 'admin');
    const miaJar = await signedIn(mia.email);
    // Disabled behind the app's back, sessions left in place: the lookup itself refuses.
    await db().update(staffUsers).set({ disabledAt: new Date() }).where(eq(staffUsers.id, mia.id));
    const r = await miaJar.call('GET', '/api/alert-settings');
    expect([r.status, r.json.error]).toEqual([401, 'This account has been disabled']);
    const { sessionStateFromHeaders } = await import('@/app/_http/session');
    expect(await sessionStateFromHeaders(new Headers({ cookie: miaJar.header }))).toEqual({ session: null, refused: 'disabled' });
    const { recheckActor } = await import('@/server/platform/versions');
    await expect(db().transaction((tx) => recheckActor(tx, { tenantId, actorId: mia.id }, 'read'))).rejects.toThrow(/disabled/);
  });
});

describe('changing a password', () => {
  it('ends every other session of the account (even when asked not to), keeps this one, and is audited without the password', async () => {
    const pat = await account('pat');
    const laptop = await signedIn(pat.email);
    const phone = await signedIn(pat.email);
    const tablet = await signedIn(pat.email);
    const r = await laptop.call('POST', '/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'a-brand-new-password', revokeOtherSessions: false });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect((await laptop.call('GET', '/api/alert-settings')).status).toBe(200);
    expect((await phone.call('GET', '/api/alert-settings')).status).toBe(401);
    expect((await tablet.call('GET', '/api/alert-settings')).status).toBe(401);
    expect(await sessionsOf(pat.id)).toHaveLength(1);
    const entries = await auditOf('password_change', pat.email);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: pat.email, details: { email: pat.email, otherSessionsEnded: 2 } });
    expect(JSON.stringify(entries[0])).not.toMatch(/correct-horse|brand-new/);
    // The new password signs in; the old one does not. A wrong current password is refused and not audited.
    expect((await call('POST', '/api/auth/sign-in/email', { body: { email: pat.email, password: PASSWORD } })).status).toBe(401);
    const again = await signedIn(pat.email, 'a-brand-new-password');
    const wrong = await again.call('POST', '/api/auth/change-password', { currentPassword: 'not-my-password', newPassword: 'yet-another-password' });
    expect(wrong.status).toBe(400);
    expect(await auditOf('password_change', pat.email)).toHaveLength(1);
  });
});

describe('TOTP two-factor', () => {
  /** The authenticator app: the code for now, from the `otpauth://` URI better-auth handed out. */
  const codeFor = (totpURI: string) => createOTP(base32.decode(new URL(totpURI).searchParams.get('secret')!), { digits: 6, period: 30 }).totp();
  /**
   * The code of the time step `offset` steps from now (better-auth accepts one step either side). A code is accepted
   * once per step (RFC 6238 §5.2), so a second use within the same 30 s — setup, then sign-in — takes the next one.
   */
  const codeAt = (totpURI: string, offset: number) =>
    createOTP(base32.decode(new URL(totpURI).searchParams.get('secret')!), { digits: 6, period: 30 }).hotp(Math.floor(Date.now() / 30_000) + offset);
  const lastStepOf = async (userId: string) => (await db().select({ s: staffTwoFactors.totpLastStep }).from(staffTwoFactors).where(eq(staffTwoFactors.userId, userId)))[0]?.s ?? null;
  /** Signed in with two-factor on, then turned on from `jar` with the code of the current step. @returns the URI. */
  async function twoFactorOn(jar: Jar): Promise<string> {
    const totpURI = (await jar.call('POST', '/api/auth/two-factor/enable', { password: PASSWORD })).json.totpURI as string;
    const confirmed = await jar.call('POST', '/api/auth/two-factor/verify-totp', { code: await codeAt(totpURI, 0) });
    expect(confirmed.status, JSON.stringify(confirmed.json)).toBe(200);
    return totpURI;
  }
  /** A browser that gave the right password of an account with two-factor on and now waits for the code. */
  async function atSecondStep(email: string, from: string): Promise<Jar> {
    const b = new Jar();
    const first = await b.call('POST', '/api/auth/sign-in/email', { email, password: PASSWORD }, from);
    expect([first.status, first.json.twoFactorRedirect]).toEqual([200, true]);
    return b;
  }
  const wrongCode = async (uri: string) => String((Number(await codeFor(uri)) + 500_000) % 1_000_000).padStart(6, '0');

  it('enable (password) → confirm with a code → sign-in needs the second step; wrong codes refused and counted; a backup code works once; off again', async () => {
    const kim = await account('kim');
    const jar = await signedIn(kim.email);
    expect((await jar.call('POST', '/api/auth/two-factor/enable', { password: 'not-my-password' })).status).toBe(400);
    const on = await jar.call('POST', '/api/auth/two-factor/enable', { password: PASSWORD });
    expect(on.status, JSON.stringify(on.json)).toBe(200);
    const totpURI = on.json.totpURI as string;
    const backupCodes = on.json.backupCodes as string[];
    expect(totpURI).toMatch(/^otpauth:\/\/totp\/Punctual:/);
    expect(backupCodes.length).toBeGreaterThanOrEqual(8);
    // Not on until a code confirmed the setup.
    expect((await db().select().from(staffUsers).where(eq(staffUsers.id, kim.id)))[0].twoFactorEnabled).toBe(false);
    const confirmed = await jar.call('POST', '/api/auth/two-factor/verify-totp', { code: await codeFor(totpURI) });
    expect(confirmed.status, JSON.stringify(confirmed.json)).toBe(200);
    expect((await db().select().from(staffUsers).where(eq(staffUsers.id, kim.id)))[0].twoFactorEnabled).toBe(true);
    expect((await jar.call('GET', '/api/alert-settings')).status).toBe(200);
    expect(await auditOf('two_factor_on', kim.email)).toHaveLength(1);
    const [stored] = await db().select().from(staffTwoFactors).where(eq(staffTwoFactors.userId, kim.id));
    expect(stored.secret).not.toContain(new URL(totpURI).searchParams.get('secret'));

    // Signing in: the password alone gives no session, only the second step.
    const browser = new Jar();
    const first = await browser.call('POST', '/api/auth/sign-in/email', { email: kim.email, password: PASSWORD }, '127.0.0.31');
    expect([first.status, first.json.twoFactorRedirect]).toEqual([200, true]);
    expect((await browser.call('GET', '/api/alert-settings')).status).toBe(401);
    const bad = await browser.call('POST', '/api/auth/two-factor/verify-totp', { code: await wrongCode(totpURI) }, '127.0.0.31');
    expect([bad.status, bad.json.code]).toEqual([401, 'INVALID_CODE']);
    // The wrong code spent a token of the sign-in limits for this account from this client.
    const buckets = await db().select().from(rateLimits).where(eq(rateLimits.key, `signin:account:127.0.0.31 ${kim.email}`));
    expect(buckets).toHaveLength(1);
    const good = await browser.call('POST', '/api/auth/two-factor/verify-totp', { code: await codeAt(totpURI, 1) }, '127.0.0.31');
    expect(good.status, JSON.stringify(good.json)).toBe(200);
    expect((await browser.call('GET', '/api/alert-settings')).status).toBe(200);

    // A backup code instead of the app: once.
    const viaBackup = async () => {
      const b = new Jar();
      expect((await b.call('POST', '/api/auth/sign-in/email', { email: kim.email, password: PASSWORD }, '127.0.0.32')).json.twoFactorRedirect).toBe(true);
      return { jar: b, answer: await b.call('POST', '/api/auth/two-factor/verify-backup-code', { code: backupCodes[0] }, '127.0.0.32') };
    };
    const once = await viaBackup();
    expect(once.answer.status, JSON.stringify(once.answer.json)).toBe(200);
    expect((await once.jar.call('GET', '/api/alert-settings')).status).toBe(200);
    const twice = await viaBackup();
    expect([twice.answer.status, twice.answer.json.code]).toEqual([401, 'INVALID_BACKUP_CODE']);

    // Turned off with the password: audited; the password alone signs in again.
    const off = await browser.call('POST', '/api/auth/two-factor/disable', { password: PASSWORD });
    expect(off.status, JSON.stringify(off.json)).toBe(200);
    expect(await auditOf('two_factor_off', kim.email)).toHaveLength(1);
    const plain = await call('POST', '/api/auth/sign-in/email', { body: { email: kim.email, password: PASSWORD } });
    expect([plain.status, plain.json.twoFactorRedirect]).toEqual([200, undefined]);
  });

  it('codes cannot be brute-forced: after 10 wrong codes for an account from one client, the next is a 429', async () => {
    const lee = await account('lee');
    const jar = await signedIn(lee.email);
    const on = await jar.call('POST', '/api/auth/two-factor/enable', { password: PASSWORD });
    const totpURI = on.json.totpURI as string;
    expect((await jar.call('POST', '/api/auth/two-factor/verify-totp', { code: await codeFor(totpURI) })).status).toBe(200);
    const statuses: number[] = [];
    // Each challenge allows 5 codes (better-auth); the sign-in limits count across challenges.
    for (let round = 0; round < 3; round++) {
      const b = new Jar();
      expect((await b.call('POST', '/api/auth/sign-in/email', { email: lee.email, password: PASSWORD }, '127.0.0.41')).status).toBe(200);
      for (let i = 0; i < 4; i++) statuses.push((await b.call('POST', '/api/auth/two-factor/verify-totp', { code: await wrongCode(totpURI) }, '127.0.0.41')).status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('a disabled account with two-factor on gets no session from the second step either', async () => {
    const admin = await account('ada', 'admin');
    const zoe = await account('zoe');
    const jar = await signedIn(zoe.email);
    const totpURI = (await jar.call('POST', '/api/auth/two-factor/enable', { password: PASSWORD })).json.totpURI as string;
    expect((await jar.call('POST', '/api/auth/two-factor/verify-totp', { code: await codeFor(totpURI) })).status).toBe(200);
    const b = new Jar();
    expect((await b.call('POST', '/api/auth/sign-in/email', { email: zoe.email, password: PASSWORD }, '127.0.0.51')).json.twoFactorRedirect).toBe(true);
    const adminJar = await signedIn(admin.email);
    expect((await adminJar.call('PUT', `/api/staff/${zoe.id}/disabled`, { disabled: true, version: await versionOf(zoe.id) })).status).toBe(200);
    const claimedBySetup = await lastStepOf(zoe.id);
    const step = await b.call('POST', '/api/auth/two-factor/verify-totp', { code: await codeAt(totpURI, 1) }, '127.0.0.51');
    expect([step.status, step.json.code]).toEqual([403, 'ACCOUNT_DISABLED']);
    expect(await sessionsOf(zoe.id)).toEqual([]);
    // The step that code claimed is given back: it signed nobody in.
    expect(await lastStepOf(zoe.id)).toBe(claimedBySetup);
  });
  it('a code is accepted once per account and time step (RFC 6238 §5.2): not again for sign-in after the setup, not twice for sign-in', async () => {
    const ivy = await account('ivy');
    const jar = await signedIn(ivy.email);
    const totpURI = (await jar.call('POST', '/api/auth/two-factor/enable', { password: PASSWORD })).json.totpURI as string;
    const setupCode = await codeAt(totpURI, 0);
    expect((await jar.call('POST', '/api/auth/two-factor/verify-totp', { code: setupCode })).status).toBe(200);
    // The code that confirmed the setup does not sign in (same step): refused exactly like a wrong code.
    const reused = await (await atSecondStep(ivy.email, '127.0.0.61')).call('POST', '/api/auth/two-factor/verify-totp', { code: setupCode }, '127.0.0.61');
    expect([reused.status, reused.json]).toEqual([401, { code: 'INVALID_CODE', message: 'Invalid code' }]);
    // The next step's code signs in once; the same code a second time does not.
    const next = await codeAt(totpURI, 1);
    const first = await atSecondStep(ivy.email, '127.0.0.61');
    expect((await first.call('POST', '/api/auth/two-factor/verify-totp', { code: next }, '127.0.0.61')).status).toBe(200);
    expect((await first.call('GET', '/api/alert-settings')).status).toBe(200);
    const again = await atSecondStep(ivy.email, '127.0.0.61');
    const replay = await again.call('POST', '/api/auth/two-factor/verify-totp', { code: next }, '127.0.0.61');
    expect([replay.status, replay.json.code]).toEqual([401, 'INVALID_CODE']);
    expect((await again.call('GET', '/api/alert-settings')).status).toBe(401);
    // An older step's code is refused too once a later one was used.
    const older = await again.call('POST', '/api/auth/two-factor/verify-totp', { code: await codeAt(totpURI, 0) }, '127.0.0.61');
    expect(older.status).toBe(401);
    expect(await sessionsOf(ivy.id)).toHaveLength(2); // the setup's browser and the one sign-in
  });

  it('the same code sent twice at once signs in exactly once', async () => {
    const joe = await account('joe');
    const totpURI = await twoFactorOn(await signedIn(joe.email));
    const code = await codeAt(totpURI, 1);
    const a = await atSecondStep(joe.email, '127.0.0.62');
    const b = await atSecondStep(joe.email, '127.0.0.63');
    const answers = await Promise.all([a, b].map((j, i) => j.call('POST', '/api/auth/two-factor/verify-totp', { code }, `127.0.0.6${2 + i}`)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
    expect(answers.find((r) => r.status === 401)!.json.code).toBe('INVALID_CODE');
    expect(await sessionsOf(joe.id)).toHaveLength(2); // the setup's browser and one of the two
  });

  it('a wrong code claims no step: the right code still works afterwards', async () => {
    const max = await account('max');
    const totpURI = await twoFactorOn(await signedIn(max.email));
    const claimed = await lastStepOf(max.id);
    const b = await atSecondStep(max.email, '127.0.0.64');
    const wrong = String((Number(await codeAt(totpURI, 1)) + 500_000) % 1_000_000).padStart(6, '0');
    expect((await b.call('POST', '/api/auth/two-factor/verify-totp', { code: wrong }, '127.0.0.64')).status).toBe(401);
    expect(await lastStepOf(max.id)).toBe(claimed);
    expect((await b.call('POST', '/api/auth/two-factor/verify-totp', { code: await codeAt(totpURI, 1) }, '127.0.0.64')).status).toBe(200);
  });

  it('turning two-factor on ends the account’s other sessions and keeps this one', async () => {
    const nia = await account('nia');
    const laptop = await signedIn(nia.email);
    const phone = await signedIn(nia.email);
    const tablet = await signedIn(nia.email);
    await twoFactorOn(laptop);
    expect((await laptop.call('GET', '/api/alert-settings')).status).toBe(200);
    expect((await phone.call('GET', '/api/alert-settings')).status).toBe(401);
    expect((await tablet.call('GET', '/api/alert-settings')).status).toBe(401);
    expect(await sessionsOf(nia.id)).toHaveLength(1);
    const [entry] = await auditOf('two_factor_on', nia.email);
    expect(entry).toMatchObject({ actor: nia.email, details: { email: nia.email, method: 'totp', otherSessionsEnded: 2 } });
  });
});
