import { createHmac } from 'node:crypto';
import { CompactSign } from 'jose';
import { describe, expect, it } from 'vitest';
import { preferencesSecret, preferencesUrl, signPreferenceToken, verifyPreferenceToken } from '@/server/sending/preference-link';

const subject = { tenantId: '0b6f3c1e-8a8e-4a36-9a57-3f1d9d0f4a11', contactId: 'c3a1f0de-2b7e-4f52-8d1c-6e0f1b2a3c44' };
const secret = preferencesSecret({ BETTER_AUTH_SECRET: 'test-secret-for-preference-links-0123456789' });
const key = (s: string) => new TextEncoder().encode(s);

describe('preference link tokens', () => {
  const raw = (tenantId: string, contactId: string) => Buffer.from((tenantId + contactId).replace(/-/g, ''), 'hex');
  const signBytes = (payload: Uint8Array, alg = 'HS256') => new CompactSign(payload).setProtectedHeader({ alg }).sign(key(secret));

  it('round trip', async () => {
    const token = await signPreferenceToken(subject, secret);
    expect(token.split('.')).toHaveLength(3);
    expect(await verifyPreferenceToken(token, secret)).toEqual(subject);
  });
  it('are short (they go into every SMS): 108 characters, the two ids as 32 raw bytes; deterministic, no expiry', async () => {
    const token = await signPreferenceToken(subject, secret);
    expect(token).toHaveLength(108);
    expect(Buffer.from(token.split('.')[1], 'base64url')).toEqual(raw(subject.tenantId, subject.contactId));
    expect(await signPreferenceToken(subject, secret)).toBe(token);
  });
  it('tampered → null', async () => {
    const token = await signPreferenceToken(subject, secret);
    const [h, p, s] = token.split('.');
    const other = raw(subject.tenantId, '11111111-2222-4333-8444-555555555555').toString('base64url');
    expect(await verifyPreferenceToken(`${h}.${other}.${s}`, secret)).toBeNull();
    const flipped = s.slice(0, -2) + (s.at(-2) === 'A' ? 'B' : 'A') + s.at(-1);
    expect(await verifyPreferenceToken(`${h}.${p}.${flipped}`, secret)).toBeNull();
    expect(await verifyPreferenceToken(`${h}.${p}.`, secret)).toBeNull();
  });
  it('the last character of any part changed to EVERY other base64url character → null (no unused low bits accepted)', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const token = await signPreferenceToken(subject, secret);
    const parts = token.split('.');
    let tried = 0;
    for (let part = 0; part < 3; part++) {
      const last = parts[part].at(-1)!;
      for (const c of alphabet) {
        if (c === last) continue;
        const copy = [...parts];
        copy[part] = copy[part].slice(0, -1) + c;
        expect(await verifyPreferenceToken(copy.join('.'), secret), `part ${part}: ${last} → ${c}`).toBeNull();
        tried++;
      }
    }
    expect(tried).toBe(3 * 63);
    for (const bad of [`${token}=`, `${token} `, `${parts[0]}.${parts[1]}.+${parts[2].slice(1)}`]) expect(await verifyPreferenceToken(bad, secret), JSON.stringify(bad)).toBeNull();
    expect(await verifyPreferenceToken(token, secret)).toEqual(subject);
  });
  it('another secret → null', async () => {
    const token = await signPreferenceToken(subject, secret);
    const otherSecret = preferencesSecret({ BETTER_AUTH_SECRET: 'another-secret-for-preference-links-98765' });
    expect(await verifyPreferenceToken(token, otherSecret)).toBeNull();
  });
  it('signed with the session secret itself (not the derived key) → null', async () => {
    const session = 'test-secret-for-preference-links-0123456789';
    const token = await signPreferenceToken(subject, session);
    expect(await verifyPreferenceToken(token, secret)).toBeNull();
  });
  it('a payload that is not exactly two uuids → null, even correctly signed', async () => {
    expect(await verifyPreferenceToken(await signBytes(raw(subject.tenantId, subject.contactId).subarray(0, 16)), secret)).toBeNull();
    expect(await verifyPreferenceToken(await signBytes(Buffer.concat([raw(subject.tenantId, subject.contactId), Buffer.from([0])])), secret)).toBeNull();
    expect(await verifyPreferenceToken(await signBytes(new TextEncoder().encode(JSON.stringify({ tenant: subject.tenantId, sub: subject.contactId }))), secret)).toBeNull();
    // The same bytes as a real token are accepted: the refusals above are about the payload.
    expect(await verifyPreferenceToken(await signBytes(raw(subject.tenantId, subject.contactId)), secret)).toEqual(subject);
  });
  it('an unsigned token (alg none) or another algorithm → null', async () => {
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const body = raw(subject.tenantId, subject.contactId).toString('base64url');
    expect(await verifyPreferenceToken(`${b64({ alg: 'none' })}.${body}.`, secret)).toBeNull();
    const h512 = b64({ alg: 'HS512' });
    const sig = createHmac('sha512', key(secret)).update(`${h512}.${body}`).digest('base64url');
    expect(await verifyPreferenceToken(`${h512}.${body}.${sig}`, secret)).toBeNull();
  });
  it('garbage → null', async () => {
    for (const t of ['', 'abc', 'a.b.c', 'x'.repeat(5000), null as unknown as string]) expect(await verifyPreferenceToken(t, secret)).toBeNull();
  });
  it('refuses to sign without a secret or with ids that are not uuids', async () => {
    await expect(signPreferenceToken(subject, '')).rejects.toThrow(/secret is empty/);
    await expect(signPreferenceToken({ ...subject, contactId: 'bob' }, secret)).rejects.toThrow(/uuids/);
  });
});

describe('preferencesSecret', () => {
  it('is derived from BETTER_AUTH_SECRET (HKDF-SHA-256, info punctual-preferences), not the secret itself', () => {
    const a = preferencesSecret({ BETTER_AUTH_SECRET: 'one-secret-0123456789-0123456789-0123' });
    expect(a).toBe(preferencesSecret({ BETTER_AUTH_SECRET: 'one-secret-0123456789-0123456789-0123' }));
    expect(a).not.toContain('one-secret');
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(a).not.toBe(preferencesSecret({ BETTER_AUTH_SECRET: 'two-secret-0123456789-0123456789-0123' }));
  });
  it('falls back to AUTH_SECRET, and names BETTER_AUTH_SECRET when neither is set', () => {
    expect(preferencesSecret({ AUTH_SECRET: 'x-secret' })).toBe(preferencesSecret({ BETTER_AUTH_SECRET: 'x-secret' }));
    expect(() => preferencesSecret({})).toThrow(/^BETTER_AUTH_SECRET: not set/);
  });
});

describe('preferencesUrl', () => {
  it('joins base URL and token', () => {
    expect(preferencesUrl('https://punctual.example', 'a.b.c')).toBe('https://punctual.example/preferences/a.b.c');
    expect(preferencesUrl('https://punctual.example/', 'a.b.c')).toBe('https://punctual.example/preferences/a.b.c');
  });
});
