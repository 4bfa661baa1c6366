/**
 * PUNCTUAL_WEBHOOK_ALLOW_HTTP allows the http scheme and nothing more: the private-address (SSRF) check stays on; a
 * loopback receiver — the demo's own — is reached only when PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS names its origin (host
 * AND port). Through the real settings routes (a signed-in admin, real PostgreSQL) and the Slack-compatible poster
 * the alerts use. Nothing here connects anywhere but 127.0.0.1: refusals happen before any request.
 */
import { count, eq } from 'drizzle-orm';
import http from 'node:http';
import https from 'node:https';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSlackPoster } from '@/channels/slack';
import type { Db } from '@/db/client';
import { alertSettings, notificationSettings } from '@/db/schema';
import { defaultPolicy } from '@/domain/notifications/notification-policy';
import { checkWebSettings } from '@/server/platform/web-settings';
import { readWorkerConfig } from '@/server/platform/config';
import { ensureStaffUser } from '@/server/accounts/staff';
import { tenantWithRules } from '@/test/support/fixtures';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { startSlackPeer, type SlackPeer } from '@/test/support/slack-peer';

const ORIGIN = 'http://127.0.0.1:3996';
const PASSWORD = 'webhook-guard-pass';
const ENV_KEYS = ['DATABASE_URL', 'BETTER_AUTH_SECRET', 'PUNCTUAL_PUBLIC_URL', 'PUNCTUAL_WEBHOOK_ALLOW_HTTP', 'PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS'] as const;

let tdb: TestDatabase;
let tenantId: string;
let cookie: string;
let slack: SlackPeer;
const saved: Partial<Record<(typeof ENV_KEYS)[number], string | undefined>> = {};
const db = (): Db => tdb.db;

beforeAll(async () => {
  tdb = await createTestDatabase();
  for (const k of ENV_KEYS) saved[k] = process.env[k];
  process.env.DATABASE_URL = tdb.url;
  process.env.PUNCTUAL_PUBLIC_URL = ORIGIN;
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-webhook-guard-routes-0123456789';
  const g = globalThis as { __punctualDb?: unknown; __punctualAuth?: unknown };
  delete g.__punctualDb;
  delete g.__punctualAuth;
  const { tenant } = await tenantWithRules(db(), []);
  tenantId = tenant.id;
  await ensureStaffUser(db(), tenantId, { email: 'admin@guard.test', name: 'Gus Admin', role: 'admin', password: PASSWORD });
  const { getAuth } = await import('@/server/accounts/auth');
  const res = await getAuth().api.signInEmail({ body: { email: 'admin@guard.test', password: PASSWORD }, headers: new Headers({ host: '127.0.0.1:3996', origin: ORIGIN }), asResponse: true });
  expect(res.status).toBe(200);
  cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  slack = await startSlackPeer();
});

afterAll(async () => {
  const g = globalThis as { __punctualDb?: { close(): Promise<void> } };
  await g.__punctualDb?.close();
  delete g.__punctualDb;
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  await slack?.close();
  await tdb?.close();
});

/** The demo's setting: http allowed; `origins` = PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS (undefined: unset). */
function demoEnv(origins: string | undefined) {
  process.env.PUNCTUAL_WEBHOOK_ALLOW_HTTP = 'true';
  if (origins === undefined) delete process.env.PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS;
  else process.env.PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS = origins;
}

async function put(path: string, body: unknown): Promise<{ status: number; body: { error?: string; field?: string; [k: string]: unknown } }> {
  const route = path === '/api/notification-settings' ? await import('@/app/api/notification-settings/route') : await import('@/app/api/alert-settings/route');
  const res = await route.PUT(new Request(`${ORIGIN}${path}`, { method: 'PUT', headers: { host: '127.0.0.1:3996', origin: ORIGIN, cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  return { status: res.status, body: await res.json() };
}
const rows = async () => ({
  notification: (await db().select({ n: count() }).from(notificationSettings).where(eq(notificationSettings.tenantId, tenantId)))[0]!.n,
  alert: (await db().select({ n: count() }).from(alertSettings).where(eq(alertSettings.tenantId, tenantId)))[0]!.n,
});

const refused: [string, string][] = [
  ['http://127.0.0.1:9/x', '127.0.0.1 is a loopback address'],
  ['http://10.0.0.1/', '10.0.0.1 is a private address'],
  ['http://[::1]/', '::1 is a loopback address'],
  ['http://localhost/', 'localhost is a loopback name'],
];

describe('settings saves: allowing http does not allow private addresses', () => {
  it.each(refused)('PUT /api/notification-settings with PUNCTUAL_WEBHOOK_ALLOW_HTTP=true and no allowed origins: %s → 400 naming webhookUrl, nothing saved', async (url, why) => {
    demoEnv(undefined);
    const before = await rows();
    const r = await put('/api/notification-settings', { policy: defaultPolicy, smsSender: '', webhookUrl: url, webhookEnabled: true, version: 0 });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toMatchObject({ field: 'webhookUrl', error: `webhookUrl: endpoint must be a public address: ${why}` });
    expect(await rows()).toEqual(before);
  });

  it.each(refused)('PUT /api/alert-settings with PUNCTUAL_WEBHOOK_ALLOW_HTTP=true and no allowed origins: %s → 400 naming slackWebhookUrl, nothing saved', async (url, why) => {
    demoEnv(undefined);
    const before = await rows();
    const r = await put('/api/alert-settings', { emailRecipients: [], slackWebhookUrl: url, lagP95Ms: 60_000, oldestDueSeconds: 600, version: 0 });
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toMatchObject({ field: 'slackWebhookUrl', error: `slackWebhookUrl: the webhook URL must be a public address: ${why}` });
    expect(await rows()).toEqual(before);
  });

  it('with the demo receiver’s origin allowed: that origin saves; another port on 127.0.0.1 is still a 400', async () => {
    demoEnv('http://127.0.0.1:4010');
    const other = await put('/api/notification-settings', { policy: defaultPolicy, smsSender: '', webhookUrl: 'http://127.0.0.1:4011/hooks/demo', webhookEnabled: true, version: 0 });
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ field: 'webhookUrl', error: 'webhookUrl: endpoint must be a public address: 127.0.0.1 is a loopback address' });
    const ok = await put('/api/notification-settings', { policy: defaultPolicy, smsSender: '', webhookUrl: 'http://127.0.0.1:4010/hooks/demo', webhookEnabled: true, version: 0 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const [row] = await db().select().from(notificationSettings).where(eq(notificationSettings.tenantId, tenantId));
    expect(row!.webhookUrl).toBe('http://127.0.0.1:4010/hooks/demo');

    const slackOther = await put('/api/alert-settings', { emailRecipients: [], slackWebhookUrl: 'http://127.0.0.1:4011/slack/demo/x', lagP95Ms: 60_000, oldestDueSeconds: 600, version: 0 });
    expect(slackOther).toMatchObject({ status: 400, body: { field: 'slackWebhookUrl' } });
    const slackOk = await put('/api/alert-settings', { emailRecipients: [], slackWebhookUrl: 'http://127.0.0.1:4010/slack/demo/x', lagP95Ms: 60_000, oldestDueSeconds: 600, version: 0 });
    expect(slackOk.status, JSON.stringify(slackOk.body)).toBe(200);
  });
});

describe('the Slack-compatible poster of the alerts: the same rule at send time', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(refused)('allowHttp and no allowed origins: %s → rejected PRIVATE_ADDRESS, no request started', async (url, why) => {
    const started: string[] = [];
    for (const lib of [http, https]) {
      vi.spyOn(lib, 'request').mockImplementation(((u: unknown) => {
        started.push(String(u));
        throw Object.assign(new Error('test: no request may be started'), { code: 'ETEST' });
      }) as never);
    }
    const r = await createSlackPoster({ allowHttp: true }).post(url, 'lag is high', { now: new Date(), tenantId: '00000000-0000-4000-8000-00000000a11a' });
    expect(r).toEqual({ class: 'rejected', kind: 'permission', code: 'PRIVATE_ADDRESS', message: `endpoint must be a public address: ${why}` });
    expect(started).toEqual([]);
  });

  it('with the receiver’s origin allowed it is posted to; the same host on another port is refused and gets nothing', async () => {
    const poster = createSlackPoster({ allowHttp: true, allowedOrigins: [new URL(slack.url).origin] });
    expect(await poster.post(slack.url, 'lag is high', { now: new Date(), tenantId: '00000000-0000-4000-8000-00000000a11a' })).toMatchObject({ class: 'accepted' });
    const port = Number(new URL(slack.url).port);
    const other = await poster.post(`http://127.0.0.1:${port === 65535 ? port - 1 : port + 1}/slack`, 'lag is high', { now: new Date(), tenantId: '00000000-0000-4000-8000-00000000a11a' });
    expect(other).toMatchObject({ class: 'rejected', code: 'PRIVATE_ADDRESS' });
  });
});

describe('PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS is checked where the processes start', () => {
  it('a value that is not a list of origins stops the web app and the worker naming the variable', () => {
    const base = { PUNCTUAL_PUBLIC_URL: ORIGIN };
    expect(() => checkWebSettings({ ...base, PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS: 'http://127.0.0.1:4010/hooks' })).toThrow(/^PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS: "http:\/\/127\.0\.0\.1:4010\/hooks" is not an origin/);
    expect(() => readWorkerConfig({ PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS: '127.0.0.1:4010' })).toThrow(/^PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS: "127\.0\.0\.1:4010"/);
    expect(readWorkerConfig({ PUNCTUAL_WEBHOOK_ALLOW_HTTP: 'true', PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS: 'HTTP://127.0.0.1:4010/' })).toMatchObject({ webhookAllowHttp: true, webhookAllowedOrigins: ['http://127.0.0.1:4010'] });
    expect(readWorkerConfig({ PUNCTUAL_WEBHOOK_ALLOW_HTTP: 'true' }).webhookAllowedOrigins).toEqual([]);
  });
});
