import { describe, expect, it } from 'vitest';
import { declaredTenant, isAccountMail, isRecipient } from './caught-identity';

const id = '0b6f7d2e-3c1a-4d5e-9f00-1234567890ab';

describe('declaredTenant', () => {
  it.each([
    ['one UUID', [id], id],
    ['a bare string', id, id],
    ['upper case, padded', [` ${id.toUpperCase()} `], id],
    ['absent', [], null],
    ['undefined', undefined, null],
    ['empty', [''], null],
    ['not a UUID', ['acme'], null],
    ['two values, even equal ones', [id, id], null],
  ])('%s', (_name, values, expected) => {
    expect(declaredTenant(values as string[])).toBe(expected);
  });
});

describe('isAccountMail', () => {
  it('is exactly the account category', () => {
    expect(isAccountMail('account')).toBe(true);
    expect(isAccountMail([' Account '])).toBe(true);
    expect(isAccountMail(['reminder'])).toBe(false);
    expect(isAccountMail(undefined)).toBe(false);
    expect(isAccountMail('accounts')).toBe(false);
  });
});

describe('isRecipient', () => {
  it('compares addresses without case; no viewer is nobody', () => {
    expect(isRecipient('Admin@Demo.test', ['admin@demo.test'])).toBe(true);
    expect(isRecipient('admin@demo.test', ['ADMIN@DEMO.TEST', 'x@y.test'])).toBe(true);
    expect(isRecipient('viewer@demo.test', ['admin@demo.test'])).toBe(false);
    expect(isRecipient(null, ['admin@demo.test'])).toBe(false);
    expect(isRecipient('', [''])).toBe(false);
  });
});
