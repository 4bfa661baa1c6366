/**
 * Password reset by email (issue #13), end to end against real PostgreSQL, the real queue and the real SMTP catcher:
 * better-auth's /request-password-reset over a real socket only ENQUEUES a job; the worker task sends the email
 * through the tenant's provider; its link sets a new password with /reset-password; the old sessions are gone; the
 * link fails a second time. An unknown address gets the same answer and no mail; asking too often for one address
 * is refused (429) whatever the client — with or without an account.
 */
import { TASK } from '@/jobs/registry';
import { hashPassword } from 'better-auth/crypto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { auditLog, staffSessions, staffUsers, tenants } from '@/db/schema';
import { passwordLinkView } from '@/server/accounts/password-links';
import { setStaffDisabledAction } from '@/server/accounts/staff';
import { issueSignInLink } from '@/server/organisations/tenant-setup';
import { startAuthServer, type AuthServer } from '@/test/support/auth-http';
import { tenantWithRules } from '@/test/support/fixtures';
import { createHarness, type Harness } from '@/test/support/harness';

const OLD = 'the-old-password-1';
const NEW = 'a-brand-new-password-2';
const EMAIL = 'rita.reset@acme.example';

let h: Harness;
let auth: AuthServer;
let tenantId = '';

beforeAll(async () => {
  h = await createHarness();
  // The links expire on the database's clock; the worker's clock must agree (the harness starts in 2027).
  h.clock.set(new Date());
  auth = await startAuthServer(h.tdb.url);
  const { tenant } = await tenantWithRules(h.tdb.db, [], 'Europe/Dublin');
  tenantId = tenant.id;
  await h.tdb.db.update(tenants).set({ senderEmail: 'reminders@acme.example', senderVerifiedEmail: 'reminders@acme.example', senderVerifiedVia: 'operator', name: 'Acme Events' }).where(eq(tenants.id, tenant.id));
  await insertStaffUser(h.tdb.db, { tenantId, email: EMAIL, name: 'Rita Reset', role: 'staff', passwordHash: await hashPassword(OLD) });
});

afterAll(async () => {
  await auth?.close();
  await h?.close();
});

const jobsWaiting = async () => Number((await h.tdb.sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = ${TASK.sendPasswordReset}`)[0].n);

describe('password reset by email', () => {
  it('request → the worker mails the link → it sets a new password, ends the old sessions, and works once', async () => {
    const session = await auth.post('127.0.0.31', '/sign-in/email', { email: EMAIL, password: OLD });
    expect(session.status).toBe(200);
    expect((await auth.get('127.0.0.31', '/get-session', { cookie: session.cookie })).json.user).toBeTruthy();

    const asked = await auth.post('127.0.0.32', '/request-password-reset', { email: EMAIL });
    expect(asked.status).toBe(200);
    // The web app sends nothing itself: the request only queued a job.
    expect(await h.caught()).toHaveLength(0);
    expect(await jobsWaiting()).toBe(1);
    await h.drain();
    const mails = await h.caught();
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail.envelopeTo).toEqual([EMAIL]);
    expect(mail.subject).toBe('Reset your Punctual password (Acme Events)');
    expect(mail.envelopeFrom).toBe('reminders@acme.example');
    const links = [...(mail.text ?? '').matchAll(/http:\/\/127\.0\.0\.1:\d+\/set-password\?token=([A-Za-z0-9_-]+)/g)];
    expect(links).toHaveLength(1);
    const token = links[0][1];
    expect(mail.text).toMatch(/The link works once, until \w{3} \d{1,2} \w{3} \d{4}, \d{2}:\d{2} /);

    const set = await auth.post('127.0.0.32', '/reset-password', { token, newPassword: NEW });
    expect(set.status).toBe(200);
    // The old session is gone (revokeSessionsOnPasswordReset), the old password no longer works, the new one does.
    expect((await auth.get('127.0.0.31', '/get-session', { cookie: session.cookie })).json.user).toBeFalsy();
    expect(await h.tdb.db.select({ n: count() }).from(staffSessions)).toEqual([{ n: 0 }]);
    expect((await auth.post('127.0.0.33', '/sign-in/email', { email: EMAIL, password: OLD })).status).toBe(401);
    expect((await auth.post('127.0.0.33', '/sign-in/email', { email: EMAIL, password: NEW })).status).toBe(200);
    // A second use is refused.
    const again = await auth.post('127.0.0.32', '/reset-password', { token, newPassword: 'yet-another-password-3' });
    expect(again.status).toBe(400);
    expect(again.json.code).toBe('INVALID_TOKEN');
    const audit = await h.tdb.db.select().from(auditLog).where(and(eq(auditLog.tenantId, tenantId), eq(auditLog.action, 'password_reset')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: EMAIL, details: { email: EMAIL } });
  });

  it('an unknown address gets the same answer and no mail', async () => {
    const before = (await h.caught()).length;
    const known = await auth.post('127.0.0.34', '/request-password-reset', { email: EMAIL });
    const unknown = await auth.post('127.0.0.34', '/request-password-reset', { email: 'nobody@acme.example' });
    expect(unknown.status).toBe(known.status);
    expect(unknown.json).toEqual(known.json);
    await h.drain();
    const after = await h.caught();
    expect(after).toHaveLength(before + 1);
    expect(after.every((m) => !m.envelopeTo.includes('nobody@acme.example'))).toBe(true);
  });

  it('a link that was used or replaced before the worker ran is not mailed', async () => {
    const before = (await h.caught()).length;
    // A fresh account, its request queued, then its link spent before the worker sends it.
    const id = (await insertStaffUser(h.tdb.db, { tenantId, email: 'late@acme.example', name: 'Late', role: 'viewer', passwordHash: await hashPassword(OLD) }))!;
    expect((await auth.post('127.0.0.35', '/request-password-reset', { email: 'late@acme.example' })).status).toBe(200);
    await h.tdb.sql`delete from staff_verifications where value = ${id}`;
    await h.drain();
    expect(await h.caught()).toHaveLength(before);
    expect(await jobsWaiting()).toBe(0);
  });

  it('a disabled account is mailed no link, and a link it already had is not usable', async () => {
    const before = (await h.caught()).length;
    const id = (await insertStaffUser(h.tdb.db, { tenantId, email: 'gone@acme.example', name: 'Gone', role: 'viewer', passwordHash: await hashPassword(OLD) }))!;
    expect((await auth.post('127.0.0.36', '/request-password-reset', { email: 'gone@acme.example' })).status).toBe(200);
    const [link] = await h.tdb.sql`select identifier from staff_verifications where value = ${id}`;
    const token = String(link.identifier).replace(/^reset-password:/, '');
    expect(await passwordLinkView(h.tdb.db, token, new Date())).toMatchObject({ usable: true });
    await h.tdb.db.update(staffUsers).set({ disabledAt: new Date() }).where(eq(staffUsers.id, id));
    expect(await passwordLinkView(h.tdb.db, token, new Date())).toEqual({ usable: false });
    // Straight at better-auth's endpoint (not through the page): refused, the old password still the one that works.
    const set = await auth.post('127.0.0.37', '/reset-password', { token, newPassword: 'chosen-while-disabled-9' });
    expect(set.status).toBe(403);
    expect(set.json.code).toBe('ACCOUNT_DISABLED');
    const [cred] = await h.tdb.sql`select password from staff_accounts where user_id = ${id} and provider_id = 'credential'`;
    expect(String(cred.password)).not.toBe('');
    expect((await h.tdb.sql`select count(*)::int as n from staff_verifications where value = ${id}`)[0].n).toBe(1);
    await h.drain();
    expect(await h.caught()).toHaveLength(before);
    expect(await jobsWaiting()).toBe(0);
  });

  it('nobody can mail-bomb an address: 3 requests, then 429 from any client — the same for an address without an account', async () => {
    for (const address of ['bombed@acme.example', 'no-account@acme.example']) {
      if (address === 'bombed@acme.example') await insertStaffUser(h.tdb.db, { tenantId, email: address, name: 'Bombed', role: 'viewer', passwordHash: await hashPassword(OLD) });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await auth.post(`127.0.0.${40 + i}`, '/request-password-reset', { email: address })).status);
      expect(statuses, address).toEqual([200, 200, 200, 429, 429]);
    }
    const refused = await auth.post('127.0.0.50', '/request-password-reset', { email: 'Bombed@acme.example' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json.message).toMatch(/^Too many reset emails were asked for this address\. Try again in \d+ minutes?, or ask an admin for a sign-in link\.$/);
    await h.drain();
    // Each request replaced the link before it: only the newest was still there to mail when the worker ran.
    expect((await h.caught()).filter((m) => m.envelopeTo.includes('bombed@acme.example'))).toHaveLength(1);
  });
});

describe('in the organisation’s language', () => {
  it('an organisation whose language is Dutch mails its staff the Dutch reset text, the link once, the expiry in Dutch', async () => {
    await h.tdb.db.update(tenants).set({ locale: 'nl-BE' }).where(eq(tenants.id, tenantId));
    try {
      const email = 'nora.nl@acme.example';
      await insertStaffUser(h.tdb.db, { tenantId, email, name: 'Nora', role: 'staff', passwordHash: await hashPassword(OLD) });
      expect((await auth.post('127.0.0.40', '/request-password-reset', { email })).status).toBe(200);
      await h.drain();
      const mail = (await h.caught()).find((m) => m.envelopeTo.includes(email));
      expect(mail?.subject).toBe('Stel een nieuw Punctual-wachtwoord in (Acme Events)');
      expect(mail?.text).toContain('Hallo Nora,');
      expect(mail?.text).toMatch(/De link werkt één keer, tot \w{2}\.? \d{1,2} \w+\.? 2\d{3}/);
      expect([...(mail?.text ?? '').matchAll(/\/set-password\?token=/g)]).toHaveLength(1);
      expect(mail?.text).not.toMatch(/Someone|The link works/);
    } finally {
      await h.tdb.db.update(tenants).set({ locale: 'en' }).where(eq(tenants.id, tenantId));
    }
  });
});

describe('a password link dies with what it protects: only the newest works', () => {
  let k = 0;
  /** A fresh account with the old password. */
  const person = async (name: string) => {
    const email = `${name}${++k}@acme.example`;
    const id = (await insertStaffUser(h.tdb.db, { tenantId, email, name, role: 'viewer', passwordHash: await hashPassword(OLD) }))!;
    return { id, email };
  };
  /** "Forgot your password?" for `email`; @returns the token of the link it stored. */
  const resetLink = async (email: string, id: string, from: string) => {
    expect((await auth.post(from, '/request-password-reset', { email })).status).toBe(200);
    const [row] = await h.tdb.sql`select identifier from staff_verifications where value = ${id} and identifier like 'reset-password:%' order by created_at desc limit 1`;
    return String(row.identifier).replace(/^reset-password:/, '');
  };
  const linksOf = async (id: string) => Number((await h.tdb.sql`select count(*)::int as n from staff_verifications where value = ${id} and identifier like 'reset-password:%'`)[0].n);
  const use = (token: string, from: string) => auth.post(from, '/reset-password', { token, newPassword: 'chosen-through-a-link-7' });

  it('two reset requests: the first link no longer works, the second does', async () => {
    const p = await person('twice');
    const first = await resetLink(p.email, p.id, '127.0.0.60');
    const second = await resetLink(p.email, p.id, '127.0.0.60');
    expect(second).not.toBe(first);
    expect(await linksOf(p.id)).toBe(1);
    expect(await passwordLinkView(h.tdb.db, first, new Date())).toEqual({ usable: false });
    const old = await use(first, '127.0.0.60');
    expect([old.status, old.json.code]).toEqual([400, 'INVALID_TOKEN']);
    expect((await use(second, '127.0.0.60')).status).toBe(200);
    expect(await linksOf(p.id)).toBe(0);
  });

  it('a link from npm run tenant, then a reset email: only the email’s link works', async () => {
    const p = await person('cli');
    const { link } = await issueSignInLink(h.tdb.db, p.email, new Date());
    const mailed = await resetLink(p.email, p.id, '127.0.0.61');
    expect((await use(link.token, '127.0.0.61')).json.code).toBe('INVALID_TOKEN');
    expect((await use(mailed, '127.0.0.61')).status).toBe(200);
  });

  it('a link stops working when the password is changed while signed in', async () => {
    const p = await person('changed');
    const token = await resetLink(p.email, p.id, '127.0.0.62');
    const session = await auth.post('127.0.0.62', '/sign-in/email', { email: p.email, password: OLD });
    expect(session.status).toBe(200);
    const changed = await auth.post('127.0.0.62', '/change-password', { currentPassword: OLD, newPassword: NEW }, { cookie: session.cookie });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    expect(await linksOf(p.id)).toBe(0);
    const refused = await use(token, '127.0.0.62');
    expect([refused.status, refused.json.code]).toEqual([400, 'INVALID_TOKEN']);
    // The changed password is the one that works.
    expect((await auth.post('127.0.0.63', '/sign-in/email', { email: p.email, password: NEW })).status).toBe(200);
  });

  it('a link stops working when an admin disables the account', async () => {
    const admin = await person('admin');
    await h.tdb.db.update(staffUsers).set({ role: 'admin' }).where(eq(staffUsers.id, admin.id));
    const p = await person('disabled');
    const token = await resetLink(p.email, p.id, '127.0.0.65');
    const [{ version }] = await h.tdb.db.select({ version: staffUsers.version }).from(staffUsers).where(eq(staffUsers.id, p.id));
    await setStaffDisabledAction(h.tdb.db, { tenantId, actor: admin.email, actorId: admin.id, now: new Date() }, p.id, { disabled: true, version });
    expect(await linksOf(p.id)).toBe(0);
    const refused = await use(token, '127.0.0.65');
    expect(refused.status).toBe(400);
    // Re-enabled, the old link still does not come back.
    const [{ version: v2 }] = await h.tdb.db.select({ version: staffUsers.version }).from(staffUsers).where(eq(staffUsers.id, p.id));
    await setStaffDisabledAction(h.tdb.db, { tenantId, actor: admin.email, actorId: admin.id, now: new Date() }, p.id, { disabled: false, version: v2 });
    expect((await use(token, '127.0.0.65')).json.code).toBe('INVALID_TOKEN');
  });
});
