/**
 * ical.js (Mozilla's iCalendar parser) as the iCalendar import uses it: the library, its component, property and time
 * types, and a step budget on its rule iterator. Every module of the import takes ICAL from here, so the budget is in
 * place before any RRULE is iterated.
 *
 * The budget patches `ICAL.RecurIterator.prototype` once, when this module is first loaded (the library offers no
 * hook): it holds for every user of ical.js in the process, as it did when the import was one module.
 */
import ICAL from 'ical.js';

export default ICAL;

export type IcalComponent = InstanceType<typeof ICAL.Component>;
export type IcalProperty = InstanceType<typeof ICAL.Property>;
export type IcalTime = InstanceType<typeof ICAL.Time>;

/**
 * Steps ical.js's rule iterator may take inside ONE `next()` call before we give up on the rule. Its `next()`
 * loops internally until a candidate passes the rule's BYxxx filters, so a rule that can never match again
 * (`FREQ=DAILY;INTERVAL=7;BYDAY=MO;BYMONTHDAY=15` from a Friday: every step lands on a Friday) would loop for
 * ever; domain/calendar/rrule-guard.ts refuses the patterns it can prove impossible, and this budget stops the rest.
 * A real rule needs at most about ten thousand steps between two instances (MINUTELY within one hour of one
 * weekday: 7 × 1440); each step costs tens of µs, so giving up takes a second or two.
 */
const MAX_STEPS_PER_INSTANCE = 30_000;
{
  // Count the filter checks of each next() call (the library offers no hook; the method names are its own).
  type Stepping = { check_contracting_rules(): boolean; next(again?: boolean): unknown; __stepsLeft?: number };
  const proto = (ICAL as unknown as { RecurIterator: { prototype: Stepping } }).RecurIterator.prototype;
  const check = proto.check_contracting_rules;
  const next = proto.next;
  proto.next = function (this: Stepping, again = false) {
    if (!again) this.__stepsLeft = MAX_STEPS_PER_INSTANCE;
    return next.call(this, again);
  };
  proto.check_contracting_rules = function (this: Stepping) {
    if (this.__stepsLeft !== undefined && --this.__stepsLeft < 0) {
      throw new Error(`no further instance within ${MAX_STEPS_PER_INSTANCE} steps: the rule's parts can never match again`);
    }
    return check.call(this);
  };
}
