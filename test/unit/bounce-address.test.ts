import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hkdfSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseVerpAddress } from '@/domain/sending/verp';
import { bounceAddressKey, bounceAddressKeyForCli, envelopeFromFor } from '@/server/sending/bounce-address';
import { readWorkerConfig } from '@/server/platform/config';
import { preferencesSecret } from '@/server/sending/preference-link';

const secret = 'test-secret-for-bounce-addresses-0123456789';
const id = '3f2a6c1e-0b4d-4e8a-9c2b-7d1e5f6a9c1e';

describe('bounceAddressKey', () => {
  it('is HKDF-SHA-256 of BETTER_AUTH_SECRET with info punctual-verp: not the secret, not the preferences key', () => {
    const k = bounceAddressKey({ BETTER_AUTH_SECRET: secret });
    expect(k).toBe(Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'punctual-verp', 32)).toString('base64url'));
    expect(k).not.toBe(secret);
    expect(k).not.toBe(preferencesSecret({ BETTER_AUTH_SECRET: secret }));
    expect(bounceAddressKey({ AUTH_SECRET: secret })).toBe(k);
  });

  it('throws naming BETTER_AUTH_SECRET when no secret is set', () => {
    expect(() => bounceAddressKey({})).toThrow(/^BETTER_AUTH_SECRET: not set/);
  });

  it('for the CLI: the environment, else the data folder’s auth-secret (never created), else null', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'punctual-key-'));
    expect(bounceAddressKeyForCli(dir, {})).toBeNull();
    writeFileSync(path.join(dir, 'auth-secret'), `${secret}\n`);
    expect(bounceAddressKeyForCli(dir, {})).toBe(bounceAddressKey({ BETTER_AUTH_SECRET: secret }));
    expect(bounceAddressKeyForCli(dir, { BETTER_AUTH_SECRET: 'other-secret-0123456789' })).toBe(bounceAddressKey({ BETTER_AUTH_SECRET: 'other-secret-0123456789' }));
  });
});

describe('envelopeFromFor', () => {
  const key = bounceAddressKey({ BETTER_AUTH_SECRET: secret });
  it('uses the tenant bounce domain, else the sender domain, and parses back to the delivery', () => {
    const a = envelopeFromFor({ bounceDomain: null, senderEmail: 'reminders@demo.punctual.local' }, id, key);
    expect(a).toMatch(/^bounces\+3f2a6c1e0b4d4e8a9c2b7d1e5f6a9c1e-[0-9a-f]{10}@demo\.punctual\.local$/);
    expect(parseVerpAddress(a, key)).toBe(id);
    expect(envelopeFromFor({ bounceDomain: 'bounce.example.test', senderEmail: 'hi@acme.test' }, id, key)).toMatch(/@bounce\.example\.test$/);
  });
});

describe('worker configuration', () => {
  it('has a bounce key exactly when BETTER_AUTH_SECRET (or AUTH_SECRET) is set', () => {
    expect(readWorkerConfig({}).bounceKey).toBeUndefined();
    expect(readWorkerConfig({ BETTER_AUTH_SECRET: secret }).bounceKey).toBe(bounceAddressKey({ BETTER_AUTH_SECRET: secret }));
  });
});
