import { describe, expect, it } from 'vitest';
import { bookingIdOfInviteUid, inviteSequenceOf, inviteUidOf, messageInviteSequence, nextInviteSequence } from './invite-sequence';

describe('inviteSequenceOf: the SEQUENCE of a booking now', () => {
  it.each([
    [0, 0],
    [1, 1],
    [41, 41],
    [-1, 0], // never written by Punctual: read as the first
    [1.5, 0],
    [Number.NaN, 0],
  ])('stored %s → %s', (stored, expected) => {
    expect(inviteSequenceOf({ inviteSequence: stored })).toBe(expected);
  });
  it('the next is one higher, whatever was stored', () => {
    expect(nextInviteSequence({ inviteSequence: 0 })).toBe(1);
    expect(nextInviteSequence({ inviteSequence: 7 })).toBe(8);
    expect(nextInviteSequence({ inviteSequence: -3 })).toBe(1);
  });
  it('timing, details and cancellation share one counter: every interleaving is strictly increasing', () => {
    for (const order of [
      ['timing', 'details', 'cancel'],
      ['details', 'timing', 'cancel'],
      ['details', 'details', 'timing', 'cancel'],
    ]) {
      let b = { inviteSequence: 0 };
      const seen = [inviteSequenceOf(b)];
      for (const _change of order) {
        b = { inviteSequence: nextInviteSequence(b) };
        seen.push(inviteSequenceOf(b));
      }
      expect(seen).toEqual(seen.map((_, i) => i));
    }
  });
});

describe('messageInviteSequence: the value fixed at the claim wins', () => {
  it.each([
    [1, 3, 1],
    [0, 3, 0],
    [null, 3, 3], // claimed before the value was recorded: the booking's now
    [undefined, 2, 2],
    [-1, 2, 2],
  ])('claimed %s, booking %s → %s', (claimed, booking, expected) => {
    expect(messageInviteSequence(claimed as number | null | undefined, { inviteSequence: booking })).toBe(expected);
  });
});

describe('the UID of a booking', () => {
  const id = '0b6f3c52-5d0e-4a55-9a1e-2f1f8c7d9e01';
  it('is booking-<id>@punctual and reads back', () => {
    expect(inviteUidOf(id)).toBe(`booking-${id}@punctual`);
    expect(bookingIdOfInviteUid(inviteUidOf(id))).toBe(id);
  });
  it.each(['booking-x@punctual', `booking-${id}@punctual.local`, `other-${id}@punctual`, ''])('another UID (%s) names no booking', (uid) => {
    expect(bookingIdOfInviteUid(uid)).toBeNull();
  });
});
