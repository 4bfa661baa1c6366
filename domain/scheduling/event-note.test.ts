import { describe, expect, it } from 'vitest';
import { checkEventNote, chooseEventNote, describeNote, EVENT_NOTE_MAX, noteKey } from './event-note';

const languages = ['en', 'nl', 'de', 'fr', 'es', 'it', 'pt', 'he'];
const note = { '': 'Bring an apron', nl: 'Neem een schort mee', de: 'Bitte eine Schürze mitbringen' };

describe('chooseEventNote', () => {
  it.each([
    // message locale, organisation default → note
    ['nl', 'en', 'Neem een schort mee'],
    ['nl-BE', 'en', 'Neem een schort mee'],
    ['en', 'en', 'Bring an apron'],
    // The note for all languages before the organisation's language: no German note in an English message.
    ['en-GB', 'de', 'Bring an apron'],
    ['fr', 'de-CH', 'Bring an apron'],
    ['fr', null, 'Bring an apron'],
    ['he', 'pt', 'Bring an apron'],
  ] as const)('%s with organisation %j → %s', (locale, organisation, expected) => {
    expect(chooseEventNote(note, locale, organisation)).toBe(expected);
  });

  it('is the empty string when there is no note for the reader, never null or undefined', () => {
    expect(chooseEventNote(null, 'nl', 'en')).toBe('');
    expect(chooseEventNote({}, 'nl', 'en')).toBe('');
    expect(chooseEventNote({ de: 'Schürze' }, 'nl', 'en')).toBe('');
    expect(chooseEventNote({ nl: '   ', '': 'All' }, 'nl', null)).toBe('All');
    // No note for all languages: the organisation's language rather than nothing.
    expect(chooseEventNote({ nl: 'Schort', de: 'Schürze' }, 'fr', 'de-CH')).toBe('Schürze');
  });
});

describe('checkEventNote', () => {
  it('normalises: trims, drops blank values, "" first then the languages in order', () => {
    expect(checkEventNote({ nl: ' Schort \r\n mee ', de: ' ', '': 'Apron' }, languages)).toEqual({ ok: true, note: { '': 'Apron', nl: 'Schort \n mee' } });
    expect(checkEventNote(null, languages)).toEqual({ ok: true, note: {} });
    expect(checkEventNote(undefined, languages)).toEqual({ ok: true, note: {} });
  });

  it.each([
    ['a string', 'Bring an apron', 'must be an object'],
    ['an array', ['x'], 'must be an object'],
    ['an unknown language', { xx: 'hi' }, '"xx" is not a language'],
    ['a regional tag', { 'nl-BE': 'hi' }, '"nl-BE" is not a language'],
    ['a number', { en: 5 }, 'the note in en must be text'],
    ['too long', { nl: 'x'.repeat(EVENT_NOTE_MAX + 1) }, `the note in nl is ${EVENT_NOTE_MAX + 1} characters long; at most ${EVENT_NOTE_MAX}`],
    ['a bidi control', { '': 'a\u202Eb' }, 'the note for all languages ("") must not contain U+202E'],
  ])('refuses %s', (_name, value, message) => {
    const r = checkEventNote(value, languages);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(message);
  });

  it('takes exactly the longest note', () => {
    expect(checkEventNote({ en: 'x'.repeat(EVENT_NOTE_MAX) }, languages).ok).toBe(true);
  });
});

describe('noteKey and describeNote', () => {
  it('compares notes whatever their key order, and ignores blank values', () => {
    expect(noteKey({ nl: 'a', '': 'b' })).toBe(noteKey({ '': 'b', nl: 'a', de: ' ' }));
    expect(noteKey({})).toBe('');
    expect(noteKey(null)).toBe('');
  });
  it('reads as one line for staff', () => {
    expect(describeNote({ '': 'Bring an apron', nl: 'Schort' })).toBe('all languages: Bring an apron · nl: Schort');
    expect(describeNote(null)).toBe('');
  });
});
