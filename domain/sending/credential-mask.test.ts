import { describe, expect, it } from 'vitest';
import { MASK_CHAR, maskCredentials, maskCredentialsDeep, maskCredentialsInHtml } from './credential-mask';

const dots = (n: number) => MASK_CHAR.repeat(n);

describe('maskCredentials', () => {
  it.each([
    ['set-password link', 'Choose: http://127.0.0.1:3000/set-password?token=AbC123_-xyz now', `Choose: http://127.0.0.1:3000/set-password?token=${dots(11)} now`],
    ['better-auth reset link', 'https://app.example/reset-password/tok123?callbackURL=%2F', `https://app.example/reset-password/${dots(6)}?callbackURL=%2F`],
    ['api reset link', 'https://app.example/api/auth/reset-password/tok123', `https://app.example/api/auth/reset-password/${dots(6)}`],
    ['unsubscribe link', '<https://app.example/u/eyJhbGciOi.J9.sig>', `<https://app.example/u/${dots(17)}>`],
    ['preferences link', 'Manage: https://app.example/preferences/v1.abc.def', `Manage: https://app.example/preferences/${dots(10)}`],
    ['under a base path', 'https://host/punctual/u/t0k', `https://host/punctual/u/${dots(3)}`],
    ['a token param on any path', 'https://app.example/verify?x=1&token=s3cr3t&y=2', `https://app.example/verify?x=1&token=${dots(6)}&y=2`],
    ['param names without case, and in the fragment', 'https://x.test/p#Code=1234', `https://x.test/p#Code=${dots(4)}`],
    ['html-escaped separators', 'href="https://x.test/set-password?lang=nl&amp;token=abc"', `href="https://x.test/set-password?lang=nl&amp;token=${dots(3)}"`],
    ['two links in one text', 'a https://x.test/u/one b https://x.test/u/two', `a https://x.test/u/${dots(3)} b https://x.test/u/${dots(3)}`],
  ])('%s', (_name, input, expected) => {
    const out = maskCredentials(input);
    expect(out.text).toBe(expected);
    expect(out.hidden).toBeGreaterThan(0);
    // Same length: a hint, not a shorter or longer string.
    expect([...out.text].length).toBe([...input].length);
  });

  it.each([
    ['a link without a credential', 'See https://app.example/events/123?tab=info'],
    ['an empty token', 'https://x.test/set-password?token='],
    ['a bare prefix', 'https://x.test/u/'],
    ['no URL', 'token=abc is not a link'],
    ['another scheme', 'ftp://x.test/u/abc'],
  ])('leaves %s alone', (_name, input) => {
    expect(maskCredentials(input)).toEqual({ text: input, hidden: 0 });
  });
});

describe('maskCredentialsInHtml', () => {
  it('masks the address and the visible text, and makes the link unclickable', () => {
    const html = '<p><a href="https://x.test/set-password?token=abcdef" style="color:#000">https://x.test/set-password?token=abcdef</a></p>';
    const out = maskCredentialsInHtml(html);
    expect(out.html).not.toContain('abcdef');
    expect(out.html).not.toMatch(/\shref=/);
    expect(out.html).toContain(`data-masked-href="https://x.test/set-password?token=${dots(6)}"`);
    expect(out.html).toContain('aria-disabled="true"');
    expect(out.html).toContain(`>https://x.test/set-password?token=${dots(6)}</a>`);
  });

  it('keeps links without credentials clickable', () => {
    const html = "<a href='https://x.test/events/1'>event</a> <a href='https://x.test/u/zzz'>unsubscribe</a>";
    const out = maskCredentialsInHtml(html);
    expect(out.html).toContain("href='https://x.test/events/1'");
    expect(out.html).toContain(`data-masked-href='https://x.test/u/${dots(3)}'`);
  });
});

describe('maskCredentialsDeep', () => {
  it('masks every string of a header map, keeping keys and other values', () => {
    const headers = { 'list-unsubscribe': '<https://x.test/u/abc>', verified: true, n: 3, lines: ['https://x.test/preferences/p1'] };
    expect(maskCredentialsDeep(headers)).toEqual({
      'list-unsubscribe': `<https://x.test/u/${dots(3)}>`,
      verified: true,
      n: 3,
      lines: [`https://x.test/preferences/${dots(2)}`],
    });
  });
});
