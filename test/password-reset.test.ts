/**
 * Password reset by email (issue #13), end to end against real PostgreSQL, the real queue and the real SMTP catcher:
 * better-auth's /request-password-reset over a real socket only ENQUEUES a job; the worker task sends the email
 * through the tenant's provider; its link sets a new password with /reset-password; the old sessions are gone; the
 * link fails a second time. An unknown address gets the same answer and no mail; asking too often for one address
 * is refused (429) whatever the client — with or without an account.
 */
import { hashPassword } from 'better-auth/crypto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertStaffUser } from '../db/queries/staff';
import { auditLog, staffSessions, staffUsers, tenants } from '../db/schema';
import { passwordLinkView, SEND_PASSWORD_RESET_TASK } from '../server/password-links';
import { startAuthServer, type AuthServer } from './support/auth-http';
import { tenantWithRules } from './support/fixtures';
import { createHarness, type Harness } from './support/harness';

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

const jobsWaiting = async () => Number((await h.tdb.sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = ${SEND_PASSWORD_RESET_TASK}`)[0].n);

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
    expect((await h.caught()).filter((m) => m.envelopeTo.includes('bombed@acme.example'))).toHaveLength(3);
  });
});
