/**
 * No oracle across tenants, over real HTTP against real PostgreSQL: an admin of one organisation must not learn from
 * Punctual whether another organisation (or an account in one) exists.
 * - A partnership proposal to a slug an organisation has, and to one nobody has: the same status and body (after the
 *   slugs and instants are replaced by placeholders), the same entry on the settings page's list, the same audit
 *   entry; withdrawing either answers alike, and so does accepting where nothing was proposed. The other
 *   organisation's name reaches the proposer only when it accepts.
 */
import { hashPassword } from 'better-auth/crypto';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertStaffUser } from '../db/queries/staff';
import { auditLog, tenants } from '../db/schema';
import { createTenant } from '../server/tenants';
import { createHarness, type Harness } from './support/harness';
import { signIn, startRouteServer, type Answer, type RouteServer } from './support/route-server';

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
    { pattern: /^\/api\/auth\//, load: () => import('../app/api/auth/[...all]/route') },
    { pattern: /^\/api\/partnerships$/, load: () => import('../app/api/partnerships/route') },
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
