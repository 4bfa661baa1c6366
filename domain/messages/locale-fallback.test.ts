import { describe, expect, it } from 'vitest';
import { chooseMessageLocale, describeMessageLocale, keepClaimedLocale } from './locale-fallback';

const available = ['en', 'nl', 'de', 'fr', 'es', 'it', 'pt', 'he'];

describe('chooseMessageLocale', () => {
  it.each([
    // contact, organisation → locale, formatLocale, reason
    ['nl', 'en', 'nl', 'nl', 'contact_language'],
    ['NL', 'en', 'nl', 'nl', 'contact_language'],
    ['nl-BE', 'en', 'nl', 'nl-BE', 'base_language'],
    ['pt-BR', 'en', 'pt', 'pt-BR', 'base_language'],
    ['en-GB', 'de', 'en', 'en-GB', 'base_language'],
    ['iw', 'en', 'he', 'he', 'contact_language'],
    ['xx', 'de', 'de', 'de', 'organisation_default'],
    ['pl', 'de-CH', 'de', 'de-CH', 'organisation_default'],
    ['not a tag', 'fr', 'fr', 'fr', 'organisation_default'],
    ['', 'es', 'es', 'es', 'organisation_default'],
    [null, 'it', 'it', 'it', 'organisation_default'],
    ['xx', 'yy', 'en', 'en', 'english'],
    ['ar', null, 'en', 'en', 'english'],
    [null, null, 'en', 'en', 'english'],
  ] as const)('%j with organisation %j → %s (%s, %s)', (contact, organisation, locale, formatLocale, reason) => {
    expect(chooseMessageLocale({ contactLocale: contact, organisationLocale: organisation, available })).toEqual({ locale, formatLocale, reason });
  });

  it('an exact regional text wins over its base language', () => {
    expect(chooseMessageLocale({ contactLocale: 'pt-br', organisationLocale: 'en', available: [...available, 'pt-BR'] })).toEqual({
      locale: 'pt-BR',
      formatLocale: 'pt-BR',
      reason: 'contact_language',
    });
  });
});

describe('keepClaimedLocale', () => {
  const now = chooseMessageLocale({ contactLocale: 'nl-BE', organisationLocale: 'en', available });
  it('nothing recorded, or the same language: the choice made now', () => {
    expect(keepClaimedLocale(null, now)).toBe(now);
    expect(keepClaimedLocale({ locale: null, reason: null }, now)).toBe(now);
    expect(keepClaimedLocale({ locale: 'nl', reason: 'base_language' }, now)).toBe(now);
  });
  it('another language recorded at the claim: that one, with its reason', () => {
    expect(keepClaimedLocale({ locale: 'de', reason: 'organisation_default' }, now)).toEqual({ locale: 'de', formatLocale: 'de', reason: 'organisation_default' });
  });
});

describe('describeMessageLocale', () => {
  it.each([
    ['nl', 'contact_language', "Nederlands (nl) \u2014 the person's language"],
    ['de', 'organisation_default', "Deutsch (de) \u2014 the organisation's default language (no text in the person's language)"],
    ['he', 'base_language', "עברית (he) \u2014 the person's language (its base language: no text for their regional variant)"],
    ['en', 'something else', 'English (en)'],
  ])('%s, %s', (locale, reason, expected) => {
    expect(describeMessageLocale(locale, reason)).toBe(expected);
  });
});
