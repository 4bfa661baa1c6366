import { describe, expect, it } from 'vitest';
import { readWorkerConfig, workerConfigGaps } from '@/server/platform/config';

describe('readWorkerConfig', () => {
  it('defaults', () => {
    const c = readWorkerConfig({});
    expect(c).toMatchObject({ claimLeaseMs: 60_000, sendLeaseMs: 120_000, concurrency: 10, rateLimits: {} });
    expect(c.retryPolicies.smtp).toEqual({ baseMs: 5000, capMs: 600_000, maxAttempts: 8 });
  });
  it('parses providers, rates and retry policies', () => {
    const c = readWorkerConfig({
      SMTP_URL: 'smtp://127.0.0.1:2525',
      HTTP_EMAIL_API_URL: 'https://api.example.test',
      HTTP_EMAIL_API_KEY: 'k',
      PUNCTUAL_RATE_HTTP_API: '120',
      PUNCTUAL_RETRY_HTTP_API: '1000,60000,5',
    });
    expect(c.httpApi).toEqual({ baseUrl: 'https://api.example.test', apiKey: 'k' });
    expect(c.rateLimits).toEqual({ http_api: 120 });
    expect(c.retryPolicies.http_api).toEqual({ baseMs: 1000, capMs: 60_000, maxAttempts: 5 });
  });
  it.each([
    [{ PUNCTUAL_RATE_SMTP: 'fast' }, /^PUNCTUAL_RATE_SMTP: /],
    [{ PUNCTUAL_RETRY_SMTP: '5s' }, /^PUNCTUAL_RETRY_SMTP: must be "baseMs,capMs,maxAttempts"/],
    [{ SMTP_URL: 'http://x' }, /^SMTP_URL: must start with smtp/],
    [{ HTTP_EMAIL_API_URL: 'https://x.test' }, /^HTTP_EMAIL_API_KEY: set both/],
    [{ WORKER_CONCURRENCY: '0' }, /^WORKER_CONCURRENCY: /],
  ])('rejects %j naming the variable', (env, msg) => {
    expect(() => readWorkerConfig(env)).toThrow(msg);
  });
});

describe('workerConfigGaps', () => {
  it('names what a bare worker (DATABASE_URL + SMTP_URL only) cannot do, and nothing for a full environment', () => {
    const bare = workerConfigGaps(readWorkerConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }));
    expect(bare).toHaveLength(3);
    expect(bare[0]).toMatch(/SMS_API_URL.*dead letter/);
    expect(bare[1]).toMatch(/PUNCTUAL_PUBLIC_URL.*unsubscribe/);
    expect(bare[2]).toMatch(/BETTER_AUTH_SECRET.*bounces/);
    const full = readWorkerConfig({
      SMTP_URL: 'smtp://127.0.0.1:2525',
      SMS_API_URL: 'http://127.0.0.1:9', SMS_ACCOUNT_SID: 'AC1', SMS_AUTH_TOKEN: 't',
      PUNCTUAL_PUBLIC_URL: 'https://punctual.example', BETTER_AUTH_SECRET: 'a-session-secret-of-enough-length-0123456789',
    });
    expect(workerConfigGaps(full)).toEqual([]);
  });
});
