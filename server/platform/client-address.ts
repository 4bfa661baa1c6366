/**
 * The client address of a request inside the Next.js app (issue #12): the socket peer, and `X-Forwarded-For`
 * only when that peer is a proxy named in `PUNCTUAL_TRUSTED_PROXIES` (the rule: domain/accounts/client-address.ts).
 *
 * Where the socket peer comes from. Next.js 16 gives route handlers, server components and the proxy a Web
 * `Request` without the socket: `NextRequest.ip` was removed in Next 15 (the replacement is a hosting platform's
 * header, e.g. Vercel's), and `next start` only copies `socket.remoteAddress` into `x-forwarded-for` when the
 * request has NO such header (`req.headers['x-forwarded-for'] ??= …` in next/dist/server/base-server.js) — so a
 * client that sends one hides its own address. There is no supported way to reach the socket from a handler
 * and a custom server is not wanted, so the address is stamped on the request before Next sees it, through
 * Node's own observability hook: the `http.server.request.start` diagnostics channel (node:diagnostics_channel,
 * Node ≥ 18), published by Node's HTTP server for every request before its `request` event, with the request
 * and its socket. {@link installPeerStamp} (called from instrumentation.ts `register()`, which Next runs in the
 * server process at start) subscribes and writes `x-punctual-peer: <nonce> <address>` into the request's
 * headers, overwriting whatever a client sent under that name. The nonce is random per process, so a header a
 * client made up is never mistaken for a stamp — also not for a request that arrived in the first moments of
 * start-up, before the subscription (such a request counts as "peer unknown": one shared client).
 *
 * better-auth reads a client address from headers only (`advanced.ipAddress.ipAddressHeaders`; its own
 * `trustedProxies` option "cannot verify the direct sender", per its docs): app/api/auth/[...all]/route.ts
 * therefore hands it `x-punctual-client`, set from {@link clientOfHeaders} and never from the client.
 */
import { randomBytes } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { clientAddress, clientLimitKey, parseTrustedProxies, type ClientAddress, type TrustedProxies } from '@/domain/accounts/client-address';

/** The header carrying the stamped socket peer (`<nonce> <address>`). */
const PEER_HEADER = 'x-punctual-peer';
/** The header app/api/auth/[...all]/route.ts sets for better-auth (the resolved client address). */
export const CLIENT_HEADER = 'x-punctual-client';

const g = globalThis as unknown as { __punctualPeerNonce?: string };

/**
 * Subscribes (once per process) to Node's `http.server.request.start` channel and stamps every request with its
 * socket peer (see module doc). Safe to call more than once.
 */
export function installPeerStamp(): void {
  if (g.__punctualPeerNonce) return;
  const nonce = randomBytes(16).toString('hex');
  g.__punctualPeerNonce = nonce;
  subscribe('http.server.request.start', (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_HEADER] = `${nonce} ${socket?.remoteAddress ?? ''}`;
  });
}

/** The stamped socket peer of a request's headers, or null (no stamp, or a header the client made up). */
function peerFromHeaders(headers: Headers): string | null {
  const nonce = g.__punctualPeerNonce;
  const v = headers.get(PEER_HEADER);
  if (!nonce || !v || !v.startsWith(`${nonce} `)) return null;
  return v.slice(nonce.length + 1) || null;
}

let parsed: { text: string; value: TrustedProxies } | undefined;

/**
 * `PUNCTUAL_TRUSTED_PROXIES`, parsed (memoised per value). @throws TrustedProxiesError naming the variable and
 * the bad entry — instrumentation.ts and scripts/lib.ts call this at start, so a typo stops the server there.
 */
export function trustedProxiesFromEnv(env: Record<string, string | undefined> = process.env): TrustedProxies {
  const text = env.PUNCTUAL_TRUSTED_PROXIES ?? '';
  if (parsed?.text !== text) parsed = { text, value: parseTrustedProxies(text) };
  return parsed.value;
}

/** The client of a request with these headers (stamped peer + `X-Forwarded-For` + trusted proxies). */
function clientOfHeaders(headers: Headers): ClientAddress {
  return clientAddress({ peer: peerFromHeaders(headers), forwardedFor: headers.get('x-forwarded-for'), trusted: trustedProxiesFromEnv() });
}

/** The key a request's client is limited by (domain `clientLimitKey`: IPv4, IPv6 /64, or `unknown`). */
export function clientKeyOfHeaders(headers: Headers): string {
  return clientLimitKey(clientOfHeaders(headers));
}

/** A copy of `request` whose `x-punctual-client` header is the resolved client address (removed when unknown). */
export function withClientHeader(request: Request): Request {
  const headers = new Headers(request.headers);
  const c = clientOfHeaders(headers);
  if (c.address) headers.set(CLIENT_HEADER, c.address);
  else headers.delete(CLIENT_HEADER);
  return new Request(request, { headers });
}
