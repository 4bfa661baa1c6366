import { describe, expect, it } from 'vitest';
import {
  checkNewPassword,
  isIanaZone,
  lifetimeText,
  linkValidityLine,
  setPasswordUrl,
  signInLinkExpiry,
  validateTenantCreate,
  type TenantCreateFlags,
} from './tenant-setup';
import { formatStaffTime } from '@/domain/staff-time';

const good: TenantCreateFlags = {
  slug: 'acme',
  name: 'Acme Events',
  'time-zone': 'Europe/Dublin',
  sender: 'reminders@acme.example',
  'admin-email': 'ops@acme.example',
};

describe('validateTenantCreate', () => {
  it('the issue’s command is valid; the admin is named after the address and the sender name is the organisation’s', () => {
    expect(validateTenantCreate(good)).toEqual({
      ok: true,
      value: { slug: 'acme', name: 'Acme Events', timeZone: 'Europe/Dublin', senderEmail: 'reminders@acme.example', senderName: null, adminEmail: 'ops@acme.example', adminName: 'ops' },
    });
  });

  it('optional names, trimmed; the admin address lower-cased', () => {
    const r = validateTenantCreate({ ...good, 'admin-email': ' Ops@ACME.example ', 'admin-name': ' Olga Ops ', 'sender-name': 'Acme reminders' });
    expect(r).toMatchObject({ ok: true, value: { adminEmail: 'ops@acme.example', adminName: 'Olga Ops', senderName: 'Acme reminders' } });
  });

  it.each([
    [{ slug: undefined }, '--slug'],
    [{ slug: 'Acme' }, '--slug'],
    [{ slug: '-acme' }, '--slug'],
    [{ slug: 'acme events' }, '--slug'],
    [{ slug: 'a'.repeat(64) }, '--slug'],
    [{ name: '   ' }, '--name'],
    [{ 'time-zone': undefined }, '--time-zone'],
    [{ 'time-zone': 'Mars/Olympus_Mons' }, '--time-zone'],
    [{ 'time-zone': '+01:00' }, '--time-zone'],
    [{ 'time-zone': 'UTC+1' }, '--time-zone'],
    // An ICU abbreviation luxon accepts and PostgreSQL reads as UTC+1 all year (new-user trial finding).
    [{ 'time-zone': 'BST' }, '--time-zone'],
    // A right-to-left override makes a name display reversed in a From line (adversary finding).
    [{ name: 'a\u202eb' }, '--name'],
    [{ 'sender-name': 'Desk\u2066x' }, '--sender-name'],
    [{ sender: 'reminders' }, '--sender'],
    [{ sender: undefined }, '--sender'],
    [{ 'sender-name': ' ' }, '--sender-name'],
    [{ 'admin-email': 'ops@' }, '--admin-email'],
    [{ 'admin-email': undefined }, '--admin-email'],
    [{ 'admin-name': '' }, '--admin-name'],
    [{ 'admin-name': 'Olga \u202eOps' }, '--admin-name'],
  ] as [Partial<TenantCreateFlags>, string][])('%j is refused naming %s, in one line', (change, flag) => {
    const r = validateTenantCreate({ ...good, ...change });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.flag).toBe(flag);
    expect(r.message.startsWith(`${flag}: `)).toBe(true);
    expect(r.message).not.toContain('\n');
  });

  it('names the first bad flag in usage order, and never echoes control characters', () => {
    const r = validateTenantCreate({ ...good, slug: 'BAD', sender: 'nope' });
    expect(r).toMatchObject({ ok: false, flag: '--slug' });
    const c = validateTenantCreate({ ...good, 'time-zone': 'Europe/\nDublin\u001b[31m' });
    expect(c).toMatchObject({ ok: false, flag: '--time-zone' });
    if (!c.ok) expect(c.message).not.toMatch(/[\n\u001b]/);
  });
});

describe('isIanaZone', () => {
  it('accepts IANA names and refuses offsets and abbreviations', () => {
    expect(isIanaZone('Europe/Dublin')).toBe(true);
    expect(isIanaZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isIanaZone('UTC')).toBe(true);
    expect(isIanaZone('Europe/Dublinn')).toBe(false);
    expect(isIanaZone('UTC+01:00')).toBe(false);
    expect(isIanaZone('')).toBe(false);
  });
});

describe('link lifetimes', () => {
  const now = new Date('2026-12-01T08:00:00Z');
  it('a printed link works 24 hours, a mailed reset link 1 hour', () => {
    expect(signInLinkExpiry(now).toISOString()).toBe('2026-12-02T08:00:00.000Z');
  });

  it('says until when in the organisation’s zone, never as a raw instant', () => {
    expect(linkValidityLine(signInLinkExpiry(now), now, 'Europe/Dublin')).toBe('valid until Wed 2 Dec 2026, 08:00 GMT (24 hours); it works once');
    // Summer time: the wall clock moves on, the zone's short name comes from domain/staff-time.ts.
    expect(linkValidityLine(signInLinkExpiry(new Date('2027-06-01T08:00:00Z')), new Date('2027-06-01T08:00:00Z'), 'Europe/Dublin')).toBe(
      `valid until ${formatStaffTime('2027-06-02T08:00:00Z', 'Europe/Dublin')} (24 hours); it works once`,
    );
    expect(formatStaffTime('2027-06-02T08:00:00Z', 'Europe/Dublin')).toMatch(/^Wed 2 Jun 2027, 09:00 /);
    expect(lifetimeText(90 * 60_000)).toBe('90 minutes');
    expect(lifetimeText(3600_000)).toBe('1 hour');
  });
});

describe('setPasswordUrl', () => {
  it('puts the token in the query of /set-password on the public URL', () => {
    expect(setPasswordUrl('https://punctual.example.org/', 'abc_DEF-123')).toBe('https://punctual.example.org/set-password?token=abc_DEF-123');
    expect(setPasswordUrl('http://127.0.0.1:3000', 'a+b/c')).toBe('http://127.0.0.1:3000/set-password?token=a%2Bb%2Fc');
  });
});

describe('checkNewPassword', () => {
  it('at least 8 characters, the same twice', () => {
    expect(checkNewPassword('short', 'short')).toMatch(/at least 8/);
    expect(checkNewPassword('long enough', 'long enougH')).toMatch(/not the same/);
    expect(checkNewPassword('x'.repeat(129), 'x'.repeat(129))).toMatch(/at most 128/);
    expect(checkNewPassword('long enough', 'long enough')).toBeNull();
  });
});
