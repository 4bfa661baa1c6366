/**
 * Which client sent a request, for sign-in limits and the session's recorded address (issue #12). Pure: the
 * caller supplies the direct peer (the TCP socket's remote address) and the `X-Forwarded-For` header.
 *
 * The rule (the "rightmost untrusted hop" of nginx's realip module and Apache's mod_remoteip):
 * - The direct peer is the client, unless it is one of the trusted proxies (`PUNCTUAL_TRUSTED_PROXIES`).
 *   Without trusted proxies (the default) forwarding headers are ignored altogether: any client can send them.
 * - When the peer is a trusted proxy, `X-Forwarded-For` is read from the RIGHT: each proxy appends the address
 *   it received the request from, so the rightmost entries were written by our own proxies and the leftmost by
 *   whoever sent the first request (a client can put anything there). Trusted hops are skipped; the first
 *   address that is not a trusted proxy is the client. When every hop is trusted, the leftmost one is.
 * - An entry that is not an IP address (garbage, `unknown`, an obfuscated name) ends the walk: the client is
 *   the trusted hop that handed it to us — a shared key, never one the sender can choose.
 *
 * Addresses are compared and reported in one canonical form: IPv4-mapped IPv6 (`::ffff:192.0.2.1`) is IPv4,
 * IPv6 is RFC 5952 text, a `:port` suffix (`192.0.2.1:5678`, `[2001:db8::1]:443`) and an IPv6 zone (`%eth0`)
 * are dropped. Only plain dotted-quad IPv4 is accepted (`127.1`, `0x7f.0.0.1`, `010.0.0.1` are not addresses).
 */
import ipaddr from 'ipaddr.js';

type IP = ipaddr.IPv4 | ipaddr.IPv6;

/** One trusted network: an address family and the first `prefix` bits that must match. */
interface TrustedNetwork {
  /** The entry as configured (for messages). */
  text: string;
  network: IP;
  prefix: number;
}

/** The parsed `PUNCTUAL_TRUSTED_PROXIES`: empty means "no proxy is trusted". */
export type TrustedProxies = readonly TrustedNetwork[];

/** A setting that cannot be parsed; the message names the variable and the bad entry. */
export class TrustedProxiesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrustedProxiesError';
  }
}

/** How many `X-Forwarded-For` entries are examined at most (from the right); a longer chain ends at the last trusted hop. */
export const MAX_FORWARDED_HOPS = 20;

/**
 * Parses one address as it appears in a socket peer or an `X-Forwarded-For` entry: IPv4 (dotted quad, optional
 * `:port`), IPv6 (optional zone, optional `[…]:port`), IPv4-mapped IPv6 (→ IPv4). Null when it is not one.
 */
export function parseAddress(text: string): IP | null {
  let s = text.trim();
  if (!s || s.length > 100) return null;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(s);
  if (bracketed) s = bracketed[1];
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}$/.test(s)) s = s.slice(0, s.lastIndexOf(':'));
  const zone = s.indexOf('%');
  if (zone !== -1 && s.includes(':')) s = s.slice(0, zone);
  if (ipaddr.IPv4.isValidFourPartDecimal(s)) return ipaddr.IPv4.parse(s);
  if (!s.includes(':') || !ipaddr.IPv6.isValid(s)) return null;
  const v6 = ipaddr.IPv6.parse(s);
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
}

/** The canonical text of an address (IPv4 dotted quad, IPv6 RFC 5952). */
export function formatAddress(ip: IP): string {
  return ip.kind() === 'ipv4' ? ip.toString() : (ip as ipaddr.IPv6).toRFC5952String();
}

/**
 * Parses `PUNCTUAL_TRUSTED_PROXIES`: comma-separated IP addresses and CIDR ranges (`127.0.0.1, 10.0.0.0/8, ::1,
 * fd00::/8`); blanks are ignored; unset or empty → no proxy is trusted. An IPv4-mapped IPv6 range
 * (`::ffff:10.0.0.0/104`) means the IPv4 range. A `/0` range is refused: it would trust every address, so any
 * client could name its own.
 * @throws TrustedProxiesError naming `PUNCTUAL_TRUSTED_PROXIES` and the first bad entry.
 */
export function parseTrustedProxies(value: string | undefined | null): TrustedProxies {
  const out: TrustedNetwork[] = [];
  for (const raw of (value ?? '').split(',')) {
    const text = raw.trim();
    if (!text) continue;
    const bad = (why: string) =>
      new TrustedProxiesError(`PUNCTUAL_TRUSTED_PROXIES: "${text.slice(0, 60)}" ${why} (expected comma-separated IP addresses or CIDR ranges, e.g. 127.0.0.1, 10.0.0.0/8, ::1, fd00::/8)`);
    const slash = text.indexOf('/');
    const addrText = slash === -1 ? text : text.slice(0, slash);
    const prefixText = slash === -1 ? null : text.slice(slash + 1);
    const ip = addrText.includes(':') && ipaddr.IPv6.isValid(addrText) ? ipaddr.IPv6.parse(addrText) : ipaddr.IPv4.isValidFourPartDecimal(addrText) ? ipaddr.IPv4.parse(addrText) : null;
    if (!ip) throw bad('is not an IP address or CIDR range');
    const maxBits = ip.kind() === 'ipv4' ? 32 : 128;
    if (prefixText !== null && !/^\d{1,3}$/.test(prefixText)) throw bad('has a prefix length that is not a whole number');
    let prefix = prefixText === null ? maxBits : Number(prefixText);
    if (prefix > maxBits) throw bad(`has a prefix length over ${maxBits}`);
    if (prefix === 0) throw bad('would trust every address, so any client could choose the address it is limited by');
    let network: IP = ip;
    if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) {
      if (prefix < 96) throw bad('mixes an IPv4-mapped address with a prefix shorter than 96');
      network = (ip as ipaddr.IPv6).toIPv4Address();
      prefix -= 96;
      if (prefix === 0) throw bad('would trust every address, so any client could choose the address it is limited by');
    }
    out.push({ text, network, prefix });
  }
  return out;
}

/** True when `ip` lies in one of the trusted networks (same address family, first `prefix` bits equal). */
function isTrusted(ip: IP, trusted: TrustedProxies): boolean {
  return trusted.some((t) => t.network.kind() === ip.kind() && ip.match(t.network as never, t.prefix));
}

/** Who sent a request, as {@link clientAddress} decided it. */
export type ClientAddress =
  /** `address`: canonical text; `via`: the socket peer itself, or an `X-Forwarded-For` hop vouched for by a trusted proxy. */
  | { address: string; via: 'peer' | 'forwarded' }
  /** The direct peer is not known (e.g. a call from server code, not from a socket): every such request is one client. */
  | { address: null; via: 'unknown' };

/**
 * The client of a request (see the module doc for the rule).
 * @param peer the socket's remote address (Node's `socket.remoteAddress`), or null when not known.
 * @param forwardedFor the `X-Forwarded-For` header (several headers joined with commas), or null.
 * @param trusted parsed `PUNCTUAL_TRUSTED_PROXIES`.
 */
export function clientAddress(input: { peer: string | null | undefined; forwardedFor: string | null | undefined; trusted: TrustedProxies }): ClientAddress {
  const peer = input.peer ? parseAddress(input.peer) : null;
  if (!peer) return { address: null, via: 'unknown' };
  if (!isTrusted(peer, input.trusted) || !input.forwardedFor) return { address: formatAddress(peer), via: 'peer' };
  const hops = input.forwardedFor
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  let current: IP = peer;
  let via: 'peer' | 'forwarded' = 'peer';
  for (let i = hops.length - 1, seen = 0; i >= 0 && seen < MAX_FORWARDED_HOPS; i--, seen++) {
    const hop = parseAddress(hops[i]);
    if (!hop) break; // garbage: the trusted hop to its right is as far as anyone vouches
    current = hop;
    via = 'forwarded';
    if (!isTrusted(hop, input.trusted)) break;
  }
  return { address: formatAddress(current), via };
}

/**
 * The key a client is limited by: an IPv4 address as is; an IPv6 address by its /64 network (`2001:db8:1:2::/64`),
 * because one subscriber usually holds a whole /64 and could otherwise take a fresh address per guess;
 * `unknown` when the peer is not known.
 */
export function clientLimitKey(client: ClientAddress): string {
  if (client.address === null) return 'unknown';
  const ip = parseAddress(client.address);
  if (!ip) return 'unknown';
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(parts).toRFC5952String()}/64`;
}
