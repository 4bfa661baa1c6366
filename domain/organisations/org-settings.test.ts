import { describe, expect, it } from 'vitest';
import { changedSettings, checkOrgSettings, senderNameOf, testMessageResult, testMessageTooSoon, testMessageWaitMs, type OrgSettings } from './org-settings';

const good = { name: 'Demo Studio', timeZone: 'Europe/Amsterdam', senderName: 'Demo Reminders', senderEmail: 'reminders@demo.example', replyTo: 'desk@demo.example', locale: 'nl', emailProvider: 'smtp' };

function problem(over: Record<string, unknown>) {
  const r = checkOrgSettings({ ...good, ...over });
  if (r.ok) throw new Error('expected a problem');
  return r;
}

describe('checkOrgSettings: unconfirmedAlertThreshold', () => {
  it.each([
    [undefined, undefined],
    [null, null],
    ['', null],
    ['  ', null],
    [0, 0],
    ['3', 3],
    [10000, 10000],
  ])('%j → %j', (input, value) => {
    const r = checkOrgSettings({ ...good, unconfirmedAlertThreshold: input });
    expect(r.ok && r.value.unconfirmedAlertThreshold).toBe(value);
  });
  it.each([-1, 1.5, 10001, 'three', true])('%j is refused, naming the field', (input) => {
    expect(problem({ unconfirmedAlertThreshold: input })).toMatchObject({
      field: 'unconfirmedAlertThreshold',
      message: 'unconfirmedAlertThreshold: must be a whole number of people from 0 to 10000, or empty for no alert',
    });
  });
});

describe('checkOrgSettings', () => {
  it('accepts a complete form, trimmed, with the locale in canonical form', () => {
    const r = checkOrgSettings({ ...good, name: '  Demo Studio ', locale: 'EN-gb' });
    expect(r).toEqual({ ok: true, value: { ...good, locale: 'en-GB', smsSegmentLimit: null, unconfirmedAlertThreshold: undefined } });
  });
  it('stores an empty sender name and reply-to as none', () => {
    const r = checkOrgSettings({ ...good, senderName: '  ', replyTo: '' });
    expect(r.ok && r.value.senderName).toBe(null);
    expect(r.ok && r.value.replyTo).toBe(null);
    expect(checkOrgSettings({ ...good, senderName: null, replyTo: null }).ok).toBe(true);
  });
  it('names the field in every refusal', () => {
    expect(problem({ name: ' ' })).toMatchObject({ field: 'name', message: expect.stringMatching(/^name: required/) });
    expect(problem({ name: 'x'.repeat(201) })).toMatchObject({ field: 'name', message: 'name: at most 200 characters' });
    expect(problem({ timeZone: 'Mars/Olympus' })).toMatchObject({ field: 'timeZone', message: expect.stringMatching(/^timeZone: “Mars\/Olympus” is not a time zone/) });
    expect(problem({ timeZone: 'Kyiv' }).message).toMatch(/did you mean Europe\/Kyiv/);
    expect(problem({ senderName: 'Evil\r\nBcc: x@y.z' })).toMatchObject({ field: 'senderName', message: 'senderName: must be one line without control characters' });
    // Text-direction controls: the shared rule of typed text (domain/text.ts), naming the character.
    expect(problem({ name: 'Acme \u202estnevE' })).toMatchObject({ field: 'name', message: expect.stringMatching(/^name: must not contain U\+202E RIGHT-TO-LEFT OVERRIDE \(/) });
    expect(problem({ senderName: 'Desk\u2069' })).toMatchObject({ field: 'senderName', message: expect.stringMatching(/^senderName: must not contain U\+2069 POP DIRECTIONAL ISOLATE \(/) });
    expect(checkOrgSettings({ ...good, name: 'מרכז הסדנאות' }).ok).toBe(true);
    // An RFC 2047 encoded word would be decoded by mail programs (even quoted) into another name than the one typed.
    expect(problem({ senderName: '=?utf-8?B?ZXZpbEBldmlsLmV4YW1wbGU=?=' })).toMatchObject({ field: 'senderName', message: expect.stringMatching(/^senderName: must not contain “=\?”/) });
    expect(problem({ name: 'Studio =?utf-8?Q?x?=' })).toMatchObject({ field: 'name' });
    expect(checkOrgSettings({ ...good, name: 'Klei = Kunst? Ja!' }).ok).toBe(true);
    expect(problem({ senderEmail: '' })).toMatchObject({ field: 'senderEmail', message: expect.stringMatching(/^senderEmail: required/) });
    expect(problem({ senderEmail: 'not an address' })).toMatchObject({ field: 'senderEmail', message: expect.stringMatching(/^senderEmail: “not an address” is not an email address/) });
    expect(problem({ replyTo: 'a@b, c@d' })).toMatchObject({ field: 'replyTo', message: expect.stringMatching(/^replyTo: /) });
    expect(problem({ locale: 'english please' })).toMatchObject({ field: 'locale', message: 'locale: “english please” is not a BCP 47 language tag such as en, nl or pt-BR' });
    expect(problem({ locale: '' })).toMatchObject({ field: 'locale' });
    expect(problem({ emailProvider: 'carrier-pigeon' })).toMatchObject({ field: 'emailProvider', message: 'emailProvider: must be one of smtp, http_api' });
    expect(problem({ name: 42 })).toMatchObject({ field: 'name', message: 'name: must be text' });
  });
  it('takes an SMS segment limit of 1–10 as a number or digits, absent or null = keep the current one; anything else (an empty field too) names the field', () => {
    const limit = (v: unknown) => {
      const r = checkOrgSettings({ ...good, smsSegmentLimit: v });
      return r.ok ? r.value.smsSegmentLimit : r;
    };
    expect(limit(1)).toBe(1);
    expect(limit(10)).toBe(10);
    expect(limit(' 4 ')).toBe(4);
    expect(limit(undefined)).toBe(null);
    expect(limit(null)).toBe(null);
    // An emptied field is named, not taken as "keep".
    for (const bad of ['', ' ', 0, 11, 2.5, -1, '3 segments', 'ten', true, [3]]) {
      expect(limit(bad)).toMatchObject({ ok: false, field: 'smsSegmentLimit', message: 'smsSegmentLimit: must be a whole number of segments from 1 to 10' });
    }
  });
  it('refuses a body that is not an object', () => {
    expect(checkOrgSettings(null)).toMatchObject({ ok: false, field: 'body' });
  });
});

describe('changedSettings', () => {
  it('lists only the changed fields with before and after', () => {
    const before = good as OrgSettings;
    expect(changedSettings(before, { ...before, senderName: null, locale: 'de' })).toEqual({ senderName: { from: 'Demo Reminders', to: null }, locale: { from: 'nl', to: 'de' } });
    expect(changedSettings(before, { ...before })).toEqual({});
    expect(changedSettings({ ...before, smsSegmentLimit: 3 }, { ...before, smsSegmentLimit: 1 })).toEqual({ smsSegmentLimit: { from: 3, to: 1 } });
  });
});

describe('senderNameOf', () => {
  it('is the sender name, or the organisation name when none is set', () => {
    expect(senderNameOf({ name: 'Demo', senderName: 'Desk' })).toBe('Desk');
    expect(senderNameOf({ name: 'Demo', senderName: null })).toBe('Demo');
    expect(senderNameOf({ name: 'Demo', senderName: ' ' })).toBe('Demo');
  });
});

describe('test messages', () => {
  it('allows one per 10 seconds', () => {
    const last = new Date('2026-01-01T10:00:00Z');
    expect(testMessageWaitMs(null, last)).toBe(0);
    expect(testMessageWaitMs(last, new Date('2026-01-01T10:00:04Z'))).toBe(6000);
    expect(testMessageWaitMs(last, new Date('2026-01-01T10:00:10Z'))).toBe(0);
    expect(testMessageTooSoon(5400)).toMatch(/try again in 6 s\.$/);
  });
  it('reads the provider answer verbatim', () => {
    expect(testMessageResult({ class: 'accepted', providerId: '<x@y>', response: '250 2.0.0 Ok: queued as ABC' })).toEqual({ status: 'sent', answer: '250 2.0.0 Ok: queued as ABC' });
    expect(testMessageResult({ class: 'rejected', kind: 'invalid_recipient', code: '550', message: '550 5.1.1 No such user', response: '550 5.1.1 No such user' })).toEqual({ status: 'failed', answer: '550 5.1.1 No such user' });
    expect(testMessageResult({ class: 'transient', code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:1' })).toEqual({ status: 'failed', answer: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1' });
    expect(testMessageResult({ class: 'ambiguous', code: 'ETIMEDOUT', message: 'timeout after DATA' }).status).toBe('unknown');
  });
});
