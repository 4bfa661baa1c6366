import { describe, expect, it } from 'vitest';
import { softBouncedMessages, softBouncedMessagesInWindow, softBounceMessageLimitReached } from './soft-bounces';

const at = (iso: string) => new Date(iso);

describe('softBounceMessageLimitReached (3 soft-bounced messages within 7 days)', () => {
  it('three reports of ONE message count once', () => {
    const one = ['2027-05-01T10:00:00Z', '2027-05-01T14:00:00Z', '2027-05-02T10:00:00Z'].map((t) => ({ deliveryId: 'a', at: at(t) }));
    expect(softBounceMessageLimitReached(one)).toBe(false);
    expect(softBouncedMessagesInWindow(one)).toBe(1);
    expect(softBouncedMessages(one)).toBe(1);
  });

  it('three messages on 05-01, 05-03 and 05-06 → reached; 05-01, 05-03 and 05-20 → not', () => {
    expect(softBounceMessageLimitReached([{ deliveryId: 'a', at: at('2027-05-01T10:00:00Z') }, { deliveryId: 'b', at: at('2027-05-03T10:00:00Z') }, { deliveryId: 'c', at: at('2027-05-06T10:00:00Z') }])).toBe(true);
    expect(softBounceMessageLimitReached([{ deliveryId: 'a', at: at('2027-05-01T10:00:00Z') }, { deliveryId: 'b', at: at('2027-05-03T10:00:00Z') }, { deliveryId: 'c', at: at('2027-05-20T10:00:00Z') }])).toBe(false);
  });

  it('the window is half-open: exactly 7 days apart is not within 7 days, one millisecond less is', () => {
    const base = [{ deliveryId: 'a', at: at('2027-05-01T00:00:00Z') }, { deliveryId: 'b', at: at('2027-05-04T00:00:00Z') }];
    expect(softBounceMessageLimitReached([...base, { deliveryId: 'c', at: at('2027-05-08T00:00:00Z') }])).toBe(false);
    expect(softBounceMessageLimitReached([...base, { deliveryId: 'c', at: at('2027-05-07T23:59:59.999Z') }])).toBe(true);
  });

  it('a message counts in any window one of its reports falls in (a later report of an early message)', () => {
    // a bounced on 05-01 and again on 05-10; b on 05-09, c on 05-11: a, b and c within [05-09, 05-16).
    const bounces = [
      { deliveryId: 'a', at: at('2027-05-01T10:00:00Z') },
      { deliveryId: 'b', at: at('2027-05-09T10:00:00Z') },
      { deliveryId: 'a', at: at('2027-05-10T10:00:00Z') },
      { deliveryId: 'c', at: at('2027-05-11T10:00:00Z') },
    ];
    expect(softBounceMessageLimitReached(bounces)).toBe(true);
    // Any order.
    expect(softBounceMessageLimitReached([...bounces].reverse())).toBe(true);
  });

  it('limit 0 is always reached; no bounces never reach a positive limit', () => {
    expect(softBounceMessageLimitReached([], 0)).toBe(true);
    expect(softBounceMessageLimitReached([])).toBe(false);
  });
});
