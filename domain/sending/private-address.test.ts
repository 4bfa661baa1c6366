import { BlockList } from 'node:net';
import { describe, expect, it } from 'vitest';
import { classifyAddress, describeNonPublic, describePrivateAddress, type NonPublicKind } from './private-address';

describe('classifyAddress', () => {
  it.each<[string, NonPublicKind, string?]>([
    // IPv4: each range at its edges.
    ['0.0.0.0', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.0', 'shared'],
    ['100.127.255.255', 'shared'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.170', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', 'reserved'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    // IPv6.
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['FF05::1:3', 'multicast'],
    ['100::1', 'reserved'],
    ['2001:2::1', 'benchmarking'],
    ['2001:10::1', 'reserved'],
    ['2001:db8::1', 'documentation'],
    ['64:ff9b:1::a00:1', 'reserved'],
    ['4000::1', 'reserved'],
    ['e000::1', 'reserved'],
    // IPv6 forms carrying a non-public IPv4 address.
    ['::ffff:127.0.0.1', 'loopback', '127.0.0.1'],
    ['::ffff:7f00:1', 'loopback', '127.0.0.1'],
    ['::FFFF:A9FE:A9FE', 'link-local', '169.254.169.254'],
    ['::ffff:10.1.2.3', 'private', '10.1.2.3'],
    ['::ffff:0:127.0.0.1', 'loopback', '127.0.0.1'],
    ['64:ff9b::127.0.0.1', 'loopback', '127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', 'link-local', '169.254.169.254'],
    ['64:ff9b::c0a8:101', 'private', '192.168.1.1'],
    ['2002:7f00:1::1', 'loopback', '127.0.0.1'],
    ['2002:c0a8:101::', 'private', '192.168.1.1'],
    ['::127.0.0.1', 'loopback', '127.0.0.1'],
    ['::8.8.8.8', 'reserved', '8.8.8.8'],
    // Not an IP address in strict syntax: fails closed.
    ['127.1', 'invalid'],
    ['0x7f000001', 'invalid'],
    ['2130706433', 'invalid'],
    ['0177.0.0.1', 'invalid'],
    ['localhost', 'invalid'],
    ['[::1]', 'invalid'],
    ['', 'invalid'],
  ])('%s is %s', (ip, kind, ipv4) => {
    expect(classifyAddress(ip)).toEqual(ipv4 ? { kind, ipv4 } : { kind });
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.1',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '2001:db9::1',
  ])('%s is public', (ip) => {
    expect(classifyAddress(ip)).toBeNull();
  });

  it('agrees with node:net BlockList over random IPv4 addresses and their IPv4-mapped IPv6 forms', () => {
    const list = new BlockList();
    for (const cidr of ['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24', '192.0.2.0/24',
      '192.88.99.0/24', '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4']) {
      const [a, n] = cidr.split('/');
      list.addSubnet(a, Number(n), 'ipv4');
    }
    // A fixed linear congruential sequence: reproducible, and dense near the range edges by mixing in edge octets.
    let seed = 12345;
    const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) & 0xff;
    const edges = [0, 10, 63, 64, 100, 127, 128, 169, 172, 191, 192, 198, 203, 223, 224, 239, 240, 255];
    for (let i = 0; i < 5000; i++) {
      const a = i % 3 === 0 ? edges[rnd() % edges.length] : rnd();
      const b = i % 2 === 0 ? edges[rnd() % edges.length] : rnd();
      const ip = `${a}.${b}.${rnd()}.${rnd()}`;
      expect(classifyAddress(ip) !== null, ip).toBe(list.check(ip, 'ipv4'));
      expect(classifyAddress(`::ffff:${ip}`) !== null, `::ffff:${ip}`).toBe(list.check(ip, 'ipv4'));
    }
  });

  it('describePrivateAddress names the address and its kind', () => {
    expect(describePrivateAddress('127.0.0.1')).toBe('127.0.0.1 is a loopback address');
    expect(describePrivateAddress('::1')).toBe('::1 is a loopback address');
    expect(describePrivateAddress('169.254.169.254')).toBe('169.254.169.254 is a link-local address');
    expect(describePrivateAddress('0.0.0.0')).toBe('0.0.0.0 is an unspecified address');
    expect(describePrivateAddress('100.64.1.1')).toBe('100.64.1.1 is a shared (carrier-grade NAT) address');
    expect(describePrivateAddress('::ffff:7f00:1')).toBe('::ffff:7f00:1 is a loopback address (IPv4 127.0.0.1)');
    expect(describePrivateAddress('nope')).toBe('nope is not an IP address');
    expect(describePrivateAddress('8.8.8.8')).toBeNull();
    expect(describeNonPublic({ kind: 'loopback', ipv4: '127.0.0.1' })).toBe('a loopback address (IPv4 127.0.0.1)');
    expect(describeNonPublic({ kind: 'unique-local' })).toBe('a unique-local address');
  });
});
