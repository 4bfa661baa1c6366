import { describe, expect, it } from 'vitest';
import { messageTextLabel, messageTextShort } from './message-text-label';

describe('which text a delivery used', () => {
  it.each([
    // locale, reason, version → label, short
    ['nl', 'contact_language', 2, 'Your text, version 2', 'Your text v2 · nl, their language'],
    ['nl', 'base_language', null, 'Punctual’s built-in text', 'Built-in text · nl, their base language'],
    ['de', 'organisation_default', 1, 'Your text, version 1', 'Your text v1 · de, your default language'],
    ['en', 'english', null, 'Punctual’s built-in text', 'Built-in text · en, English fallback'],
    ['en', 'something else', null, 'Punctual’s built-in text', 'Built-in text · en'],
    [null, null, null, null, null],
  ] as const)('%s %s v%s → %s', (messageLocale, localeReason, messageTextVersion, label, short) => {
    const f = { messageLocale, localeReason, messageTextVersion };
    expect(messageTextLabel(f)).toBe(label);
    expect(messageTextShort(f)).toBe(short);
  });
});
