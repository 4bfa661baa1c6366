import { describe, expect, it } from 'vitest';
import { clientAddress, clientLimitKey, formatAddress, MAX_FORWARDED_HOPS, parseAddress, parseTrustedProxies, TrustedProxiesError } from './client-address';

const trusted = (s: string) => parseTrustedProxies(s);
const client = (peer: string | null, forwardedFor: string | null, proxies = '') => clientAddress({ peer, forwardedFor, trusted: trusted(proxies) });

describe('parseAddress', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    [' 192.0.2.1 ', '192.0.2.1'],
    ['192.0.2.1:5678', '192.0.2.1'],
    ['::1', '::1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:c000:0201', '192.0.2.1'],
    ['[::ffff:127.0.0.1]:80', '127.0.0.1'],
  ])('%s → %s', (text, canonical) => {
    const ip = parseAddress(text);
    expect(ip && formatAddress(ip)).toBe(canonical);
  });

  it.each(['', 'unknown', 'evil.example', '127.1', '0x7f.0.0.1', '010.0.0.1', '256.1.1.1', '1.2.3', '1.2.3.4.5', '1.2.3.4:', '2001:db8::1::2', '_hidden', '1.2.3.4/8', 'x'.repeat(200)])(
    '%j is not an address',
    (text) => {
      expect(parseAddress(text)).toBeNull();
    },
  );
});

describe('parseTrustedProxies (PUNCTUAL_TRUSTED_PROXIES)', () => {
  it('unset or blank trusts nobody', () => {
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(parseTrustedProxies('')).toEqual([]);
    expect(parseTrustedProxies(' , ,')).toEqual([]);
  });

  it('takes addresses and CIDR ranges of both families, comma-separated with spaces', () => {
    const t = parseTrustedProxies('127.0.0.1, 10.0.0.0/8 ,::1,fd00::/8,::ffff:172.16.0.0/108');
    expect(t.map((n) => [n.text, formatAddress(n.network), n.prefix])).toEqual([
      ['127.0.0.1', '127.0.0.1', 32],
      ['10.0.0.0/8', '10.0.0.0', 8],
      ['::1', '::1', 128],
      ['fd00::/8', 'fd00::', 8],
      // An IPv4-mapped range is the IPv4 range: 108 − 96 = 12 bits.
      ['::ffff:172.16.0.0/108', '172.16.0.0', 12],
    ]);
  });

  it.each([
    ['proxy.internal', 'is not an IP address or CIDR range'],
    ['10.0.0.0/33', 'has a prefix length over 32'],
    ['::1/129', 'has a prefix length over 128'],
    ['10.0.0.0/x', 'has a prefix length that is not a whole number'],
    ['10.0.0.0/', 'has a prefix length that is not a whole number'],
    ['0.0.0.0/0', 'would trust every address'],
    ['::/0', 'would trust every address'],
    ['::ffff:0.0.0.0/96', 'would trust every address'],
    ['::ffff:10.0.0.0/64', 'mixes an IPv4-mapped address with a prefix shorter than 96'],
    ['127.1', 'is not an IP address or CIDR range'],
  ])('%j is refused with a message naming the setting and the entry', (value, why) => {
    let err: unknown;
    try {
      parseTrustedProxies(`127.0.0.1, ${value}`);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TrustedProxiesError);
    expect((err as Error).message).toContain(`PUNCTUAL_TRUSTED_PROXIES: "${value}" ${why}`);
    expect((err as Error).message).toContain('e.g. 127.0.0.1, 10.0.0.0/8');
  });
});

describe('clientAddress: no trusted proxies (the default)', () => {
  it('the socket peer is the client; X-Forwarded-For is ignored whatever it says', () => {
    expect(client('203.0.113.9', null)).toEqual({ address: '203.0.113.9', via: 'peer' });
    expect(client('203.0.113.9', '198.51.100.1')).toEqual({ address: '203.0.113.9', via: 'peer' });
    expect(client('127.0.0.1', '198.51.100.1, 10.0.0.1')).toEqual({ address: '127.0.0.1', via: 'peer' });
  });

  it('an IPv4-mapped peer (a dual-stack socket) is its IPv4 address; IPv6 is canonical', () => {
    expect(client('::ffff:203.0.113.9', null)).toEqual({ address: '203.0.113.9', via: 'peer' });
    expect(client('2001:0DB8::0001', null)).toEqual({ address: '2001:db8::1', via: 'peer' });
  });

  it('no peer (server code, not a socket) or an unreadable one: unknown — also when a header names someone', () => {
    expect(client(null, '198.51.100.1')).toEqual({ address: null, via: 'unknown' });
    expect(client('', null)).toEqual({ address: null, via: 'unknown' });
    expect(client('garbage', '198.51.100.1', '0.0.0.0/1')).toEqual({ address: null, via: 'unknown' });
  });
});

describe('clientAddress: behind trusted proxies (rightmost untrusted hop)', () => {
  it('a direct client that is not a trusted proxy cannot name another address', () => {
    expect(client('203.0.113.9', '198.51.100.1', '127.0.0.1')).toEqual({ address: '203.0.113.9', via: 'peer' });
  });

  it('the proxy on 127.0.0.1 vouches for the hop it appended (the rightmost)', () => {
    expect(client('127.0.0.1', '198.51.100.7', '127.0.0.1')).toEqual({ address: '198.51.100.7', via: 'forwarded' });
  });

  it('spoofed leftmost entries are ignored: the rightmost untrusted hop is the client', () => {
    // The client sent "X-Forwarded-For: 1.1.1.1, 10.0.0.5"; the proxy appended what it saw.
    expect(client('127.0.0.1', '1.1.1.1, 10.0.0.5, 198.51.100.7', '127.0.0.1')).toEqual({ address: '198.51.100.7', via: 'forwarded' });
    // A spoofed entry that names a trusted proxy does not help either.
    expect(client('127.0.0.1', '1.1.1.1, 127.0.0.1, 198.51.100.7', '127.0.0.1')).toEqual({ address: '198.51.100.7', via: 'forwarded' });
  });

  it('a chain of trusted proxies (CIDR) is skipped from the right', () => {
    const chain = '9.9.9.9, 198.51.100.7, 10.1.2.3, 10.200.0.1';
    expect(client('10.0.0.2', chain, '10.0.0.0/8')).toEqual({ address: '198.51.100.7', via: 'forwarded' });
    // Trusting only the last proxy: the hop before it is taken at its word, even if it is a private address.
    expect(client('10.0.0.2', chain, '10.0.0.2')).toEqual({ address: '10.200.0.1', via: 'forwarded' });
  });

  it('when every hop is trusted, the leftmost one is the client', () => {
    expect(client('127.0.0.1', '10.0.0.1, 10.0.0.2', '127.0.0.1, 10.0.0.0/8')).toEqual({ address: '10.0.0.1', via: 'forwarded' });
  });

  it('a trusted proxy with no X-Forwarded-For is itself the client', () => {
    expect(client('127.0.0.1', null, '127.0.0.1')).toEqual({ address: '127.0.0.1', via: 'peer' });
    expect(client('127.0.0.1', ' , ', '127.0.0.1')).toEqual({ address: '127.0.0.1', via: 'peer' });
  });

  it('garbage ends the walk at the trusted hop that handed it over — never at a value the sender chose', () => {
    expect(client('127.0.0.1', 'unknown', '127.0.0.1')).toEqual({ address: '127.0.0.1', via: 'peer' });
    expect(client('127.0.0.1', '198.51.100.7, _evil, 10.0.0.9', '127.0.0.1, 10.0.0.0/8')).toEqual({ address: '10.0.0.9', via: 'forwarded' });
  });

  it('ports and brackets that some proxies add are dropped', () => {
    expect(client('127.0.0.1', '198.51.100.7:51234', '127.0.0.1')).toEqual({ address: '198.51.100.7', via: 'forwarded' });
    expect(client('127.0.0.1', '[2001:db8::7]:51234', '127.0.0.1')).toEqual({ address: '2001:db8::7', via: 'forwarded' });
  });

  it('IPv6 proxies and clients; an IPv4-mapped peer matches an IPv4 range and vice versa', () => {
    expect(client('::1', '2001:db8:1:2::99', '::1')).toEqual({ address: '2001:db8:1:2::99', via: 'forwarded' });
    expect(client('fd00::5', '198.51.100.7, fd00::4', 'fd00::/8')).toEqual({ address: '198.51.100.7', via: 'forwarded' });
    expect(client('::ffff:10.0.0.2', '198.51.100.7', '10.0.0.0/8')).toEqual({ address: '198.51.100.7', via: 'forwarded' });
    expect(client('10.0.0.2', '198.51.100.7', '::ffff:10.0.0.0/104')).toEqual({ address: '198.51.100.7', via: 'forwarded' });
    expect(client('127.0.0.1', '::ffff:198.51.100.7', '127.0.0.1')).toEqual({ address: '198.51.100.7', via: 'forwarded' });
  });

  it('an IPv6 range does not cover IPv4 addresses and the other way round', () => {
    expect(client('10.0.0.2', '198.51.100.7', 'fd00::/8')).toEqual({ address: '10.0.0.2', via: 'peer' });
    expect(client('fd00::5', '198.51.100.7', '10.0.0.0/8')).toEqual({ address: 'fd00::5', via: 'peer' });
  });

  it(`looks at most ${MAX_FORWARDED_HOPS} hops from the right`, () => {
    const trustedHops = Array.from({ length: MAX_FORWARDED_HOPS + 5 }, (_, i) => `10.0.${i}.1`);
    expect(client('127.0.0.1', ['198.51.100.7', ...trustedHops].join(', '), '127.0.0.1, 10.0.0.0/8')).toEqual({ address: `10.0.5.1`, via: 'forwarded' });
  });
});

describe('clientLimitKey', () => {
  it('IPv4 as is, IPv6 by its /64, unknown as "unknown"', () => {
    expect(clientLimitKey({ address: '198.51.100.7', via: 'peer' })).toBe('198.51.100.7');
    expect(clientLimitKey({ address: '2001:db8:1:2:aaaa:bbbb:cccc:dddd', via: 'peer' })).toBe('2001:db8:1:2::/64');
    expect(clientLimitKey({ address: '2001:db8:1:2::1', via: 'peer' })).toBe(clientLimitKey({ address: '2001:db8:1:2:ffff::9', via: 'forwarded' }));
    expect(clientLimitKey({ address: '2001:db8:1:3::1', via: 'peer' })).toBe('2001:db8:1:3::/64');
    expect(clientLimitKey({ address: null, via: 'unknown' })).toBe('unknown');
  });

  it('never contains a space (sign-in bucket keys put the client before the account)', () => {
    for (const a of ['198.51.100.7', '::1', '2001:db8::1']) expect(clientLimitKey({ address: a, via: 'peer' })).not.toContain(' ');
  });
});
