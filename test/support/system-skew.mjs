/**
 * Test-only preload (`node --import ./test/support/system-skew.mjs …`): makes this process's system clock
 * wrong by PUNCTUAL_TEST_SYSTEM_SKEW_MS milliseconds (negative = behind), as on a host whose clock drifted
 * away from the database host's. `Date.now()`, `new Date()` and `Date()` are shifted; `new Date(value)`,
 * `performance.now()` and timers are not (a skewed wall clock still ticks at the normal rate).
 *
 * Distinct from PUNCTUAL_CLOCK_OFFSET_MS, which shifts Punctual's scheduler clock on purpose.
 */
const skew = Number(process.env.PUNCTUAL_TEST_SYSTEM_SKEW_MS ?? 0);
if (!Number.isFinite(skew)) throw new Error(`PUNCTUAL_TEST_SYSTEM_SKEW_MS: not a number (${process.env.PUNCTUAL_TEST_SYSTEM_SKEW_MS})`);
if (skew !== 0) {
  const RealDate = globalThis.Date;
  const realNow = RealDate.now.bind(RealDate);
  const SkewedDate = new Proxy(RealDate, {
    construct(target, args, newTarget) {
      return Reflect.construct(target, args.length === 0 ? [realNow() + skew] : args, newTarget);
    },
    apply() {
      return new RealDate(realNow() + skew).toString();
    },
  });
  RealDate.now = () => realNow() + skew;
  globalThis.Date = SkewedDate;
}
