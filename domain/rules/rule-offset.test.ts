import { describe, expect, it } from 'vitest';
import { describeRule } from './describe-rule';
import { parseOffset } from '@/domain/scheduling/due-instant';
import { MAX_OFFSET_AMOUNT, offsetToParts, partsToOffset, type OffsetParts } from './rule-offset';

describe('rule offset editor: parts → ISO-8601', () => {
  it.each([
    [{ amount: 1, unit: 'days', direction: 'before' }, '-P1D'],
    [{ amount: 2, unit: 'hours', direction: 'before' }, '-PT2H'],
    [{ amount: 30, unit: 'minutes', direction: 'before' }, '-PT30M'],
    [{ amount: 15, unit: 'minutes', direction: 'after' }, 'PT15M'],
    [{ amount: 1, unit: 'weeks', direction: 'before' }, '-P1W'],
    [{ amount: 3, unit: 'days', direction: 'after' }, 'P3D'],
    [{ amount: 24, unit: 'hours', direction: 'before' }, '-PT24H'],
    [{ amount: 5, unit: 'hours', direction: 'at' }, 'PT0S'],
    [{ amount: 0, unit: 'days', direction: 'before' }, 'PT0S'],
  ] as const)('%j → %s', (parts, offset) => {
    expect(partsToOffset(parts)).toBe(offset);
  });

  it.each([
    [{ amount: -1, unit: 'days', direction: 'before' }, 'amount'],
    [{ amount: 1.5, unit: 'hours', direction: 'before' }, 'amount'],
    [{ amount: Number.NaN, unit: 'hours', direction: 'before' }, 'amount'],
    [{ amount: 366 * 24 * 60 + 1, unit: 'minutes', direction: 'after' }, 'amount'],
    [{ amount: 53, unit: 'weeks', direction: 'before' }, 'amount'],
    [{ amount: 1, unit: 'fortnights', direction: 'before' }, 'unit'],
    [{ amount: 1, unit: 'days', direction: 'around' }, 'direction'],
  ])('%j is refused naming %s', (parts, field) => {
    expect(() => partsToOffset(parts as unknown as OffsetParts)).toThrow(expect.objectContaining({ field }));
  });
});

describe('rule offset editor: ISO-8601 → parts', () => {
  it.each([
    ['-P1D', { amount: 1, unit: 'days', direction: 'before' }],
    ['-PT2H', { amount: 2, unit: 'hours', direction: 'before' }],
    ['-PT5M', { amount: 5, unit: 'minutes', direction: 'before' }],
    ['PT30M', { amount: 30, unit: 'minutes', direction: 'after' }],
    ['+P2W', { amount: 2, unit: 'weeks', direction: 'after' }],
    ['P7D', { amount: 7, unit: 'days', direction: 'after' }],
    ['-PT24H', { amount: 24, unit: 'hours', direction: 'before' }],
    ['-PT60M', { amount: 1, unit: 'hours', direction: 'before' }],
    ['-PT1H30M', { amount: 90, unit: 'minutes', direction: 'before' }],
    ['-PT120S', { amount: 2, unit: 'minutes', direction: 'before' }],
    ['PT0S', { amount: 0, unit: 'minutes', direction: 'at' }],
    ['-PT0S', { amount: 0, unit: 'minutes', direction: 'at' }],
    ['P0D', { amount: 0, unit: 'minutes', direction: 'at' }],
  ] as const)('%s → %j', (offset, parts) => {
    expect(offsetToParts(offset)).toEqual(parts);
  });

  it.each(['-P1DT2H', 'P1M', '-P1Y', 'PT90S', 'P1W2D', 'PT0.5S', 'tomorrow', '', '-P', 'P1DT'])('%s has no single-unit form', (offset) => {
    expect(offsetToParts(offset)).toBeNull();
  });
});

describe('rule offset editor: round trips', () => {
  const amounts = [0, 1, 2, 7, 24, 59, 60, 90, 1440];
  const all: OffsetParts[] = [];
  for (const direction of ['before', 'after'] as const)
    for (const unit of ['minutes', 'hours', 'days', 'weeks'] as const)
      for (const amount of amounts) if (amount <= MAX_OFFSET_AMOUNT[unit]) all.push({ amount, unit, direction });

  /** What an offset means: sign (none for zero), calendar parts, elapsed milliseconds. */
  const meaning = (offset: string) => {
    const o = parseOffset(offset);
    const zero = o.years + o.months + o.weeks + o.days + o.elapsedMs === 0;
    return { ...o, sign: zero ? 0 : o.sign };
  };

  it('parts → offset → parts → offset keeps the meaning (60 minutes may come back as 1 hour)', () => {
    for (const parts of all) {
      const offset = partsToOffset(parts);
      const back = offsetToParts(offset);
      expect(back, offset).not.toBeNull();
      expect(meaning(partsToOffset(back!)), offset).toEqual(meaning(offset));
    }
  });

  it('offset → parts → offset is the identity for the offsets the editor writes in normal form', () => {
    for (const offset of ['-P1D', '-PT2H', '-PT5M', 'PT0S', '-PT15M', 'P1W', 'PT90M', '-P30D', '-PT48H']) {
      expect(partsToOffset(offsetToParts(offset)!)).toBe(offset);
    }
  });

  it('parts already in normal form come back unchanged', () => {
    for (const parts of all) {
      const normal = offsetToParts(partsToOffset(parts))!;
      expect(offsetToParts(partsToOffset(normal))).toEqual(normal);
    }
  });

  it('calendar days stay calendar days and hours stay elapsed time in the read-back sentence', () => {
    const sentence = (parts: OffsetParts) =>
      describeRule({ anchor: 'start', offset: partsToOffset(parts), audience: ['attendee'], channel: 'email', lateSendWindowSeconds: 3600 });
    expect(sentence({ amount: 1, unit: 'days', direction: 'before' })).toBe('1 day before start, same local time, to attendees by the channels each prefers; skipped if more than 1 hour late');
    expect(sentence({ amount: 24, unit: 'hours', direction: 'before' })).toBe('24 hours before start (elapsed time), to attendees by the channels each prefers; skipped if more than 1 hour late');
    expect(sentence({ amount: 0, unit: 'hours', direction: 'at' })).toBe('when the event starts, to attendees by the channels each prefers; skipped if more than 1 hour late');
  });
});
