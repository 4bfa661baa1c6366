import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { currentZoneName, isValidZone, suggestZone, zoneNames } from './zones';

describe('zoneNames (offered in zone pickers)', () => {
  it('lists the current tz database names, which this runtime\'s ICU list lacks', () => {
    for (const name of ['Europe/Kyiv', 'Asia/Kolkata', 'America/Nuuk', 'Asia/Yangon', 'UTC', 'Europe/Amsterdam']) {
      expect(zoneNames).toContain(name);
    }
    // The reason for a maintained list: Node 20's ICU offers only the old names.
    const icu = Intl.supportedValuesOf('timeZone');
    expect(icu).not.toContain('Europe/Kyiv');
    expect(icu).toContain('Europe/Kiev');
  });

  it('does not offer deprecated aliases', () => {
    for (const name of ['Europe/Kiev', 'Asia/Calcutta', 'America/Godthab']) expect(zoneNames).not.toContain(name);
  });

  it('every offered name works with luxon on this runtime', () => {
    expect(zoneNames.filter((z) => !IANAZone.isValidZone(z))).toEqual([]);
    expect(zoneNames.length).toBeGreaterThan(400);
  });
});

describe('isValidZone (accepted)', () => {
  it.each([
    ['Europe/Kyiv', true],
    ['Europe/Kiev', true],
    ['Asia/Kolkata', true],
    ['Asia/Calcutta', true],
    ['America/Nuuk', true],
    ['America/Godthab', true],
    ['UTC', true],
    ['Kyiv', false],
    ['Mars/Olympus', false],
    ['', false],
  ])('%s → %s', (zone, expected) => {
    expect(isValidZone(zone)).toBe(expected);
  });
});

describe('currentZoneName', () => {
  it.each([
    ['Europe/Kiev', 'Europe/Kyiv'],
    ['Asia/Calcutta', 'Asia/Kolkata'],
    ['America/Godthab', 'America/Nuuk'],
    ['europe/kyiv', 'Europe/Kyiv'],
    ['Europe/Berlin', 'Europe/Berlin'],
    ['America/Creston', 'America/Creston'],
    ['Nowhere/Land', null],
  ])('%s → %s', (zone, expected) => {
    expect(currentZoneName(zone)).toBe(expected);
  });
});

describe('suggestZone (a typed city or old name)', () => {
  it.each([
    ['Kyiv', 'Europe/Kyiv'],
    ['kyiv', 'Europe/Kyiv'],
    ['Kiev', 'Europe/Kyiv'],
    ['Europe/Kiev', 'Europe/Kyiv'],
    ['Kolkata', 'Asia/Kolkata'],
    ['Calcutta', 'Asia/Kolkata'],
    ['Mumbai', 'Asia/Kolkata'],
    ['Nuuk', 'America/Nuuk'],
    ['Godthab', 'America/Nuuk'],
    ['Tokyo', 'Asia/Tokyo'],
    ['new york', 'America/New_York'],
    ['Sao Paulo', 'America/Sao_Paulo'],
    ['São Paulo', 'America/Sao_Paulo'],
    ['Munich', 'Europe/Berlin'],
    ['Nowhere', null],
    ['', null],
  ])('%j → %s', (input, expected) => {
    expect(suggestZone(input)).toBe(expected);
  });
});

describe('only tz database names are accepted (PostgreSQL must understand every stored zone)', () => {
  it.each(['AET', 'BET', 'IST', 'BST', 'CST', 'US/Pacific-New', 'Canada/East-Saskatchewan', 'europe/berlin', 'EUROPE/BERLIN', 'Foo/AET'])('%s is refused', (z) => {
    expect(isValidZone(z)).toBe(false);
  });
  it.each(['Europe/Berlin', 'Europe/Kyiv', 'Europe/Kiev', 'US/Pacific', 'Asia/Calcutta', 'UTC', 'GMT', 'Etc/GMT+5', 'Etc/UTC'])('%s is accepted', (z) => {
    expect(isValidZone(z)).toBe(true);
  });
  it('a wrongly cased name suggests its right spelling', () => {
    expect(suggestZone('europe/berlin')).toBe('Europe/Berlin');
  });
});
