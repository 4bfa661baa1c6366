import { describe, expect, it } from 'vitest';
import { batchCountFor, formSendBatches } from './send-batches';

const r = (id: string, tenantId = 't1', channel = 'email') => ({ id, tenantId, channel });

describe('formSendBatches', () => {
  it('one due reminder is a batch of one: nothing waits to fill a batch', () => {
    expect(formSendBatches([r('a')], 50)).toEqual([[r('a')]]);
    expect(formSendBatches([], 50)).toEqual([]);
  });

  it('groups by tenant and channel, keeping due order inside a batch and ordering batches by their earliest member', () => {
    const claimed = [r('a', 't1'), r('b', 't2'), r('c', 't1', 'sms'), r('d', 't1'), r('e', 't2')];
    expect(formSendBatches(claimed, 50).map((b) => b.map((m) => m.id))).toEqual([['a', 'd'], ['b', 'e'], ['c']]);
  });

  it('splits a large group into the fewest batches of near-equal size, every member once', () => {
    const claimed = Array.from({ length: 101 }, (_, i) => r(`m${i}`));
    const batches = formSendBatches(claimed, 50);
    expect(batches.map((b) => b.length)).toEqual([34, 34, 33]);
    expect(batches.flat().map((m) => m.id)).toEqual(claimed.map((m) => m.id));
    expect(formSendBatches(claimed.slice(0, 60), 50).map((b) => b.length)).toEqual([30, 30]);
    expect(formSendBatches(claimed.slice(0, 50), 50).map((b) => b.length)).toEqual([50]);
  });

  it('a maximum below one sends one by one', () => {
    expect(formSendBatches([r('a'), r('b')], 0)).toEqual([[r('a')], [r('b')]]);
  });

  it('spreads a group over up to `spread` batches while each keeps `minSize` members', () => {
    const sizing = { max: 50, spread: 10, minSize: 4 };
    expect(batchCountFor(200, sizing)).toBe(10);
    expect(batchCountFor(20, sizing)).toBe(5);
    expect(batchCountFor(3, sizing)).toBe(1);
    expect(batchCountFor(1, sizing)).toBe(1);
    expect(batchCountFor(400, sizing)).toBe(10);
    expect(batchCountFor(1000, sizing)).toBe(20);
    const claimed = Array.from({ length: 200 }, (_, i) => r(`m${i}`));
    const batches = formSendBatches(claimed, sizing);
    expect(batches.map((b) => b.length)).toEqual(Array(10).fill(20));
    expect(batches.flat()).toEqual(claimed);
  });
});
