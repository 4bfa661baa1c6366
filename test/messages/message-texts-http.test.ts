/**
 * The /api/message-texts routes over real HTTP against real PostgreSQL (issue #22 §2): the issue's `{eventTitel}`
 * save is a 400 JSON answer naming the field, line and variable with the known variables; a valid save, publish,
 * history, roll back and reset answer the stored state; a viewer may read but not write; a stale row version is a 409.
 */
import { hashPassword } from 'better-auth/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { createTenant } from '@/server/organisations/tenants';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { signIn, startRouteServer, type RouteServer } from '@/test/support/route-server';

const PASSWORD = 'correct-horse-battery';
let tdb: TestDatabase;
let s: RouteServer;
const text = '(?<kind>[^/]+)/(?<locale>[^/]+)';

beforeAll(async () => {
  tdb = await createTestDatabase();
  s = await startRouteServer(tdb.url, [
    { pattern: /^\/api\/auth\//, load: () => import('@/app/api/auth/[...all]/route') },
    { pattern: new RegExp(`^/api/message-texts/${text}$`), load: () => import('@/app/api/message-texts/[kind]/[locale]/route') },
    { pattern: new RegExp(`^/api/message-texts/${text}/publish$`), load: () => import('@/app/api/message-texts/[kind]/[locale]/publish/route') },
    { pattern: new RegExp(`^/api/message-texts/${text}/rollback$`), load: () => import('@/app/api/message-texts/[kind]/[locale]/rollback/route') },
    { pattern: new RegExp(`^/api/message-texts/${text}/reset$`), load: () => import('@/app/api/message-texts/[kind]/[locale]/reset/route') },
    { pattern: new RegExp(`^/api/message-texts/${text}/history$`), load: () => import('@/app/api/message-texts/[kind]/[locale]/history/route') },
  ]);
});
afterAll(async () => {
  await s?.close();
  await tdb?.close();
});

const german = { subject: 'Erinnerung: {eventTitle}', body: 'Guten Tag,\n\n{eventTitle} beginnt {when}.', sms: '{tenantName}: {eventTitle}, {when}.' };
const path = '/api/message-texts/attendee-reminder/de';

describe('/api/message-texts', () => {
  it('400 for {eventTitel}, then save, publish, history, roll back, reset; viewers read only; stale is 409', async () => {
    const slug = `mt-${Date.now().toString(36)}`;
    const tenant = await createTenant(tdb.db, { slug, name: 'Keramik Studio', timeZone: 'Europe/Berlin' });
    const hash = await hashPassword(PASSWORD);
    await insertStaffUser(tdb.db, { tenantId: tenant.id, email: `admin@${slug}.test`, name: 'Admin', role: 'admin', passwordHash: hash });
    await insertStaffUser(tdb.db, { tenantId: tenant.id, email: `viewer@${slug}.test`, name: 'Viewer', role: 'viewer', passwordHash: hash });
    const admin = await signIn(s, `admin@${slug}.test`, PASSWORD);
    const viewer = await signIn(s, `viewer@${slug}.test`, PASSWORD);

    const bad = await s.call('PUT', path, { cookie: admin, body: { ...german, body: 'Guten Tag,\n\n{eventTitel} beginnt {when}.', rowVersion: 0 } });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ field: 'body', variable: 'eventTitel', line: 3 });
    expect(bad.json.errors).toEqual([expect.objectContaining({ field: 'body', line: 3, variable: 'eventTitel', known: ['eventTitle', 'when', 'allDay', 'eventNote', 'tenantName'] })]);
    expect((await s.call('GET', path, { cookie: viewer })).json).toMatchObject({ rowVersion: 0, draft: null, published: null });

    expect((await s.call('PUT', path, { cookie: viewer, body: { ...german, rowVersion: 0 } })).status).toBe(403);
    const saved = await s.call('PUT', path, { cookie: admin, body: { ...german, rowVersion: 0 } });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ rowVersion: 1, draft: { subject: german.subject } });
    expect((await s.call('PUT', path, { cookie: admin, body: { ...german, rowVersion: 0 } })).status).toBe(409);

    const published = await s.call('POST', `${path}/publish`, { cookie: admin, body: { rowVersion: 1 } });
    expect(published.json).toMatchObject({ rowVersion: 2, draft: null, published: { version: 1, subject: german.subject, publishedBy: 'Admin' } });
    const reset = await s.call('POST', `${path}/reset`, { cookie: admin, body: { rowVersion: 2 } });
    expect(reset.json).toMatchObject({ rowVersion: 3, published: null });
    const back = await s.call('POST', `${path}/rollback`, { cookie: admin, body: { toVersion: 1, rowVersion: 3 } });
    expect(back.json).toMatchObject({ rowVersion: 4, published: { version: 3, copiedFrom: 1 } });
    const history = await s.call('GET', `${path}/history`, { cookie: viewer });
    expect((history.json.versions as { version: number; status: string }[]).map((v) => [v.version, v.status])).toEqual([
      [3, 'published'],
      [2, 'reset'],
      [1, 'published'],
    ]);
    expect((await s.call('GET', '/api/message-texts/password-reset/de', { cookie: viewer })).json).toMatchObject({ field: 'kind' });
  });
});
