/**
 * The send window: how many deliveries this worker process may hold in `sending` whose provider call has not answered
 * yet — shared by every send batch the process runs (server/sending/send-batch.ts).
 *
 * Why: a delivery in `sending` whose worker dies ends `unknown` when its lease runs out (over SMTP nothing can tell
 * whether it went out, so it is never resent automatically). A batch that moved all its 50 messages to `sending` at
 * once, with 10 pooled connections, left 40 of them waiting for a connection — never sent, yet `unknown` after a kill.
 * With the window a batch moves a message to `sending` only when a place in the window is free, so a killed worker
 * leaves at most `capacity` deliveries `unknown`: with the capacity at the worker's task slots (its concurrency), no
 * more than the single path (one reminder per job) left before batching.
 *
 * Permits are taken in groups (one wave of a batch: one world read, one claim, one transaction for the group) and given
 * back one by one as each provider call answers. Waiters are served in order (no batch starves); a waiter asking for
 * more than one permit waits until `min(want, ⌈capacity/2⌉)` are free, so the waves stay large enough to be worth their
 * statements, and then takes every free permit up to `want`.
 */
export interface SendWindow {
  /** Places in the window (deliveries in `sending` awaiting their provider's answer, per process). */
  readonly capacity: number;
  /**
   * Takes between 1 and `want` permits (see module doc for how many); resolves once they are taken.
   * @throws RangeError when `want` is not a positive integer.
   */
  acquire(want: number): Promise<number>;
  /** Gives `n` permits back (default 1). @throws RangeError when more are given back than were taken. */
  release(n?: number): void;
  /** Permits free now (tests, diagnostics). */
  free(): number;
}

/**
 * A {@link SendWindow} of `capacity` places.
 * @throws RangeError when `capacity` is not a positive integer.
 */
export function createSendWindow(capacity: number): SendWindow {
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`send window capacity must be a positive integer, got ${capacity}`);
  let free = capacity;
  const waiters: { want: number; resolve: (n: number) => void }[] = [];
  const threshold = (want: number) => Math.min(want, Math.ceil(capacity / 2));
  const serve = () => {
    while (waiters.length && free >= threshold(waiters[0].want)) {
      const w = waiters.shift()!;
      const n = Math.min(w.want, free);
      free -= n;
      w.resolve(n);
    }
  };
  return {
    capacity,
    acquire(want) {
      if (!Number.isInteger(want) || want < 1) return Promise.reject(new RangeError(`permits wanted must be a positive integer, got ${want}`));
      return new Promise<number>((resolve) => {
        waiters.push({ want, resolve });
        serve();
      });
    },
    release(n = 1) {
      if (free + n > capacity) throw new RangeError(`send window: ${n} permit(s) given back, but only ${capacity - free} were taken`);
      free += n;
      serve();
    },
    free: () => free,
  };
}
