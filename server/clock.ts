/**
 * Injectable time. Use-cases take `now: Date` as an argument; processes get it from a Clock so tests can
 * run a real worker "in the future" (PUNCTUAL_CLOCK_OFFSET_MS, test-only) without waiting in real time.
 */
export interface Clock {
  /** The current UTC instant. */
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock running `offsetMs` milliseconds ahead of (or, negative, behind) the system clock. */
export function offsetClock(offsetMs: number): Clock {
  return { now: () => new Date(Date.now() + offsetMs) };
}

/** The process clock: system time shifted by PUNCTUAL_CLOCK_OFFSET_MS when set (tests only). */
export function processClock(env: NodeJS.ProcessEnv = process.env): Clock {
  const off = Number(env.PUNCTUAL_CLOCK_OFFSET_MS ?? 0);
  return off ? offsetClock(off) : systemClock;
}
