import { describe, expect, it } from 'vitest';
import { isAllowedOrigin, parseAllowedOrigins, parseWebhookUrl, privateHostProblem } from './webhook-url';

describe('parseWebhookUrl', () => {
  it.each<[string, string, boolean, string]>([
    ['https', 'https://hooks.example.com/punctual', false, 'https://hooks.example.com/punctual'],
    ['trimmed and normalised', '  HTTPS://Hooks.Example.COM:443/p?x=1  ', false, 'https://hooks.example.com/p?x=1'],
    ['https with a port', 'https://hooks.example.com:8443/p', false, 'https://hooks.example.com:8443/p'],
    ['http when allowed', 'http://hooks.example.com:4010/hook', true, 'http://hooks.example.com:4010/hook'],
    ['https when http is allowed', 'https://a.example/h', true, 'https://a.example/h'],
    ['a public IPv4 literal', 'https://8.8.8.8/h', false, 'https://8.8.8.8/h'],
    ['a public IPv6 literal', 'https://[2606:4700:4700::1111]/h', false, 'https://[2606:4700:4700::1111]/h'],
    ['an IPv4-mapped public address', 'https://[::ffff:8.8.8.8]/h', false, 'https://[::ffff:808:808]/h'],
    ['a name merely containing localhost', 'https://localhost.example.com/h', false, 'https://localhost.example.com/h'],
    ['a name starting with a private-looking number', 'https://10.example.com/h', false, 'https://10.example.com/h'],
  ])('accepts %s', (_n, input, allowHttp, url) => {
    expect(parseWebhookUrl(input, { allowHttp })).toEqual({ ok: true, url });
  });

  it.each<[string, string, boolean, RegExp]>([
    ['http without allowHttp', 'http://hooks.example.com/p', false, /endpoint must be https/],
    ['another scheme', 'ftp://hooks.example.com/p', false, /endpoint must be https/],
    ['another scheme even with allowHttp', 'javascript:alert(1)', true, /endpoint must be https/],
    ['relative path', '/hooks/punctual', false, /absolute URL/],
    ['no scheme', 'hooks.example.com/punctual', false, /absolute URL/],
    ['scheme-relative', '//hooks.example.com/p', false, /absolute URL/],
    ['user and password', 'https://user:pw@hooks.example.com/p', false, /user name or password/],
    ['user only', 'https://user@hooks.example.com/p', false, /user name or password/],
    ['empty', '   ', false, /enter the endpoint URL/],
    ['too long', `https://a.example/${'x'.repeat(2048)}`, false, /longer than 2048/],
  ])('refuses %s', (_n, input, allowHttp, message) => {
    const r = parseWebhookUrl(input, { allowHttp });
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.message).toMatch(message);
    expect(r).toMatchObject({ code: 'INVALID_ENDPOINT' });
  });

  // The adversarial test's URLs, and the other spellings the WHATWG parser normalises (allowHttp false).
  it.each<[string, string]>([
    ['https://localhost./', 'endpoint must be a public address: localhost. is a loopback name'],
    ['https://localhost/', 'endpoint must be a public address: localhost is a loopback name'],
    ['https://LOCALHOST:8443/x', 'endpoint must be a public address: localhost is a loopback name'],
    ['https://localhost../', 'endpoint must be a public address: localhost.. is a loopback name'],
    ['https://api.localhost/', 'endpoint must be a public address: api.localhost is a loopback name'],
    ['https://api.localhost./', 'endpoint must be a public address: api.localhost. is a loopback name'],
    ['https://%6c%6fcalhost/', 'endpoint must be a public address: localhost is a loopback name'],
    ['https://ｌｏｃａｌｈｏｓｔ/', 'endpoint must be a public address: localhost is a loopback name'],
    ['https://0x7f000001/', 'endpoint must be a public address: 127.0.0.1 is a loopback address'],
    ['https://2130706433/', 'endpoint must be a public address: 127.0.0.1 is a loopback address'],
    ['https://127.1/', 'endpoint must be a public address: 127.0.0.1 is a loopback address'],
    ['https://0177.0.0.1/', 'endpoint must be a public address: 127.0.0.1 is a loopback address'],
    ['https://0x7f.1/', 'endpoint must be a public address: 127.0.0.1 is a loopback address'],
    ['https://127.0.0.1./', 'endpoint must be a public address: 127.0.0.1 is a loopback address'],
    ['https://127.0.0.1:3240/hook', 'endpoint must be a public address: 127.0.0.1 is a loopback address'],
    ['https://169.254.169.254/latest/meta-data/', 'endpoint must be a public address: 169.254.169.254 is a link-local address'],
    ['https://0/', 'endpoint must be a public address: 0.0.0.0 is an unspecified address'],
    ['https://10.0.0.5/', 'endpoint must be a public address: 10.0.0.5 is a private address'],
    ['https://172.16.3.4/', 'endpoint must be a public address: 172.16.3.4 is a private address'],
    ['https://192.168.1.1/', 'endpoint must be a public address: 192.168.1.1 is a private address'],
    ['https://100.64.0.1/', 'endpoint must be a public address: 100.64.0.1 is a shared (carrier-grade NAT) address'],
    ['https://224.0.0.1/', 'endpoint must be a public address: 224.0.0.1 is a multicast address'],
    ['https://255.255.255.255/', 'endpoint must be a public address: 255.255.255.255 is a reserved address'],
    ['https://[::1]:3240/hook', 'endpoint must be a public address: ::1 is a loopback address'],
    ['https://[::]/', 'endpoint must be a public address: :: is an unspecified address'],
    ['https://[0:0:0:0:0:0:0:1]/', 'endpoint must be a public address: ::1 is a loopback address'],
    ['https://[::ffff:127.0.0.1]/', 'endpoint must be a public address: ::ffff:7f00:1 is a loopback address (IPv4 127.0.0.1)'],
    ['https://[::ffff:169.254.169.254]/', 'endpoint must be a public address: ::ffff:a9fe:a9fe is a link-local address (IPv4 169.254.169.254)'],
    ['https://[64:ff9b::127.0.0.1]/', 'endpoint must be a public address: 64:ff9b::7f00:1 is a loopback address (IPv4 127.0.0.1)'],
    ['https://[fe80::1]/', 'endpoint must be a public address: fe80::1 is a link-local address'],
    ['https://[fd00::1]/', 'endpoint must be a public address: fd00::1 is a unique-local address'],
  ])('refuses the non-public host of %s', (input, message) => {
    expect(parseWebhookUrl(input, { allowHttp: false })).toEqual({ ok: false, code: 'PRIVATE_ADDRESS', message });
  });

  // Allowing http allows the scheme only: the private-address check stays on (the demo's receiver is allowed by name).
  it.each<[string, string]>([
    ['http://127.0.0.1:9/x', 'endpoint must be a public address: 127.0.0.1 is a loopback address'],
    ['http://10.0.0.1/', 'endpoint must be a public address: 10.0.0.1 is a private address'],
    ['http://[::1]/', 'endpoint must be a public address: ::1 is a loopback address'],
    ['http://localhost/', 'endpoint must be a public address: localhost is a loopback name'],
    ['http://169.254.169.254/latest/meta-data/', 'endpoint must be a public address: 169.254.169.254 is a link-local address'],
    ['https://127.0.0.1:4010/h', 'endpoint must be a public address: 127.0.0.1 is a loopback address'],
  ])('with allowHttp and no allowed origins, still refuses the non-public host of %s', (input, message) => {
    expect(parseWebhookUrl(input, { allowHttp: true })).toEqual({ ok: false, code: 'PRIVATE_ADDRESS', message });
    expect(parseWebhookUrl(input, { allowHttp: true, allowedOrigins: [] })).toEqual({ ok: false, code: 'PRIVATE_ADDRESS', message });
  });

  it('an allowed origin passes the private-address check — that scheme, host and port only', () => {
    const policy = { allowHttp: true, allowedOrigins: ['http://127.0.0.1:4010'] };
    expect(parseWebhookUrl('http://127.0.0.1:4010/hooks/demo', policy)).toEqual({ ok: true, url: 'http://127.0.0.1:4010/hooks/demo' });
    expect(parseWebhookUrl('HTTP://127.0.0.1:4010/slack/demo/x', policy)).toEqual({ ok: true, url: 'http://127.0.0.1:4010/slack/demo/x' });
    // Another port, another spelling of the loopback host, another scheme: refused.
    expect(parseWebhookUrl('http://127.0.0.1:4011/hooks/demo', policy)).toMatchObject({ ok: false, code: 'PRIVATE_ADDRESS' });
    expect(parseWebhookUrl('http://localhost:4010/hooks/demo', policy)).toMatchObject({ ok: false, code: 'PRIVATE_ADDRESS' });
    expect(parseWebhookUrl('http://[::1]:4010/hooks/demo', policy)).toMatchObject({ ok: false, code: 'PRIVATE_ADDRESS' });
    expect(parseWebhookUrl('https://127.0.0.1:4010/hooks/demo', policy)).toMatchObject({ ok: false, code: 'PRIVATE_ADDRESS' });
    expect(parseWebhookUrl('http://127.0.0.1/hooks/demo', policy)).toMatchObject({ ok: false, code: 'PRIVATE_ADDRESS' });
    // The allowlist does not allow http by itself.
    expect(parseWebhookUrl('http://127.0.0.1:4010/hooks/demo', { allowHttp: false, allowedOrigins: ['http://127.0.0.1:4010'] })).toMatchObject({ ok: false, code: 'INVALID_ENDPOINT' });
  });

  it('isAllowedOrigin compares whole origins (scheme, host, port; default port dropped)', () => {
    expect(isAllowedOrigin('http://127.0.0.1:4010/x', ['http://127.0.0.1:4010'])).toBe(true);
    expect(isAllowedOrigin('https://hooks.example.com:443/x', ['https://hooks.example.com'])).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:40100/x', ['http://127.0.0.1:4010'])).toBe(false);
    expect(isAllowedOrigin('http://127.0.0.1:4010/x', undefined)).toBe(false);
    expect(isAllowedOrigin('not a url', ['http://127.0.0.1:4010'])).toBe(false);
  });

  it('parseAllowedOrigins: origins separated by commas or spaces, normalised; anything else names the variable', () => {
    expect(parseAllowedOrigins(undefined)).toEqual({ ok: true, origins: [] });
    expect(parseAllowedOrigins('  ')).toEqual({ ok: true, origins: [] });
    expect(parseAllowedOrigins('HTTP://127.0.0.1:4010/, http://[::1]:4011 https://Hooks.Example.com:443')).toEqual({
      ok: true,
      origins: ['http://127.0.0.1:4010', 'http://[::1]:4011', 'https://hooks.example.com'],
    });
    for (const bad of ['127.0.0.1:4010', 'http://127.0.0.1:4010/hooks', 'http://127.0.0.1:4010/?x=1', 'ftp://127.0.0.1:21', 'http://u:p@127.0.0.1:4010', 'http://a b']) {
      const r = parseAllowedOrigins(bad);
      expect(r.ok, bad).toBe(false);
      expect(r.ok ? '' : r.message).toMatch(/^PUNCTUAL_WEBHOOK_ALLOWED_ORIGINS: "/);
    }
  });

  it('privateHostProblem: only IP literals and localhost names; other DNS names are for the send-time check', () => {
    expect(privateHostProblem('127.0.0.1')).toBe('127.0.0.1 is a loopback address');
    expect(privateHostProblem('[::1]')).toBe('::1 is a loopback address');
    expect(privateHostProblem('localhost')).toBe('localhost is a loopback name');
    expect(privateHostProblem('hooks.example.com')).toBeNull();
    expect(privateHostProblem('127.0.0.1.nip.io')).toBeNull();
    expect(privateHostProblem('8.8.8.8')).toBeNull();
  });
});
