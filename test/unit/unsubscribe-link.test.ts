import { createHmac } from 'node:crypto';
import { CompactSign } from 'jose';
import { describe, expect, it } from 'vitest';
import { actionLinkSecrets } from '@/server/sending/action-link';
import { preferencesSecret, signPreferenceToken, verifyPreferenceToken } from '@/server/sending/preference-link';
import {
  signUnsubscribeToken,
  unsubscribeExpiry,
  unsubscribeKey,
  unsubscribeSecrets,
  unsubscribeUrl,
  verifyUnsubscribeToken,
  type UnsubscribeSubject,
} from '@/server/sending/unsubscribe-link';

const SESSION = 'test-secret-for-unsubscribe-links-0123456789';
const [secret] = unsubscribeSecrets({ BETTER_AUTH_SECRET: SESSION });
const subject: UnsubscribeSubject = {
  tenantId: '0b6f3c1e-8a8e-4a36-9a57-3f1d9d0f4a11',
  contactId: 'c3a1f0de-2b7e-4f52-8d1c-6e0f1b2a3c44',
  category: 'reminders',
  expiresAt: new Date('2028-08-04T00:00:00Z'),
};
const now = new Date('2027-08-03T12:00:00Z');
const key = (s: string) => new TextEncoder().encode(s);
const raw = (s: UnsubscribeSubject, category = s.category === 'reminders' ? 0 : 1) => {
  const tail = Buffer.alloc(5);
  tail.writeUInt8(category, 0);
  tail.writeUInt32BE(s.expiresAt.getTime() / 1000, 1);
  return Buffer.concat([Buffer.from((s.tenantId + s.contactId).replace(/-/g, ''), 'hex'), tail]);
};
const signBytes = (payload: Uint8Array, alg = 'HS256', k = secret) => new CompactSign(payload).setProtectedHeader({ alg }).sign(key(k));

describe('unsubscribe tokens', () => {
  it('round trip, both categories; deterministic; the payload is tenant + contact + category byte + expiry (big-endian seconds)', async () => {
    const token = await signUnsubscribeToken(subject, secret);
    expect(token.split('.')).toHaveLength(3);
    expect(await verifyUnsubscribeToken(token, secret, now)).toEqual(subject);
    expect(await signUnsubscribeToken(subject, secret)).toBe(token);
    expect(Buffer.from(token.split('.')[1], 'base64url')).toEqual(raw(subject));
    expect(token.length).toBeLessThan(130);
    const updates = { ...subject, category: 'booking_updates' as const };
    expect(await verifyUnsubscribeToken(await signUnsubscribeToken(updates, secret), [secret], now)).toEqual(updates);
  });

  it('any one byte changed, in header, payload or signature → null', async () => {
    const token = await signUnsubscribeToken(subject, secret);
    const parts = token.split('.').map((p) => Buffer.from(p, 'base64url'));
    let tried = 0;
    for (let part = 0; part < 3; part++) {
      for (let i = 0; i < parts[part].length; i++) {
        const copy = parts.map((p) => Buffer.from(p));
        copy[part][i] ^= 0x01;
        const tampered = copy.map((p) => p.toString('base64url')).join('.');
        expect(await verifyUnsubscribeToken(tampered, secret, now), `part ${part} byte ${i}`).toBeNull();
        tried++;
      }
    }
    expect(tried).toBe(parts[0].length + 37 + 32);
  });

  it('the last character of any part changed to EVERY other base64url character → null (no unused low bits accepted)', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const token = await signUnsubscribeToken(subject, secret);
    const parts = token.split('.');
    let tried = 0;
    for (let part = 0; part < 3; part++) {
      const last = parts[part].at(-1)!;
      for (const c of alphabet) {
        if (c === last) continue;
        const copy = [...parts];
        copy[part] = copy[part].slice(0, -1) + c;
        expect(await verifyUnsubscribeToken(copy.join('.'), secret, now), `part ${part}: ${last} → ${c}`).toBeNull();
        tried++;
      }
    }
    expect(tried).toBe(3 * 63);
    // Padding, whitespace or a character outside base64url in a part is not the token we issued either.
    for (const bad of [`${parts[0]}.${parts[1]}.${parts[2]}=`, `${parts[0]}.${parts[1]}.${parts[2]} `, `${parts[0]}.${parts[1]}.+${parts[2].slice(1)}`]) {
      expect(await verifyUnsubscribeToken(bad, secret, now), JSON.stringify(bad)).toBeNull();
    }
    expect(await verifyUnsubscribeToken(token, secret, now)).toEqual(subject);
  });

  it('expired at or after its instant → { error: expired } (only when the signature is good)', async () => {
    const token = await signUnsubscribeToken(subject, secret);
    expect(await verifyUnsubscribeToken(token, secret, new Date('2028-08-03T23:59:59Z'))).toEqual(subject);
    expect(await verifyUnsubscribeToken(token, secret, subject.expiresAt)).toEqual({ error: 'expired', expiredAt: subject.expiresAt });
    expect(await verifyUnsubscribeToken(token, secret, new Date('2030-01-01T00:00:00Z'))).toEqual({ error: 'expired', expiredAt: subject.expiresAt });
    const [otherKey] = unsubscribeSecrets({ BETTER_AUTH_SECRET: 'another-secret-0123456789-0123456789' });
    expect(await verifyUnsubscribeToken(token, otherKey, new Date('2030-01-01T00:00:00Z'))).toBeNull();
  });

  it('another key → null; the previous secret (rotation) is accepted when configured', async () => {
    const oldKeys = unsubscribeSecrets({ BETTER_AUTH_SECRET: 'the-old-session-secret-0123456789abcdef' });
    const token = await signUnsubscribeToken(subject, oldKeys[0]);
    expect(await verifyUnsubscribeToken(token, secret, now)).toBeNull();
    const rotated = unsubscribeSecrets({ BETTER_AUTH_SECRET: SESSION, PUNCTUAL_PREVIOUS_AUTH_SECRET: 'the-old-session-secret-0123456789abcdef' });
    expect(rotated).toHaveLength(2);
    expect(rotated[0]).toBe(secret);
    expect(await verifyUnsubscribeToken(token, rotated, now)).toEqual(subject);
    // New links are signed with the current key, which also verifies.
    expect(await verifyUnsubscribeToken(await signUnsubscribeToken(subject, rotated[0]), rotated, now)).toEqual(subject);
  });

  it('signed with the session secret itself, or with the preferences key → null', async () => {
    expect(await verifyUnsubscribeToken(await signUnsubscribeToken(subject, SESSION), secret, now)).toBeNull();
    const prefKey = preferencesSecret({ BETTER_AUTH_SECRET: SESSION });
    expect(prefKey).not.toBe(secret);
    expect(await verifyUnsubscribeToken(await signUnsubscribeToken(subject, prefKey), secret, now)).toBeNull();
  });

  it('a preferences-link token is refused here, and an unsubscribe token is refused as a preferences link', async () => {
    const prefKey = preferencesSecret({ BETTER_AUTH_SECRET: SESSION });
    const prefToken = await signPreferenceToken({ tenantId: subject.tenantId, contactId: subject.contactId }, prefKey);
    expect(await verifyUnsubscribeToken(prefToken, unsubscribeSecrets({ BETTER_AUTH_SECRET: SESSION }), now)).toBeNull();
    // Even a preferences-shaped payload (two uuids) under the unsubscribe key is refused: it is not 37 bytes.
    expect(await verifyUnsubscribeToken(await signPreferenceToken({ tenantId: subject.tenantId, contactId: subject.contactId }, secret), secret, now)).toBeNull();
    const unsubToken = await signUnsubscribeToken(subject, secret);
    expect(await verifyPreferenceToken(unsubToken, prefKey)).toBeNull();
    expect(await verifyPreferenceToken(unsubToken, secret)).toBeNull();
  });

  it('a payload that is not exactly tenant + contact + known category + expiry → null, even correctly signed', async () => {
    const good = raw(subject);
    expect(await verifyUnsubscribeToken(await signBytes(good), secret, now)).toEqual(subject);
    expect(await verifyUnsubscribeToken(await signBytes(good.subarray(0, 36)), secret, now)).toBeNull();
    expect(await verifyUnsubscribeToken(await signBytes(Buffer.concat([good, Buffer.from([0])])), secret, now)).toBeNull();
    // Index 2 is announcements (categories are only ever appended: older tokens keep their meaning); 3 is none.
    expect(await verifyUnsubscribeToken(await signBytes(raw(subject, 2)), secret, now)).toEqual({ ...subject, category: 'announcements' });
    expect(await verifyUnsubscribeToken(await signBytes(raw(subject, 3)), secret, now)).toBeNull();
    expect(await verifyUnsubscribeToken(await signBytes(raw(subject, 255)), secret, now)).toBeNull();
  });

  it('an unsigned token (alg none) or another algorithm → null', async () => {
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const body = raw(subject).toString('base64url');
    expect(await verifyUnsubscribeToken(`${b64({ alg: 'none' })}.${body}.`, secret, now)).toBeNull();
    const h512 = b64({ alg: 'HS512' });
    const sig = createHmac('sha512', key(secret)).update(`${h512}.${body}`).digest('base64url');
    expect(await verifyUnsubscribeToken(`${h512}.${body}.${sig}`, secret, now)).toBeNull();
  });

  it('garbage → null, never a throw', async () => {
    for (const t of ['', 'abc', 'a.b.c', 'x'.repeat(5000), null as unknown as string]) expect(await verifyUnsubscribeToken(t, secret, now)).toBeNull();
    expect(await verifyUnsubscribeToken(await signUnsubscribeToken(subject, secret), [], now)).toBeNull();
    expect(await verifyUnsubscribeToken(await signUnsubscribeToken(subject, secret), '', now)).toBeNull();
  });

  it('refuses to sign without a secret, with ids that are not uuids, an unknown category or an out-of-range expiry', async () => {
    await expect(signUnsubscribeToken(subject, '')).rejects.toThrow(/secret is empty/);
    await expect(signUnsubscribeToken({ ...subject, contactId: 'bob' }, secret)).rejects.toThrow(/uuids/);
    await expect(signUnsubscribeToken({ ...subject, category: 'marketing' as never }, secret)).rejects.toThrow(/unknown category/);
    await expect(signUnsubscribeToken({ ...subject, expiresAt: new Date('2200-01-01T00:00:00Z') }, secret)).rejects.toThrow(/expiresAt/);
  });
});

describe('unsubscribeExpiry', () => {
  it('is the send instant + 365 days, rounded up to a UTC midnight: the same for the whole day', () => {
    expect(unsubscribeExpiry(new Date('2027-08-04T08:00:00Z'))).toEqual(new Date('2028-08-04T00:00:00Z'));
    expect(unsubscribeExpiry(new Date('2027-08-03T00:00:01Z'))).toEqual(new Date('2028-08-03T00:00:00Z'));
    expect(unsubscribeExpiry(new Date('2027-08-03T23:59:59Z'))).toEqual(new Date('2028-08-03T00:00:00Z'));
    expect(unsubscribeExpiry(new Date('2027-08-03T00:00:00Z'))).toEqual(new Date('2028-08-02T00:00:00Z'));
  });
});

describe('unsubscribeSecrets', () => {
  it('are derived with HKDF info punctual-unsubscribe: not the secret, not the preferences key; AUTH_SECRET fallback; names BETTER_AUTH_SECRET', () => {
    expect(secret).toBe(unsubscribeKey(SESSION));
    expect(secret).not.toContain(SESSION);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(secret).not.toBe(preferencesSecret({ BETTER_AUTH_SECRET: SESSION }));
    expect(unsubscribeSecrets({ AUTH_SECRET: SESSION })).toEqual([secret]);
    expect(unsubscribeSecrets({ BETTER_AUTH_SECRET: SESSION, PUNCTUAL_PREVIOUS_AUTH_SECRET: SESSION })).toEqual([secret]);
    expect(() => unsubscribeSecrets({})).toThrow(/^BETTER_AUTH_SECRET: not set/);
  });
});

describe('unsubscribeUrl', () => {
  it('joins base URL and token', () => {
    expect(unsubscribeUrl('https://punctual.example', 'a.b.c')).toBe('https://punctual.example/u/a.b.c');
    expect(unsubscribeUrl('https://punctual.example/', 'a.b.c')).toBe('https://punctual.example/u/a.b.c');
  });
});

describe('worker configuration', () => {
  it('PUNCTUAL_PUBLIC_URL with BETTER_AUTH_SECRET → links carry the unsubscribe signing key (the current one)', async () => {
    const { readWorkerConfig } = await import('@/server/platform/config');
    const c = readWorkerConfig({ PUNCTUAL_PUBLIC_URL: 'https://punctual.example', BETTER_AUTH_SECRET: SESSION, PUNCTUAL_PREVIOUS_AUTH_SECRET: 'old-secret' });
    expect(c.links).toEqual({ publicUrl: 'https://punctual.example', secret: preferencesSecret({ BETTER_AUTH_SECRET: SESSION }), unsubscribeSecret: secret, actionSecret: actionLinkSecrets({ BETTER_AUTH_SECRET: SESSION })[0] });
    expect(readWorkerConfig({}).links).toBeUndefined();
  });
});
