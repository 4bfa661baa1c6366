import { describe, expect, it } from 'vitest';
import { unstorableText } from './text';

describe('unstorableText', () => {
  it('finds NUL and lone surrogates, naming the path', () => {
    expect(unstorableText({ title: 'a\u0000b' })).toBe('title');
    expect(unstorableText({ contact: { name: 'x\ud800' } })).toBe('contact.name');
    expect(unstorableText({ ids: ['ok', '\udc00'] })).toBe('ids.1');
  });
  it('accepts ordinary text, emoji (paired surrogates) and non-strings', () => {
    expect(unstorableText({ title: 'Töpfern 🙂 漢字', n: 3, b: true, x: null })).toBeNull();
  });
});
