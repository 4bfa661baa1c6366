/**
 * No oracle across tenants, over real HTTP against real PostgreSQL: an admin of one organisation must not learn from
 * Punctual whether another organisation (or an account in one) exists.
 * - A partnership proposal to a slug an organisation has, and to one nobody has: the same status and body (after the
 *   slugs and instants are replaced by placeholders), the same entry on the settings page's list, the same audit
 *   entry; withdrawing either answers alike, and so does accepting where nothing was proposed. The other
 *   organisation's name reaches the proposer only when it accepts.
 * - Adding staff is an invitation: an address with an account in another organisation and a fresh one get the same
 *   status and body, the same entry on the Staff page's list and the same audit entry; the worker then mails the
 *   fresh address a link (accepted: the account is created with the invited role and signs in) and tells the
 *   registered person — only them — that their address is taken; their account does not change.
 */
import { hashPassword } from 'better-auth/crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { auditLog, staffInvitations, staffUsers, tenants } from '@/db/schema';
import { readInvitations } from '@/server/accounts/staff-invitations';
import { createTenant } from '@/server/organisations/tenants';
import { createHarness, type Harness } from '@/test/support/harness';
import { signIn, startRouteServer, type Answer, type RouteServer } from '@/test/support/route-server';

const PASSWORD = 'correct-horse-battery';
let h: Harness;
let s: RouteServer;
let hash = '';
let n = 0;
const db = () => h.tdb.db;

beforeAll(async () => {
  h = await createHarness();
  h.clock.set(new Date());
  s = await startRouteServer(h.tdb.url, [
    { pattern: /^\/api\/auth\//, load: () => import('@/app/api/auth/[...all]/route') },
    { pattern: /^\/api\/partnerships$/, load: () => import('@/app/api/partnerships/route') },
    { pattern: /^\/api\/staff$/, load: () => import('@/app/api/staff/route') },
    { pattern: /^\/api\/staff\/invitations\/(?<id>[^/]+)\/cancel$/, load: () => import('@/app/api/staff/invitations/[id]/cancel/route') },
    { pattern: /^\/api\/invitations\/accept$/, load: () => import('@/app/api/invitations/accept/route') },
  ]);
  hash = await hashPassword(PASSWORD);
});
afterAll(async () => {
  await s?.close();
  await h?.close();
});

async function org(name: string) {
  const slug = `org${++n}-${Date.now().toString(36)}`;
  const tenant = await createTenant(db(), { slug, name, timeZone: 'Europe/London', senderEmail: `hello@${slug}.test` });
  const email = `admin@${slug}.test`;
  await insertStaffUser(db(), { tenantId: tenant.id, email, name: `Admin of ${name}`, role: 'admin', passwordHash: hash });
  return { tenant, email, cookie: await signIn(s, email, PASSWORD) };
}

/** The answer with the given strings (slugs, names, ids) and every ISO instant replaced by placeholders. */
function masked(text: string, replace: Record<string, string>): string {
  let out = text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<instant>');
  for (const [from, to] of Object.entries(replace)) out = out.split(from).join(to);
  return out;
}
const shape = (a: Answer, replace: Record<string, string>) => `${a.status} ${masked(a.text, replace)}`;

describe('a partnership proposal says nothing of whether the slug is an organisation’s', () => {
  it('an existing slug and a slug nobody has: same status, body, settings list and audit entry; the name only once they accept', async () => {
    const a = await org('Proposer Studio');
    const b = await org('Secret Partner Ltd');
    const nobody = `nobody-${Date.now().toString(36)}`;
    const as = (slug: string) => ({ [slug]: '<slug>' });

    for (const side of ['host', 'guest'] as const) {
      const toB = await s.call('POST', '/api/partnerships', { cookie: a.cookie, body: { step: 'propose', org: b.tenant.slug, side } });
      const toNobody = await s.call('POST', '/api/partnerships', { cookie: a.cookie, body: { step: 'propose', org: nobody, side } });
      expect(shape(toB, as(b.tenant.slug))).toBe(shape(toNobody, as(nobody)));
      expect(toB.status).toBe(200);
      expect(toB.text).not.toContain('Secret Partner');
      expect(toB.text).not.toContain(b.tenant.id);
      expect(toB.json).toMatchObject({ status: 'pending', otherTenantId: null, description: `waiting for “${b.tenant.slug}” to accept`, steps: ['decline'] });

      // Proposing again: the same refusal.
      const againB = await s.call('POST', '/api/partnerships', { cookie: a.cookie, body: { step: 'propose', org: b.tenant.slug, side } });
      const againNobody = await s.call('POST', '/api/partnerships', { cookie: a.cookie, body: { step: 'propose', org: nobody, side } });
      expect(shape(againB, as(b.tenant.slug))).toBe(shape(againNobody, as(nobody)));
      expect(againB.status).toBe(409);
    }

    // Accepting (or ending) where nothing was proposed: the same refusal in the typed slug's words.
    const other = `other-${Date.now().toString(36)}`;
    const c = await org('Third Org');
    for (const step of ['accept', 'end'] as const) {
      const toC = await s.call('POST', '/api/partnerships', { cookie: a.cookie, body: { step, org: c.tenant.slug, side: 'host', version: 1 } });
      const toOther = await s.call('POST', '/api/partnerships', { cookie: a.cookie, body: { step, org: other, side: 'host', version: 1 } });
      expect(shape(toC, as(c.tenant.slug))).toBe(shape(toOther, as(other)));
      expect(toC.text).not.toContain('Third Org');
    }

    // The settings page's list (GET /api/partnerships, what the page reads): one entry each, alike.
    const listed = await s.call('GET', '/api/partnerships', { cookie: a.cookie });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain('Secret Partner');
    expect(listed.text).not.toContain(b.tenant.id);
    const agreements = listed.json.agreements as { otherSlug: string; side: string }[];
    expect(agreements).toHaveLength(4);
    for (const side of ['host', 'guest']) {
      const ofB = agreements.find((x) => x.otherSlug === b.tenant.slug && x.side === side)!;
      const ofNobody = agreements.find((x) => x.otherSlug === nobody && x.side === side)!;
      expect(masked(JSON.stringify(ofB), as(b.tenant.slug))).toBe(masked(JSON.stringify(ofNobody), as(nobody)));
    }
    expect(listed.json.asGuest).toEqual([]);

    // The proposer's audit log: the same entries, word for word.
    const log = await db().select().from(auditLog).where(eq(auditLog.tenantId, a.tenant.id)).orderBy(asc(auditLog.createdAt), asc(auditLog.id));
    const proposals = log.filter((e) => e.action === 'partnership_propose').map((e) => JSON.stringify({ actor: e.actor, details: e.details }));
    expect(proposals).toHaveLength(4);
    expect(masked(proposals[0], as(b.tenant.slug))).toBe(masked(proposals[1], as(nobody)));
    expect(masked(proposals[2], as(b.tenant.slug))).toBe(masked(proposals[3], as(nobody)));
    expect(log.map((e) => JSON.stringify(e.details)).join('\n')).not.toContain('Secret Partner');

    // Withdrawing either answers alike.
    const [hostB, hostNobody] = [b.tenant.slug, nobody].map((slug) => agreements.find((x) => x.otherSlug === slug && x.side === 'host') as unknown as { version: number });
    const wB = await s.call('POST', '/api/partnerships', { cookie: a.cookie, body: { step: 'decline', org: b.tenant.slug, side: 'host', version: hostB.version } });
    const wNobody = await s.call('POST', '/api/partnerships', { cookie: a.cookie, body: { step: 'decline', org: nobody, side: 'host', version: hostNobody.version } });
    expect(wB.json).toMatchObject({ status: 'declined' });
    expect(shape(wB, as(b.tenant.slug))).toBe(shape(wNobody, as(nobody)));

    // B sees A's offer (side guest: A lets B book A's people) by A's name, and accepts; now A sees B's name.
    const seenByB = (await s.call('GET', '/api/partnerships', { cookie: b.cookie })).json.agreements as { otherName: string; status: string; steps: string[]; version: number }[];
    const offer = seenByB.find((x) => x.status === 'pending')!;
    expect(offer).toMatchObject({ otherName: 'Proposer Studio', status: 'pending', steps: ['accept', 'decline'] });
    const accepted = await s.call('POST', '/api/partnerships', { cookie: b.cookie, body: { step: 'accept', org: a.tenant.slug, side: 'host', version: offer.version } });
    expect(accepted.status, accepted.text).toBe(200);
    const after = (await s.call('GET', '/api/partnerships', { cookie: a.cookie })).json as { agreements: { otherName: string; otherTenantId: string | null; status: string; side: string }[]; asGuest: { hostName: string }[] };
    expect(after.agreements.find((x) => x.side === 'guest' && x.status === 'active')).toMatchObject({ otherName: 'Secret Partner Ltd', otherTenantId: b.tenant.id });
    expect(after.asGuest.map((p) => p.hostName)).toEqual(['Secret Partner Ltd']);
    const accLog = (await db().select().from(auditLog).where(eq(auditLog.tenantId, a.tenant.id))).filter((e) => e.action === 'partnership_accept');
    expect(accLog.map((e) => (e.details as { partner: string }).partner)).toEqual(['Secret Partner Ltd']);
    // The slug nobody had stays unmatched, even once an organisation takes it: that one sees nothing.
    const late = await createTenant(db(), { slug: nobody, name: 'Late Comer', timeZone: 'UTC', senderEmail: 'x@late.test' });
    const lateAdmin = `admin@${nobody}.test`;
    await insertStaffUser(db(), { tenantId: late.id, email: lateAdmin, name: 'Late', role: 'admin', passwordHash: hash });
    const lateView = await s.call('GET', '/api/partnerships', { cookie: await signIn(s, lateAdmin, PASSWORD) });
    expect(lateView.json.agreements).toEqual([]);
    expect((await db().select().from(tenants).where(eq(tenants.id, late.id)))[0].name).toBe('Late Comer');
  });

  it('a slug that cannot be an organisation’s is a 400 naming the field; one’s own slug too', async () => {
    const a = await org('Solo Org');
    const bad = await s.call('POST', '/api/partnerships', { cookie: a.cookie, body: { step: 'propose', org: 'not a slug!', side: 'host' } });
    expect([bad.status, bad.json.field]).toEqual([400, 'org']);
    const own = await s.call('POST', '/api/partnerships', { cookie: a.cookie, body: { step: 'propose', org: a.tenant.slug.toUpperCase(), side: 'host' } });
    expect([own.status, own.json.field]).toEqual([400, 'org']);
  });
});

/** The link's token in a caught message (quoted-printable soft line breaks undone), or null. */
function tokenIn(raw: string): string | null {
  return /accept-invitation\?token=([\w-]+)/.exec(raw.replace(/=\r?\n/g, '').replace(/=3D/g, '='))?.[1] ?? null;
}

describe('adding staff says nothing of whether the address has an account with another organisation', () => {
  it('an address registered elsewhere and a fresh one: same status, body, Staff list and audit entry; each person is told by email', async () => {
    const a = await org('Inviting Studio');
    const b = await org('Other Place');
    const taken = `taken${++n}@people.test`;
    const fresh = `fresh${++n}@people.test`;
    await insertStaffUser(db(), { tenantId: b.tenant.id, email: taken, name: 'Tess Taken', role: 'viewer', passwordHash: hash });
    const before = await db().select().from(staffUsers).where(eq(staffUsers.email, taken));

    const toTaken = await s.call('POST', '/api/staff', { cookie: a.cookie, body: { name: 'Rae', email: taken, role: 'staff' } });
    const toFresh = await s.call('POST', '/api/staff', { cookie: a.cookie, body: { name: 'Rae', email: fresh, role: 'staff' } });
    const ids = (x: Answer) => ({ [(x.json.invitation as { id: string }).id]: '<id>' });
    expect(toFresh.status, toFresh.text).toBe(200);
    expect(shape(toTaken, { ...ids(toTaken), [taken]: '<email>' })).toBe(shape(toFresh, { ...ids(toFresh), [fresh]: '<email>' }));
    expect(toFresh.json.message).toBe(`Invitation sent to ${fresh}. They join once they accept it (within 7 days); until then it shows below as invited.`);

    // The Staff page's list of invitations: both, alike.
    const listed = await readInvitations(db(), a.tenant.id, new Date());
    expect(listed.map((i) => i.email).sort()).toEqual([fresh, taken].sort());
    const [ofTaken, ofFresh] = [taken, fresh].map((e) => listed.find((i) => i.email === e)!);
    expect(masked(JSON.stringify(ofTaken), { [ofTaken.id]: '<id>', [taken]: '<email>' })).toBe(masked(JSON.stringify(ofFresh), { [ofFresh.id]: '<id>', [fresh]: '<email>' }));
    expect(ofTaken.state).toBe('Invited — waiting for them to accept');

    // The audit entries in the inviting organisation's log: alike.
    const invites = (await db().select().from(auditLog).where(eq(auditLog.tenantId, a.tenant.id))).filter((e) => e.action === 'staff_invite');
    const entry = (email: string) => invites.find((e) => (e.details as { email: string }).email === email)!;
    expect(masked(JSON.stringify({ actor: entry(taken).actor, details: entry(taken).details }), { [taken]: '<email>' })).toBe(
      masked(JSON.stringify({ actor: entry(fresh).actor, details: entry(fresh).details }), { [fresh]: '<email>' }),
    );

    // The worker mails each person what is true for them.
    await h.drain();
    const mails = await h.caught();
    const toT = mails.find((m) => m.envelopeTo.includes(taken))!;
    const toF = mails.find((m) => m.envelopeTo.includes(fresh))!;
    expect(toT.raw.replace(/=\r?\n/g, '')).toMatch(/already has a Punctual account with another organisation/);
    expect(tokenIn(toT.raw)).toBeNull();
    const token = tokenIn(toF.raw)!;
    expect(token).toBeTruthy();
    // The registered person's account did not change, and A still sees their invitation pending, like an ignored one.
    expect(await db().select().from(staffUsers).where(eq(staffUsers.email, taken))).toEqual(before);
    expect((await readInvitations(db(), a.tenant.id, new Date())).map((i) => i.email)).toContain(taken);

    // The fresh address accepts, chooses a password and signs in with the invited role in the inviting organisation.
    const weak = await s.call('POST', '/api/invitations/accept', { body: { token, password: 'short' } });
    expect([weak.status, weak.json.field]).toEqual([400, 'password']);
    const accepted = await s.call('POST', '/api/invitations/accept', { body: { token, password: 'a-fine-new-password' } });
    expect(accepted.status, accepted.text).toBe(200);
    await signIn(s, fresh, 'a-fine-new-password');
    const [rae] = await db().select().from(staffUsers).where(eq(staffUsers.email, fresh));
    expect([rae.tenantId, rae.role, rae.name]).toEqual([a.tenant.id, 'staff', 'Rae']);
    const again = await s.call('POST', '/api/invitations/accept', { body: { token, password: 'a-fine-new-password' } });
    expect(again.status).toBe(409);
    expect((await readInvitations(db(), a.tenant.id, new Date())).map((i) => i.email)).toEqual([taken]);
    // Now a member of A: inviting them again says so (nothing about other organisations in that).
    const member = await s.call('POST', '/api/staff', { cookie: a.cookie, body: { name: 'Rae', email: fresh, role: 'admin' } });
    expect([member.status, member.json.field, member.json.error]).toEqual([409, 'email', `email: ${fresh} is already a member of this organisation`]);
  });

  it('inviting again replaces the pending invitation; an admin cancels one (version-checked); its link then stops working', async () => {
    const a = await org('Cancelling Studio');
    const email = `again${++n}@people.test`;
    const first = await s.call('POST', '/api/staff', { cookie: a.cookie, body: { name: 'Ann', email, role: 'viewer' } });
    const second = await s.call('POST', '/api/staff', { cookie: a.cookie, body: { name: 'Ann', email, role: 'staff' } });
    expect([first.status, second.status]).toEqual([200, 200]);
    const pending = await readInvitations(db(), a.tenant.id, new Date());
    expect(pending.map((i) => [i.email, i.role])).toEqual([[email, 'staff']]);
    await h.drain();
    const token = tokenIn((await h.caught()).filter((m) => m.envelopeTo.includes(email)).at(-1)!.raw)!;
    const inv = pending[0];
    const stale = await s.call('POST', `/api/staff/invitations/${inv.id}/cancel`, { cookie: a.cookie, body: { version: inv.version + 1 } });
    expect([stale.status, stale.json.field]).toEqual([409, 'version']);
    const cancelled = await s.call('POST', `/api/staff/invitations/${inv.id}/cancel`, { cookie: a.cookie, body: { version: inv.version } });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(await readInvitations(db(), a.tenant.id, new Date())).toEqual([]);
    const late = await s.call('POST', '/api/invitations/accept', { body: { token, password: 'a-fine-new-password' } });
    expect(late.status).toBe(409);
    expect(await db().select().from(staffUsers).where(eq(staffUsers.email, email))).toEqual([]);
    expect((await db().select().from(staffInvitations).where(eq(staffInvitations.email, email))).map((i) => i.status).sort()).toEqual(['cancelled', 'replaced']);
  });
});
