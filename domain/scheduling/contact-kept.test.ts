import { describe, expect, it } from 'vitest';
import { describeKept, keptDetails, type ContactDetails } from './contact-kept';

const stored: ContactDetails = { name: 'Ana Berg', locale: 'de', timeZone: 'Europe/Berlin', phone: '+4915123456789' };

describe('keptDetails', () => {
  it('nothing given, or the same details (language case-insensitive): nothing kept', () => {
    expect(keptDetails(stored, {})).toEqual([]);
    expect(keptDetails(stored, { name: 'Ana Berg', locale: 'DE', timeZone: 'Europe/Berlin', phone: '+4915123456789' })).toEqual([]);
  });

  it('an empty name is "not given" (booking a known address without a name must not look like a change)', () => {
    expect(keptDetails(stored, { name: '' })).toEqual([]);
    expect(keptDetails(stored, { name: '   ' })).toEqual([]);
  });

  it('different details are listed, name → zone → number → language; a null (clear) differs from a stored value', () => {
    expect(keptDetails(stored, { locale: 'fr', timeZone: 'America/New_York', name: 'Ana B.', phone: null })).toEqual([
      { field: 'name', kept: 'Ana Berg', given: 'Ana B.' },
      { field: 'timeZone', kept: 'Europe/Berlin', given: 'America/New_York' },
      { field: 'phone', kept: '+4915123456789', given: null },
      { field: 'locale', kept: 'de', given: 'fr' },
    ]);
  });
});

describe('describeKept', () => {
  it('words the kept details for the staff member', () => {
    expect(describeKept([])).toBeNull();
    expect(describeKept([{ field: 'timeZone', kept: 'Europe/Berlin', given: 'Asia/Tokyo' }])).toBe('kept: existing zone Europe/Berlin — edit the participant to change it');
    expect(describeKept([{ field: 'name', kept: 'Ana Berg', given: 'X' }, { field: 'phone', kept: null, given: '+31612345678' }])).toBe(
      'kept: existing name Ana Berg, existing mobile number (none) — edit the participant to change them',
    );
  });
});
