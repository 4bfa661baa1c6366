/**
 * Benchmark section plan (BENCHMARKS.md): bookings planned per second through the bulk path.
 * Shared helpers, clocks and units: bench/common.ts.
 */
import { performance } from 'node:perf_hooks';
import { createDb } from '@/db/client';
import type { BenchServer } from './db';
import { setupTenant } from './fixtures';
import { type BenchConfig, r1, r2 } from './common';

type BulkFn = (
  db: unknown,
  tenantId: string,
  eventId: string,
  people: { role: 'attendee' | 'host' | 'external'; contact: { email: string; name?: string; timeZone?: string; locale?: string } }[],
  now: Date,
  opts?: { notify?: boolean },
) => Promise<{ bookings: number; reminders: number; skipped: { index: number; reason: string }[] }>;

/**
 * Planning `bookings` bookings (1,000 per event) with server/scheduling/bookings.ts `addBookingsBulk` when that module
 * exports it (default options); otherwise — clearly labelled — `addBooking` one booking at a time until
 * `fallbackCapMs`. bookings/s = bookings planned / wall-clock seconds of the planning calls (this process).
 */
export async function runPlan(server: BenchServer, cfg: BenchConfig, bookings: number, fallbackCapMs: number) {
  const d = await server.freshDatabase('plan');
  const h = createDb(d.url, { max: 4 });
  try {
    const t = await setupTenant(d.url);
    const scheduling = (await import('@/server/scheduling/bookings')) as Record<string, unknown>;
    const bulk = typeof scheduling.addBookingsBulk === 'function' ? (scheduling.addBookingsBulk as BulkFn) : null;
    const { addBooking } = await import('@/server/scheduling/bookings');
    const { createEvent } = await import('@/server/scheduling/events');
    const perEvent = 1000;
    const eventCount = Math.ceil(bookings / perEvent);
    const start = new Date(Date.now() + 7 * 86_400_000);
    const eventIds: string[] = [];
    for (let i = 0; i < eventCount; i++) {
      const e = await createEvent(h.db, t.tenantId, { title: `Workshop ${i}`, startsAt: new Date(start.getTime() + i * 60_000), endsAt: new Date(start.getTime() + i * 60_000 + 3_600_000), timeZone: 'Europe/Amsterdam' });
      eventIds.push(e.id);
    }
    const person = (g: number) => ({ role: 'attendee' as const, contact: { email: `bee${g}@bench.test`, name: `Bee ${g}`, locale: 'en' } });
    let planned = 0;
    let reminders = 0;
    let skipped = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    if (bulk) {
      for (let i = 0; i < eventCount; i++) {
        const people = Array.from({ length: Math.min(perEvent, bookings - i * perEvent) }, (_, k) => person(i * perEvent + k));
        const r = await bulk(h.db, t.tenantId, eventIds[i], people, new Date());
        planned += r.bookings;
        reminders += r.reminders;
        skipped += r.skipped.length;
      }
    } else {
      const deadline = t0 + fallbackCapMs;
      for (let g = 0; g < bookings && performance.now() < deadline; g++) {
        await addBooking(h.db, t.tenantId, { eventId: eventIds[Math.floor(g / perEvent)], ...person(g) }, new Date());
        planned++;
      }
    }
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (!bulk) {
      const [{ n }] = await h.sql<{ n: number }[]>`select count(*)::int as n from reminders`;
      reminders = n;
    }
    const out = {
      path: bulk ? 'addBookingsBulk (1,000 people per call, default options)' : 'FALLBACK: addBooking one booking at a time (addBookingsBulk is not exported by server/scheduling/bookings.ts) — stopped at the time cap',
      bulk: !!bulk,
      target: bookings,
      bookings: planned,
      reminders,
      skipped,
      seconds: r2(ms / 1000),
      bookingsPerSecond: r1(planned / (ms / 1000)),
      benchProcessCpuMsPerBooking: r2((cpu.user + cpu.system) / 1000 / Math.max(1, planned)),
    };
    cfg.log(`plan: ${planned} bookings (${reminders} reminders) in ${out.seconds} s → ${out.bookingsPerSecond} bookings/s via ${bulk ? 'addBookingsBulk' : 'the FALLBACK addBooking loop'}`);
    return out;
  } finally {
    await h.close();
    await d.drop();
  }
}
