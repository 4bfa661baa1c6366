/**
 * The two delivery-report route handlers (issue #10 §1): thin — raw body, environment, the intake functions — and
 * let through the proxy without a session (the signature is the credential). They use the process-wide database
 * pool, pointed at this file's database. Harness and helpers: ./report-harness.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryReports } from '@/db/schema';
import { twilioSignature } from '@/domain/reports/twilio-signature';
import { db, emailEvent, h, SECRET, useReportHarness } from './report-harness';

useReportHarness();

describe('the route handlers (thin: raw body, environment, the intake functions)', () => {
  const saved: Record<string, string | undefined> = {};
  const keys = ['DATABASE_URL', 'HTTP_EMAIL_WEBHOOK_SECRET', 'SMS_AUTH_TOKEN', 'SMS_STATUS_CALLBACK_URL', 'PUNCTUAL_PUBLIC_URL'] as const;
  const g = globalThis as { __punctualDb?: { close(): Promise<void> }; __punctualClock?: { stop(): void } };
  beforeAll(() => {
    for (const k of keys) saved[k] = process.env[k];
    // The routes use the process-wide pool: point it at this file's database.
    process.env.DATABASE_URL = h.tdb.url;
    delete g.__punctualDb;
    delete g.__punctualClock;
  });
  afterAll(async () => {
    g.__punctualClock?.stop();
    delete g.__punctualClock;
    await g.__punctualDb?.close();
    delete g.__punctualDb;
    for (const k of keys) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('POST /api/reports/email: 503 without the secret, 401 for a bad signature, 202 for an unknown message', async () => {
    const { POST } = await import('@/app/api/reports/email/route');
    // The route reads the database clock (real time): the event time must be near it.
    const e = emailEvent('msg_route_1', 'email.delivered', new Date().toISOString(), { email_id: 'unknown-at-route' });
    const req = (headers = e.headers) => new Request('http://127.0.0.1:3999/api/reports/email', { method: 'POST', headers, body: e.rawBody });
    delete process.env.HTTP_EMAIL_WEBHOOK_SECRET;
    const r503 = await POST(req());
    expect(r503.status).toBe(503);
    expect(((await r503.json()) as { error: string }).error).toContain('HTTP_EMAIL_WEBHOOK_SECRET');
    process.env.HTTP_EMAIL_WEBHOOK_SECRET = SECRET;
    expect((await POST(req({ ...e.headers, 'webhook-signature': 'v1,AAAA' }))).status).toBe(401);
    expect(await db().select().from(deliveryReports)).toHaveLength(0);
    const ok = await POST(req());
    expect(ok.status).toBe(202);
    expect(await ok.json()).toMatchObject({ status: 'unmatched' });
  });

  it('POST /api/reports/sms: verified over SMS_STATUS_CALLBACK_URL, else PUNCTUAL_PUBLIC_URL + the path', async () => {
    const { POST } = await import('@/app/api/reports/sms/route');
    const params = { MessageSid: 'SM0123456789abcdef0123456789abcdef', MessageStatus: 'delivered', To: '+31612345678' };
    const body = new URLSearchParams(params).toString();
    const req = (signedFor: string) =>
      new Request('http://127.0.0.1:3999/api/reports/sms', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature('route-token', signedFor, params) },
        body,
      });
    delete process.env.SMS_AUTH_TOKEN;
    const r503 = await POST(req('https://punctual.example/api/reports/sms'));
    expect(r503.status).toBe(503);
    expect(((await r503.json()) as { error: string }).error).toContain('SMS_AUTH_TOKEN');
    process.env.SMS_AUTH_TOKEN = 'route-token';
    process.env.SMS_STATUS_CALLBACK_URL = 'https://hooks.example/sms?tenant=demo';
    process.env.PUNCTUAL_PUBLIC_URL = 'https://punctual.example/';
    expect((await POST(req('https://punctual.example/api/reports/sms'))).status).toBe(401);
    const first = await POST(req('https://hooks.example/sms?tenant=demo'));
    expect(first.status).toBe(202);
    const { reportId } = (await first.json()) as { reportId: string };
    delete process.env.SMS_STATUS_CALLBACK_URL;
    const viaPublic = await POST(req('https://punctual.example/api/reports/sms'));
    // The same event again, still about no message of ours: the one stored row, still unmatched (not a
    // "duplicate": nothing was ever applied).
    expect(viaPublic.status).toBe(202);
    expect(await viaPublic.json()).toMatchObject({ status: 'unmatched', reportId });
  });

  it('the proxy lets both report routes through without a session (the signature is the credential)', async () => {
    const { NextRequest } = await import('next/server');
    const { proxy } = await import('@/proxy');
    for (const path of ['/api/reports/email', '/api/reports/sms']) {
      const res = proxy(new NextRequest(`http://127.0.0.1:3999${path}`, { method: 'POST' }));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-middleware-next')).toBe('1');
    }
    expect(proxy(new NextRequest('http://127.0.0.1:3999/api/reports/other', { method: 'POST' })).status).toBe(401);
  });
});
