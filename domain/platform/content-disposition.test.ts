/** Download headers (domain/platform/content-disposition.ts, RFC 6266 / RFC 8187). */
import { describe, expect, it } from 'vitest';
import { contentDisposition } from './content-disposition';

describe('contentDisposition', () => {
  it('a plain ASCII name: both forms equal', () => {
    expect(contentDisposition('attachment', 'invite.ics')).toBe(`attachment; filename="invite.ics"; filename*=UTF-8''invite.ics`);
    expect(contentDisposition('inline', 'message-1.eml')).toBe(`inline; filename="message-1.eml"; filename*=UTF-8''message-1.eml`);
  });

  it('non-ASCII, quotes, slashes, spaces and control characters: `_` in the ASCII form, percent-encoded UTF-8 in filename*', () => {
    expect(contentDisposition('attachment', 'Zoë "a"/b\\c d\r.ics')).toBe(
      `attachment; filename="Zo_ _a__b_c d_.ics"; filename*=UTF-8''Zo%C3%AB%20%22a%22%2Fb%5Cc%20d%0D.ics`,
    );
    expect(contentDisposition('attachment', '陶芸.ics')).toBe(`attachment; filename="__.ics"; filename*=UTF-8''%E9%99%B6%E8%8A%B8.ics`);
  });

  it('an empty or blank name is "download"', () => {
    expect(contentDisposition('attachment', '  ')).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
  });
});
