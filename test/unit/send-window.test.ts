/** The send window (server/sending/send-window.ts): groups of permits, given back one by one, waiters in order. */
import { describe, expect, it } from 'vitest';
import { createSendWindow } from '@/server/sending/send-window';

describe('send window', () => {
  it('gives every free permit up to what is wanted, and no more than its capacity', async () => {
    const w = createSendWindow(10);
    expect(await w.acquire(4)).toBe(4);
    expect(await w.acquire(50)).toBe(6);
    expect(w.free()).toBe(0);
    w.release(6);
    w.release(4);
    expect(w.free()).toBe(10);
  });

  it('a waiter for many waits until half the window is free, then takes all that is free; one for few takes what it asked', async () => {
    const w = createSendWindow(10);
    await w.acquire(10);
    const order: string[] = [];
    const big = w.acquire(40).then((n) => (order.push(`big:${n}`), n));
    const small = w.acquire(2).then((n) => (order.push(`small:${n}`), n));
    for (let i = 0; i < 4; i++) w.release();
    await Promise.resolve();
    expect(order).toEqual([]); // 4 free < 5: the big waiter waits, and the small one waits behind it (in order)
    w.release();
    expect(await big).toBe(5);
    w.release(2);
    expect(await small).toBe(2);
    expect(order).toEqual(['big:5', 'small:2']);
  });

  it('refuses what cannot be right', async () => {
    expect(() => createSendWindow(0)).toThrow(RangeError);
    expect(() => createSendWindow(2.5)).toThrow(RangeError);
    const w = createSendWindow(2);
    await expect(w.acquire(0)).rejects.toThrow(RangeError);
    expect(() => w.release()).toThrow(/given back/);
  });
});
