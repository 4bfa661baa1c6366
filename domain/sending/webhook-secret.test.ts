import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { formatWebhookSecret, isWebhookSecret } from './webhook-secret';

const bytes = (n: number, fill = 7) => new Uint8Array(n).fill(fill);

describe('formatWebhookSecret', () => {
  it('is whsec_ + padded base64 of the key (24 bytes → 32 characters)', () => {
    const s = formatWebhookSecret(bytes(24));
    expect(s).toBe(`whsec_${Buffer.from(bytes(24)).toString('base64')}`);
    expect(s).toHaveLength(6 + 32);
    expect(isWebhookSecret(s)).toBe(true);
  });

  it('refuses keys shorter than 24 or longer than 64 bytes', () => {
    expect(() => formatWebhookSecret(bytes(23))).toThrow(RangeError);
    expect(() => formatWebhookSecret(bytes(65))).toThrow(RangeError);
    expect(isWebhookSecret(formatWebhookSecret(bytes(64)))).toBe(true);
  });

  it('the standardwebhooks library decodes it to the same key (a signature made from the raw key verifies)', () => {
    const key = Uint8Array.from({ length: 24 }, (_, i) => i * 11);
    const s = formatWebhookSecret(key);
    const raw = new Webhook(Buffer.from(key).toString('latin1'), { format: 'raw' });
    const at = new Date('2027-09-01T07:00:00Z');
    expect(new Webhook(s).sign('msg_1', at, '{}')).toBe(raw.sign('msg_1', at, '{}'));
  });
});

describe('isWebhookSecret', () => {
  const good = formatWebhookSecret(bytes(24));
  it.each<[string, unknown, boolean]>([
    ['a formatted secret', good, true],
    ['48 bytes', formatWebhookSecret(bytes(48)), true],
    ['no prefix', good.slice(6), false],
    ['another prefix (asymmetric key)', `whsk_${good.slice(6)}`, false],
    ['16-byte key', `whsec_${Buffer.from(bytes(16)).toString('base64')}`, false],
    ['65-byte key', `whsec_${Buffer.from(bytes(65)).toString('base64')}`, false],
    ['padding missing', `whsec_${Buffer.from(bytes(25)).toString('base64').replace(/=+$/, '')}`, false],
    ['url-safe alphabet', `whsec_${Buffer.from(bytes(24, 0xfb)).toString('base64url')}`, false],
    ['trailing space', `${good} `, false],
    ['empty', 'whsec_', false],
    ['not a string', 42, false],
  ])('%s → %s', (_n, s, ok) => {
    expect(isWebhookSecret(s)).toBe(ok);
  });
});
