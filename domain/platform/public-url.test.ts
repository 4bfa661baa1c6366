import { describe, expect, it } from 'vitest';
import { isTrustedOrigin, parsePublicUrl, publicBaseUrl, servedOverHttps, trustedOrigins } from './public-url';

describe('parsePublicUrl', () => {
  it('accepts absolute http(s) URLs with no path beyond "/", answering the origin', () => {
    expect(parsePublicUrl('https://punctual.example.org')).toBe('https://punctual.example.org');
    expect(parsePublicUrl('https://Punctual.Example.org/')).toBe('https://punctual.example.org');
    expect(parsePublicUrl('http://10.0.0.5:3000/')).toBe('http://10.0.0.5:3000');
    expect(parsePublicUrl('https://punctual.example.org:443')).toBe('https://punctual.example.org');
    expect(parsePublicUrl(' http://127.0.0.1:3201 ')).toBe('http://127.0.0.1:3201');
  });

  it.each([
    ['punctual.example.org', /not an absolute URL/],
    ['/relative', /not an absolute URL/],
    ['ftp://punctual.example.org', /must start with http:\/\/ or https:\/\/, not ftp:\/\//],
    ['javascript:alert(1)', /must start with http/],
    ['https://punctual.example.org/app', /no path beyond "\/".*"\/app"/],
    ['https://punctual.example.org/app/', /no path beyond/],
    ['https://punctual.example.org/?x=1', /no query string/],
    ['https://punctual.example.org/?', /no query string/],
    ['https://punctual.example.org/#top', /no fragment/],
    ['https://user:pw@punctual.example.org', /user name or password/],
  ])('refuses %s, naming the variable', (raw, rule) => {
    expect(() => parsePublicUrl(raw)).toThrow(/^PUNCTUAL_PUBLIC_URL: /);
    expect(() => parsePublicUrl(raw)).toThrow(rule);
  });
});

describe('trusted origins and base URL', () => {
  it('set: the one configured origin', () => {
    const env = { PUNCTUAL_PUBLIC_URL: 'https://punctual.example.org/', PORT: '3201' };
    expect(trustedOrigins(env)).toEqual(['https://punctual.example.org']);
    expect(publicBaseUrl(env)).toBe('https://punctual.example.org');
    expect(servedOverHttps(env)).toBe(true);
  });

  it('unset: 127.0.0.1 and localhost on PORT (default 3000); links use 127.0.0.1', () => {
    expect(trustedOrigins({ PORT: '3201' })).toEqual(['http://127.0.0.1:3201', 'http://localhost:3201']);
    expect(trustedOrigins({})).toEqual(['http://127.0.0.1:3000', 'http://localhost:3000']);
    expect(trustedOrigins({ PUNCTUAL_PUBLIC_URL: '' })).toEqual(['http://127.0.0.1:3000', 'http://localhost:3000']);
    expect(publicBaseUrl({ PORT: '3201' })).toBe('http://127.0.0.1:3201');
    expect(servedOverHttps({})).toBe(false);
  });

  it('isTrustedOrigin: exact origins only — never a look-alike, a null origin or one with a path', () => {
    const env = { PUNCTUAL_PUBLIC_URL: 'https://punctual.example.org' };
    expect(isTrustedOrigin('https://punctual.example.org', env)).toBe(true);
    for (const o of ['http://evil.example', 'https://punctual.example.org.evil.example', 'http://punctual.example.org', 'https://punctual.example.org:8443', 'null', '', null, undefined, 'https://punctual.example.org/']) {
      expect(isTrustedOrigin(o, env), String(o)).toBe(false);
    }
    expect(isTrustedOrigin('http://localhost:3000', {})).toBe(true);
    expect(isTrustedOrigin('http://localhost:3000', env)).toBe(false);
  });
});
