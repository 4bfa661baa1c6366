import { CompactSign } from 'jose';
import { describe, expect, it } from 'vitest';
import { actionLinkExpiry, decideAnswer, type ActionLinkSubject } from '@/domain/scheduling/attendance';
import { planReminders } from '@/domain/scheduling/planning';
import { actionLinkKey, actionLinkSecrets, actionLinksFor, signActionToken, verifyActionToken } from '@/server/sending/action-link';
import { signUnsubscribeToken, unsubscribeSecrets } from '@/server/sending/unsubscribe-link';

const SESSION = 'test-secret-for-action-links-0123456789';
const [secret] = actionLinkSecrets({ BETTER_AUTH_SECRET: SESSION });
const subject: ActionLinkSubject = {
  tenantId: '0b6f3c1e-8a8e-4a36-9a57-3f1d9d0f4a11',
  bookingId: 'c3a1f0de-2b7e-4f52-8d1c-6e0f1b2a3c44',
  answer: 'declined',
  expiresAt: new Date('2027-08-04T18:00:00Z'),
};
const now = new Date('2027-08-03T12:00:00Z');

describe('action link tokens', () => {
  it('round trip for both answers; deterministic; expiry = the event end rounded up to a second', async () => {
    const token = await signActionToken(subject, secret);
    expect(await verifyActionToken(token, secret, now)).toEqual(subject);
    expect(await signActionToken(subject, secret)).toBe(token);
    const confirm = { ...subject, answer: 'confirmed' as const };
    expect(await verifyActionToken(await signActionToken(confirm, secret), [secret], now)).toEqual(confirm);
    expect(actionLinkExpiry(new Date('2027-08-04T18:00:00.001Z')).toISOString()).toBe('2027-08-04T18:00:01.000Z');
    const links = await actionLinksFor('https://p.example/', { tenantId: subject.tenantId, bookingId: subject.bookingId, eventEndsAt: subject.expiresAt }, secret);
    expect(links.confirmUrl).toMatch(/^https:\/\/p\.example\/a\/[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(links.confirmUrl).not.toBe(links.declineUrl);
    expect(await actionLinksFor('https://p.example', { tenantId: subject.tenantId, bookingId: subject.bookingId, eventEndsAt: subject.expiresAt }, secret)).toEqual(links);
  });

  it('any one byte changed, in header, payload or signature → null', async () => {
    const token = await signActionToken(subject, secret);
    const parts = token.split('.').map((p) => Buffer.from(p, 'base64url'));
    for (let part = 0; part < 3; part++) {
      for (let i = 0; i < parts[part].length; i++) {
        const copy = parts.map((p) => Buffer.from(p));
        copy[part][i] ^= 0x01;
        expect(await verifyActionToken(copy.map((p) => p.toString('base64url')).join('.'), secret, now), `part ${part} byte ${i}`).toBeNull();
      }
    }
  });

  it('non-canonical spellings of the same bytes (unused low bits, padding) → null', async () => {
    const token = await signActionToken(subject, secret);
    const [h, p, s] = token.split('.');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(s[s.length - 1]);
    const sibling = s.slice(0, -1) + alphabet[last ^ 1];
    expect(Buffer.from(sibling, 'base64url')).toEqual(Buffer.from(s, 'base64url'));
    expect(await verifyActionToken(`${h}.${p}.${sibling}`, secret, now)).toBeNull();
    expect(await verifyActionToken(`${h}.${p}.${s}=`, secret, now)).toBeNull();
    expect(await verifyActionToken(`${h}.${p}.${s}`, secret, now)).toEqual(subject);
  });

  it('expired at and after the expiry; valid just before', async () => {
    const token = await signActionToken(subject, secret);
    expect(await verifyActionToken(token, secret, new Date(subject.expiresAt.getTime() - 1))).toEqual(subject);
    expect(await verifyActionToken(token, secret, subject.expiresAt)).toEqual({ error: 'expired', expiredAt: subject.expiresAt });
  });

  it('purpose binding: an unsubscribe token (same payload length) or the unsubscribe key never verifies here', async () => {
    const [unsubKey] = unsubscribeSecrets({ BETTER_AUTH_SECRET: SESSION });
    expect(unsubKey).not.toBe(secret);
    const unsub = await signUnsubscribeToken({ tenantId: subject.tenantId, contactId: subject.bookingId, category: 'reminders', expiresAt: subject.expiresAt }, unsubKey);
    expect(await verifyActionToken(unsub, secret, now)).toBeNull();
    expect(await verifyActionToken(await signActionToken(subject, unsubKey), secret, now)).toBeNull();
    expect(await verifyActionToken(await signActionToken(subject, SESSION), secret, now)).toBeNull();
  });

  it('rotation: a token signed with the previous secret verifies while PUNCTUAL_PREVIOUS_AUTH_SECRET names it, not after', async () => {
    const old = await signActionToken(subject, actionLinkKey('the-old-secret-0123456789'));
    const during = actionLinkSecrets({ BETTER_AUTH_SECRET: SESSION, PUNCTUAL_PREVIOUS_AUTH_SECRET: 'the-old-secret-0123456789' });
    expect(during[0]).toBe(secret);
    expect(await verifyActionToken(old, during, now)).toEqual(subject);
    expect(await verifyActionToken(old, actionLinkSecrets({ BETTER_AUTH_SECRET: SESSION }), now)).toBeNull();
    expect(() => actionLinkSecrets({})).toThrow(/BETTER_AUTH_SECRET/);
  });

  it('alg none, another algorithm, a wrong payload length or answer byte → null', async () => {
    const key = new TextEncoder().encode(secret);
    const good = Buffer.from((await signActionToken(subject, secret)).split('.')[1], 'base64url');
    expect(await verifyActionToken(await new CompactSign(good).setProtectedHeader({ alg: 'HS512' }).sign(key), secret, now)).toBeNull();
    expect(await verifyActionToken(await new CompactSign(good.subarray(0, 36)).setProtectedHeader({ alg: 'HS256' }).sign(key), secret, now)).toBeNull();
    const badAnswer = Buffer.from(good);
    badAnswer[32] = 7;
    expect(await verifyActionToken(await new CompactSign(badAnswer).setProtectedHeader({ alg: 'HS256' }).sign(key), secret, now)).toBeNull();
    const [h, p] = (await signActionToken(subject, secret)).split('.');
    expect(await verifyActionToken(`${h}.${p}.`, secret, now)).toBeNull();
    expect(await verifyActionToken('garbage', secret, now)).toBeNull();
  });
});

describe('decideAnswer', () => {
  const base = { attendance: 'unconfirmed' as const, bookingStatus: 'confirmed' as const, eventStatus: 'scheduled' as const, eventEndsAt: new Date('2027-08-04T18:00:00Z'), now };
  it.each([
    ['confirmed', base, { kind: 'apply', state: 'confirmed', cancelsBooking: false }],
    ['confirmed', { ...base, attendance: 'confirmed' }, { kind: 'already', state: 'confirmed' }],
    ['declined', base, { kind: 'apply', state: 'declined', cancelsBooking: true }],
    ['declined', { ...base, attendance: 'declined', bookingStatus: 'cancelled' }, { kind: 'already', state: 'declined' }],
    ['confirmed', { ...base, attendance: 'declined', bookingStatus: 'cancelled' }, { kind: 'refused', reason: 'booking_cancelled' }],
    ['tentative', base, { kind: 'note_tentative' }],
    ['confirmed', { ...base, eventStatus: 'cancelled' }, { kind: 'refused', reason: 'event_cancelled' }],
    ['confirmed', { ...base, now: base.eventEndsAt }, { kind: 'refused', reason: 'event_over' }],
  ] as const)('%s on %j', (answer, state, expected) => {
    expect(decideAnswer({ ...state, answer })).toEqual(expected);
  });
});

describe('planning understands "only bookings not yet confirmed"', () => {
  const event = { id: 'e1', startsAt: new Date('2027-06-15T08:00:00Z'), endsAt: new Date('2027-06-15T09:00:00Z'), timeZone: 'Europe/Amsterdam', status: 'scheduled' as const, roomUrl: null, roomOpenLeadMinutes: 15 };
  const rule = { id: 'r1', anchor: 'start' as const, offset: '-PT48H', audience: ['attendee' as const], channel: 'email' as const, lateSendWindowSeconds: 3600, active: true, onlyUnconfirmed: true };
  const bookings = [
    { id: 'b1', role: 'attendee' as const, status: 'confirmed' as const, attendance: 'confirmed' },
    { id: 'b2', role: 'attendee' as const, status: 'confirmed' as const, attendance: 'unconfirmed' },
  ];
  it('a confirmed booking gets nothing from such a rule; an unconfirmed one does; a plain rule reminds both', () => {
    const now = new Date('2027-06-01T00:00:00Z');
    expect(planReminders({ event, bookings, rules: [rule], now }).map((p) => p.bookingId)).toEqual(['b2']);
    expect(planReminders({ event, bookings, rules: [{ ...rule, onlyUnconfirmed: false }], now }).map((p) => p.bookingId)).toEqual(['b1', 'b2']);
  });
});
