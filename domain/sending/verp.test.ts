import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bounceDomainOf, parseVerpAddress, verpAddress } from './verp';

/** RFC 5321 §4.5.3.1.1: the longest local part a server must accept. */
const MAX_LOCAL_PART = 64;

const key = 'test-verp-key-0123456789abcdef';
const id = '3F2A6C1E-0B4D-4E8A-9C2B-7D1E5F6A9C1E';
const lower = id.toLowerCase();

describe('verpAddress', () => {
  it('is bounces+<32 hex>-<10 hex tag>@domain, all lowercase, and parses back to the delivery', () => {
    const a = verpAddress(id, 'Demo.Punctual.Local', key);
    const hex = lower.replace(/-/g, '');
    const tag = createHmac('sha256', key).update(hex).digest('hex').slice(0, 10);
    expect(a).toBe(`bounces+${hex}-${tag}@demo.punctual.local`);
    expect(a).toBe(a.toLowerCase());
    expect(parseVerpAddress(a, key)).toBe(lower);
  });

  it('keeps the local part within RFC 5321 §4.5.3.1.1 (64 characters)', () => {
    const local = verpAddress(id, 'example.test', key).split('@')[0];
    expect(local.length).toBe(51);
    expect(local.length).toBeLessThanOrEqual(MAX_LOCAL_PART);
  });

  it('is deterministic per key, and differs between keys and deliveries', () => {
    expect(verpAddress(id, 'example.test', key)).toBe(verpAddress(lower, 'example.test', key));
    expect(verpAddress(id, 'example.test', key)).not.toBe(verpAddress(id, 'example.test', 'another-key'));
    expect(verpAddress(id, 'example.test', key)).not.toBe(verpAddress('3f2a6c1e-0b4d-4e8a-9c2b-7d1e5f6a9c1f', 'example.test', key));
  });

  it.each([
    ['not a uuid', 'delivery-1', 'example.test', key, /uuid/],
    ['empty key', id, 'example.test', '', /key/],
    ['empty domain', id, '', key, /domain/],
    ['domain with an @', id, 'a@b.test', key, /domain/],
    ['domain with a space', id, 'ex ample.test', key, /domain/],
  ])('refuses %s', (_n, i, d, k, msg) => {
    expect(() => verpAddress(i, d, k)).toThrow(msg);
  });
});

describe('parseVerpAddress', () => {
  const good = verpAddress(id, 'example.test', key);
  const [local, domain] = good.split('@');
  const tag = local.slice(-10);
  const flip = (c: string) => (c === '0' ? '1' : '0');

  it.each([
    ['angle brackets (Return-Path form)', `<${good}>`],
    ['surrounding space', `  ${good} `],
    ['case folded by an MTA', good.toUpperCase()],
    ['another domain (the tag covers the delivery, not the domain)', `${local}@bounces.other.test`],
  ])('accepts %s', (_n, a) => {
    expect(parseVerpAddress(a, key)).toBe(lower);
  });

  it.each([
    ['a forged tag', `${local.slice(0, -10)}${'0'.repeat(10)}@${domain}`],
    ['one tag digit changed', `${local.slice(0, -1)}${flip(tag.at(-1)!)}@${domain}`],
    ['one delivery digit changed', `bounces+${flip(local[8])}${local.slice(9)}@${domain}`],
    ['a short tag', `${local.slice(0, -1)}@${domain}`],
    ['a long tag', `${local}0@${domain}`],
    ['another prefix', `${local.replace(/^bounces/, 'bounce')}@${domain}`],
    ['no domain', local],
    ['two @', `${local}@${domain}@x.test`],
    ['the sender address', 'reminders@example.test'],
    ['empty', ''],
    ['non-hex', `bounces+${'z'.repeat(32)}-${tag}@${domain}`],
    ['very long', `${good}${'x'.repeat(400)}`],
  ])('refuses %s', (_n, a) => {
    expect(parseVerpAddress(a, key)).toBeNull();
  });

  it('refuses a good address under another key, and any address with an empty key', () => {
    expect(parseVerpAddress(good, 'another-key')).toBeNull();
    expect(parseVerpAddress(good, '')).toBeNull();
  });

  it('never throws on non-strings', () => {
    expect(parseVerpAddress(undefined as unknown as string, key)).toBeNull();
    expect(parseVerpAddress(42 as unknown as string, key)).toBeNull();
  });
});

describe('bounceDomainOf', () => {
  it.each([
    ['the tenant bounce domain when set', { bounceDomain: 'Bounces.Example.test', senderEmail: 'hi@acme.test' }, 'bounces.example.test'],
    ['the sender domain when not set', { bounceDomain: null, senderEmail: 'Reminders@Demo.Punctual.Local' }, 'demo.punctual.local'],
    ['the sender domain when blank', { bounceDomain: '  ', senderEmail: 'hi@acme.test' }, 'acme.test'],
    ['the last @ of a quoted local part', { bounceDomain: null, senderEmail: '"a@b"@acme.test' }, 'acme.test'],
  ])('is %s', (_n, t, want) => {
    expect(bounceDomainOf(t)).toBe(want);
  });

  it('throws for a sender address without a domain', () => {
    expect(() => bounceDomainOf({ bounceDomain: null, senderEmail: 'nobody' })).toThrow(/no domain/);
  });
});
