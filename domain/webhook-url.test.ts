import { describe, expect, it } from 'vitest';
import { parseWebhookUrl } from './webhook-url';

describe('parseWebhookUrl', () => {
  it.each<[string, string, boolean, string]>([
    ['https', 'https://hooks.example.com/punctual', false, 'https://hooks.example.com/punctual'],
    ['trimmed and normalised', '  HTTPS://Hooks.Example.COM:443/p?x=1  ', false, 'https://hooks.example.com/p?x=1'],
    ['https with a port', 'https://hooks.example.com:8443/p', false, 'https://hooks.example.com:8443/p'],
    ['http when allowed', 'http://127.0.0.1:4010/hook', true, 'http://127.0.0.1:4010/hook'],
    ['https when http is allowed', 'https://a.example/h', true, 'https://a.example/h'],
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
  });
});
