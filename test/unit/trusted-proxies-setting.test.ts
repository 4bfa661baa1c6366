/** PUNCTUAL_TRUSTED_PROXIES is checked before the web app is started (issue #12): a typo stops it, naming the entry. */
import { describe, expect, it } from 'vitest';
import { startNext } from '@/scripts/lib';
import { trustedProxiesFromEnv } from '@/server/platform/client-address';

describe('PUNCTUAL_TRUSTED_PROXIES at start', () => {
  it('startNext refuses a bad entry before spawning anything', async () => {
    const logged: string[] = [];
    await expect(startNext(0, { PUNCTUAL_TRUSTED_PROXIES: '127.0.0.1, nginx.internal' }, (m) => logged.push(m))).rejects.toThrow(
      'PUNCTUAL_TRUSTED_PROXIES: "nginx.internal" is not an IP address or CIDR range (expected comma-separated IP addresses or CIDR ranges, e.g. 127.0.0.1, 10.0.0.0/8, ::1, fd00::/8)',
    );
    expect(logged).toEqual([]);
  });

  it('the web process reads it once per value: unset trusts nobody, a list is parsed', () => {
    expect(trustedProxiesFromEnv({})).toEqual([]);
    expect(trustedProxiesFromEnv({ PUNCTUAL_TRUSTED_PROXIES: '127.0.0.1,::1' }).map((t) => t.text)).toEqual(['127.0.0.1', '::1']);
    expect(() => trustedProxiesFromEnv({ PUNCTUAL_TRUSTED_PROXIES: '0.0.0.0/0' })).toThrow(/would trust every address/);
  });
});
