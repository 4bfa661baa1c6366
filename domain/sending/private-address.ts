/**
 * Is an IP address one that an outbound request from Punctual must not reach? (SSRF defence for webhooks: OWASP
 * "Server-Side Request Forgery Prevention Cheat Sheet" — refuse private, loopback, link-local and other
 * non-public destinations.) Pure: string in, answer out; node:net is used only for its strict `isIPv4`/`isIPv6`
 * syntax checks, no I/O.
 *
 * Non-public ranges (IANA IPv4 and IPv6 Special-Purpose Address Registries, RFC 6890 and the RFCs named):
 *
 *   IPv4                                       IPv6
 *   0.0.0.0/8          unspecified (RFC 791)   ::/128            unspecified (RFC 4291)
 *   10.0.0.0/8         private (RFC 1918)      ::1/128           loopback (RFC 4291)
 *   100.64.0.0/10      shared / CGNAT (6598)   fc00::/7          unique-local (RFC 4193)
 *   127.0.0.0/8        loopback (RFC 1122)     fe80::/10         link-local (RFC 4291)
 *   169.254.0.0/16     link-local (RFC 3927)   fec0::/10         site-local (RFC 3879, deprecated)
 *   172.16.0.0/12      private (RFC 1918)      ff00::/8          multicast (RFC 4291)
 *   192.0.0.0/24       reserved (RFC 6890)     100::/64          reserved: discard-only (RFC 6666)
 *   192.0.2.0/24       documentation (5737)    2001:2::/48       benchmarking (RFC 5180)
 *   192.88.99.0/24     reserved (RFC 7526)     2001:10::/28      reserved: ORCHID (RFC 4843)
 *   192.168.0.0/16     private (RFC 1918)      2001:20::/28      reserved: ORCHIDv2 (RFC 7343)
 *   198.18.0.0/15      benchmarking (2544)     2001:db8::/32     documentation (RFC 3849)
 *   198.51.100.0/24    documentation (5737)    anything outside 2000::/3 (global unicast, RFC 4291 §2.4) not
 *   203.0.113.0/24     documentation (5737)      listed here → reserved (also 64:ff9b:1::/48, local NAT64)
 *   224.0.0.0/4        multicast (RFC 5771)
 *   240.0.0.0/4        reserved (RFC 1112; includes 255.255.255.255, broadcast)
 *
 * IPv6 forms that carry an IPv4 address are judged by that IPv4 address (a connection to them reaches it):
 * IPv4-mapped `::ffff:0:0/96` (RFC 4291; `::ffff:127.0.0.1` = `::ffff:7f00:1`), IPv4-translated
 * `::ffff:0:0:0/96` (RFC 2765), NAT64 well-known prefix `64:ff9b::/96` (RFC 6052) and 6to4 `2002::/16` (RFC
 * 3056, the IPv4 address in bits 16–47). IPv4-compatible `::a.b.c.d` (deprecated by RFC 4291) is never public:
 * the IPv4 address's own kind if it has one, else reserved. A zone id (`fe80::1%eth0`) is ignored.
 *
 * Anything that is not an IPv4 or IPv6 address in node's strict syntax (dotted-quad decimal; no `127.1`, no
 * `0x7f000001` — normalise those with the WHATWG URL parser first) is `invalid` and counts as non-public: the
 * check fails closed.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** Why an address is not public. */
export type NonPublicKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'site-local'
  | 'unique-local'
  | 'multicast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved'
  | 'invalid';

/** A non-public address: its kind, and — when an IPv6 form embeds an IPv4 address that decided it — that IPv4 address. */
interface NonPublicAddress {
  kind: NonPublicKind;
  /** The embedded IPv4 address (dotted quad) of an IPv4-mapped, -translated, -compatible, NAT64 or 6to4 form. */
  ipv4?: string;
}

interface Range {
  bytes: number[];
  prefix: number;
  kind: Exclude<NonPublicKind, 'invalid'>;
}

const range = (cidr: string, kind: Range['kind']): Range => {
  const [addr, len] = cidr.split('/');
  const bytes = isIPv4(addr) ? ipv4Bytes(addr) : ipv6Bytes(addr);
  return { bytes: bytes!, prefix: Number(len), kind };
};

function ipv4Bytes(ip: string): number[] | null {
  if (!isIPv4(ip)) return null;
  return ip.split('.').map(Number);
}

/** 16 bytes of an IPv6 address (node-valid syntax; zone id already removed); a dotted IPv4 tail becomes two groups. */
function ipv6Bytes(ip: string): number[] | null {
  if (!isIPv6(ip)) return null;
  let text = ip;
  const lastColon = text.lastIndexOf(':');
  const dotted = text.slice(lastColon + 1);
  if (dotted.includes('.')) {
    const v4 = ipv4Bytes(dotted);
    if (!v4) return null;
    text = `${text.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  const zeros = halves.length === 2 ? 8 - head.length - rest.length : 0;
  if (zeros < 0) return null;
  const groups = [...head, ...Array<number>(zeros).fill(0), ...rest];
  if (groups.length !== 8 || groups.some((g) => !(g >= 0 && g <= 0xffff))) return null;
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

function inRange(bytes: number[], r: Range): boolean {
  if (bytes.length !== r.bytes.length) return false;
  for (let bit = 0; bit < r.prefix; bit += 8) {
    const i = bit / 8;
    const n = Math.min(8, r.prefix - bit);
    const mask = (0xff << (8 - n)) & 0xff;
    if ((bytes[i] & mask) !== (r.bytes[i] & mask)) return false;
  }
  return true;
}

const ipv4Ranges: Range[] = [
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'shared'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'reserved'),
  range('192.0.2.0/24', 'documentation'),
  range('192.88.99.0/24', 'reserved'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'),
];

const ipv6Ranges: Range[] = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('fc00::/7', 'unique-local'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local'),
  range('ff00::/8', 'multicast'),
  range('100::/64', 'reserved'),
  range('2001:2::/48', 'benchmarking'),
  range('2001:10::/28', 'reserved'),
  range('2001:20::/28', 'reserved'),
  range('2001:db8::/32', 'documentation'),
];

const globalUnicast = range('2000::/3', 'reserved');

/** IPv6 prefixes whose address carries an IPv4 address at byte `at` (module doc). */
const embeddingV4: { r: Range; at: number }[] = [
  { r: range('::ffff:0:0/96', 'reserved'), at: 12 },
  { r: range('::ffff:0:0:0/96', 'reserved'), at: 12 },
  { r: range('64:ff9b::/96', 'reserved'), at: 12 },
  { r: range('2002::/16', 'reserved'), at: 2 },
];
const ipv4Compatible = range('::/96', 'reserved');

function classifyV4(bytes: number[]): Range['kind'] | null {
  return ipv4Ranges.find((r) => inRange(bytes, r))?.kind ?? null;
}

/**
 * Classifies an IP address (module table). @param ip an IPv4 dotted quad or an IPv6 address, without brackets
 * (a `%zone` suffix is allowed). @returns null for a public address, else why it is not public; `invalid` for
 * anything that is not an IP address.
 */
export function classifyAddress(ip: string): NonPublicAddress | null {
  const v4 = ipv4Bytes(ip);
  if (v4) {
    const kind = classifyV4(v4);
    return kind ? { kind } : null;
  }
  const v6 = ipv6Bytes(ip.replace(/%.*$/, ''));
  if (!v6) return { kind: 'invalid' };
  for (const { r, at } of embeddingV4) {
    if (inRange(v6, r)) {
      const embedded = v6.slice(at, at + 4);
      const kind = classifyV4(embedded);
      return kind ? { kind, ipv4: embedded.join('.') } : null;
    }
  }
  const special = ipv6Ranges.find((r) => inRange(v6, r));
  if (special) return { kind: special.kind };
  if (inRange(v6, ipv4Compatible)) {
    const embedded = v6.slice(12);
    return { kind: classifyV4(embedded) ?? 'reserved', ipv4: embedded.join('.') };
  }
  return inRange(v6, globalUnicast) ? null : { kind: 'reserved' };
}

const kindWords: Record<NonPublicKind, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private address',
  shared: 'a shared (carrier-grade NAT) address',
  'link-local': 'a link-local address',
  'site-local': 'a site-local address',
  'unique-local': 'a unique-local address',
  multicast: 'a multicast address',
  documentation: 'a documentation address',
  benchmarking: 'a benchmarking address',
  reserved: 'a reserved address',
  invalid: 'not an IP address',
};

/** Words for a classification: `a loopback address`, `a loopback address (IPv4 127.0.0.1)`, `not an IP address`. */
export function describeNonPublic(c: NonPublicAddress): string {
  return `${kindWords[c.kind]}${c.ipv4 ? ` (IPv4 ${c.ipv4})` : ''}`;
}

/**
 * Words for a refusal: `127.0.0.1 is a loopback address`, `::ffff:7f00:1 is a loopback address (IPv4 127.0.0.1)`,
 * `nope is not an IP address`; null for a public address.
 */
export function describePrivateAddress(ip: string): string | null {
  const c = classifyAddress(ip);
  if (!c) return null;
  return c.kind === 'invalid' ? `${ip} is not an IP address` : `${ip} is ${describeNonPublic(c)}`;
}
