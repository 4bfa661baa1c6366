import type { Clock } from '@/server/platform/clock';

/** A clock a test sets by hand. */
export class FakeClock implements Clock {
  constructor(private t: Date) {}
  now(): Date {
    return new Date(this.t);
  }
  set(iso: string | Date): void {
    this.t = new Date(iso);
  }
  advance(ms: number): void {
    this.t = new Date(this.t.getTime() + ms);
  }
}
