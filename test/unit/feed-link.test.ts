/**
 * Signed calendar feed tokens (server/calendar/feed-link.ts): round trip, determinism, generation carried, every
 * tampering refused (canonical check), another purpose's key or token refused, the previous session secret accepted
 * during a rotation, and the webcal form.
 */
import { describe, expect, it } from 'vitest';
import { feedKey, feedSecrets, feedUrl, signFeedToken, verifyFeedToken, webcalUrl } from '@/server/calendar/feed-link';
import { signUnsubscribeToken, unsubscribeKey } from '@/server/sending/unsubscribe-link';

const subject = { tenantId: '0b6f3c52-5d0e-4a55-9a1e-2f1f8c7d9e01', contactId: '7f3c2a9e-5b14-4d6a-8e21-c04b9d3f6a58', generation: 3 };
const env = { BETTER_AUTH_SECRET: 'current-secret-current-secret-32b' };
const [key] = feedSecrets(env);

describe('feed token', () => {
  it('round-trips tenant, contact and generation; the same subject gives the same token', async () => {
    const t = await signFeedToken(subject, key);
    expect(await signFeedToken(subject, key)).toBe(t);
    expect(await verifyFeedToken(t, [key])).toEqual(subject);
    expect(await signFeedToken({ ...subject, generation: 4 }, key)).not.toBe(t);
  });

  it('refuses every one-character change, another key, and a token of another purpose', async () => {
    const t = await signFeedToken(subject, key);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < t.length; i++) {
      if (t[i] === '.') continue;
      const c = alphabet[(alphabet.indexOf(t[i]) + 1) % 64];
      expect(await verifyFeedToken(t.slice(0, i) + c + t.slice(i + 1), [key]), `position ${i}`).toBeNull();
    }
    expect(await verifyFeedToken(t, [feedKey('another-secret')])).toBeNull();
    const unsubscribe = await signUnsubscribeToken({ tenantId: subject.tenantId, contactId: subject.contactId, category: 'reminders', expiresAt: new Date('2030-01-01Z') }, key);
    expect(await verifyFeedToken(unsubscribe, [key])).toBeNull();
    expect(await verifyFeedToken(t, [unsubscribeKey(env.BETTER_AUTH_SECRET)])).toBeNull();
    expect(await verifyFeedToken('', [key])).toBeNull();
    expect(await verifyFeedToken('a'.repeat(5000), [key])).toBeNull();
  });

  it('a token signed with the previous session secret still verifies while PUNCTUAL_PREVIOUS_AUTH_SECRET is set', async () => {
    const old = await signFeedToken(subject, feedSecrets({ BETTER_AUTH_SECRET: 'old-secret' })[0]);
    const rotated = feedSecrets({ BETTER_AUTH_SECRET: 'new-secret', PUNCTUAL_PREVIOUS_AUTH_SECRET: 'old-secret' });
    expect(rotated).toHaveLength(2);
    expect(await verifyFeedToken(old, rotated)).toEqual(subject);
    expect(await verifyFeedToken(old, feedSecrets({ BETTER_AUTH_SECRET: 'new-secret' }))).toBeNull();
    expect(() => feedSecrets({})).toThrow(/BETTER_AUTH_SECRET/);
  });

  it('URLs: https and webcal forms', () => {
    expect(feedUrl('https://p.example/', 'abc')).toBe('https://p.example/feeds/abc.ics');
    expect(webcalUrl('https://p.example/feeds/abc.ics')).toBe('webcal://p.example/feeds/abc.ics');
    expect(webcalUrl('http://127.0.0.1:3000/feeds/abc.ics')).toBe('webcal://127.0.0.1:3000/feeds/abc.ics');
  });
});
