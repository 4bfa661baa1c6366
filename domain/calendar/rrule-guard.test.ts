import { describe, expect, it } from 'vitest';
import { checkObservanceRrule, checkRrule } from './rrule-guard';

const START = Date.UTC(2027, 0, 15, 10); // DTSTART:20270115T100000
const LAST = Date.UTC(2200, 0, 1);

describe('checkRrule', () => {
  it.each<[string, string]>([
    ['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30', 'RRULE can never occur: February has no day 30'],
    ['FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30', 'RRULE can never occur: February has no day 30'],
    ['FREQ=MINUTELY;BYMONTH=2;BYMONTHDAY=30', 'RRULE can never occur: February has no day 30'],
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', 'RRULE can never occur: February has no day 30'],
    ['FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=31;BYDAY=MO', 'RRULE can never occur: February has no day 31'],
    ['FREQ=WEEKLY;BYMONTH=2;BYMONTHDAY=31', 'RRULE can never occur: February has no day 31'],
    ['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=-30', 'RRULE can never occur: February has no day -30'],
    ['FREQ=DAILY;BYMONTH=4,6,9,11;BYMONTHDAY=31', 'RRULE can never occur: April, June, September, November have no day 31'],
    ['FREQ=DAILY;BYMONTHDAY=32', 'RRULE can never occur: no month has day 32'],
    ['FREQ=DAILY;BYMONTHDAY=-32', 'RRULE can never occur: no month has day -32'],
    ['FREQ=YEARLY;BYMONTH=1;BYYEARDAY=100', 'RRULE can never occur: no year has day 100 in January'],
    ['FREQ=YEARLY;BYYEARDAY=367', 'RRULE can never occur: no year has day 367'],
    ['', 'RRULE is empty (expected e.g. RRULE:FREQ=WEEKLY, RFC 5545 §3.3.10)'],
    ['FREQ=DAILY;INTERVAL=0', 'RRULE INTERVAL=0 is not a positive integer (RFC 5545 §3.3.10)'],
    ['FREQ=DAILY;INTERVAL=-1', 'RRULE INTERVAL=-1 is not a positive integer (RFC 5545 §3.3.10)'],
    ['FREQ=DAILY;INTERVAL=1.5', 'RRULE INTERVAL=1.5 is not a positive integer (RFC 5545 §3.3.10)'],
    ['INTERVAL=2', 'RRULE has no FREQ (RFC 5545 §3.3.10: FREQ is required)'],
    ['FREQ=DAILY;INTERVAL=1000000;BYHOUR=9', 'RRULE INTERVAL=1000000 with BYHOUR: every period after the first begins after 2199 (not supported)'],
  ])('%s → refused', (rule, detail) => {
    expect(checkRrule(rule, START, LAST)).toEqual({ kind: 'refuse', detail });
  });

  it.each<[string, string]>([
    ['FREQ=DAILY;INTERVAL=1000000', 'dtstart-only'],
    ['FREQ=DAILY;INTERVAL=999999999999', 'dtstart-only'],
    ['FREQ=YEARLY;INTERVAL=174', 'dtstart-only'], // 2027-01-15 + 174 × 365 days ≥ 2200-01-01
    ['FREQ=YEARLY;INTERVAL=173', 'ok'], // 173 × 365 days (the shortest 173 years) end in 2199: ical.js is asked
    ['FREQ=DAILY;INTERVAL=63172', 'ok'], // 2027-01-15T10 + 63172 days = 2199-12-31T10
    ['FREQ=DAILY;INTERVAL=63173', 'dtstart-only'],
    ['FREQ=DAILY;INTERVAL=10000', 'ok'],
    ['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29', 'ok'], // leap years
    ['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=-29', 'ok'],
    ['FREQ=MONTHLY;BYMONTHDAY=31', 'ok'],
    ['FREQ=YEARLY;BYMONTH=2,3;BYMONTHDAY=30', 'ok'],
    ['FREQ=YEARLY;BYYEARDAY=366', 'ok'],
    ['FREQ=YEARLY;BYMONTH=2;BYYEARDAY=60', 'ok'], // Feb 29 in a leap year
    ['FREQ=YEARLY;BYMONTH=12;BYYEARDAY=-1', 'ok'],
    ['FREQ=WEEKLY;BYDAY=MO,WE;COUNT=10', 'ok'],
  ])('%s → %s', (rule, kind) => {
    expect(checkRrule(rule, START, LAST).kind).toBe(kind);
  });
});

describe('checkObservanceRrule', () => {
  it.each<[string, string | null]>([
    ['FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU', null],
    ['FREQ=MONTHLY', null],
    ['FREQ=SECONDLY', 'VTIMEZONE observance RRULE FREQ=SECONDLY is finer than MONTHLY (time zones change at most a few times a year)'],
    ['FREQ=WEEKLY', 'VTIMEZONE observance RRULE FREQ=WEEKLY is finer than MONTHLY (time zones change at most a few times a year)'],
    ['FREQ=daily', 'VTIMEZONE observance RRULE FREQ=DAILY is finer than MONTHLY (time zones change at most a few times a year)'],
  ])('%s', (rule, detail) => {
    expect(checkObservanceRrule(rule)).toBe(detail);
  });
});
