/**
 * `npm run bench:import [-- --n 100000]`: prints figures, asserts nothing (issue 8: 100 000 VEVENTs in ≤ 500 MB
 * RSS and ≤ 60 s).
 *
 * Generates an .ics file of N VEVENTs (default 100 000; TZID-qualified times with a VTIMEZONE, folded
 * descriptions, non-ASCII titles, some repeated UIDs), creates a fresh database on DATABASE_URL's server (or an
 * embedded PostgreSQL), migrates it, and runs the import in a CHILD process (`--child`), which reports its
 * elapsed time, its own CPU time (elapsed time also counts PostgreSQL's work and waiting for a busy machine)
 * and peak RSS (`process.resourceUsage().maxRSS`, the kernel's high-water mark). Then imports the
 * same file again (all unchanged). The database is dropped afterwards.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { createDb } from '@/db/client';
import { startEmbeddedPostgres, type EmbeddedPg } from '@/db/embedded';
import { migrateDatabase } from '@/db/migrate';
import { importIcs } from '@/server/calendar/import-ics';
import { createTenant } from '@/server/organisations/tenants';
import { root } from './lib';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Writes an N-VEVENT calendar to `file` (streamed: the generator holds one VEVENT at a time). */
async function generate(file: string, n: number): Promise<void> {
  const out = fs.createWriteStream(file);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  await write(
    [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//punctual//bench-import//EN',
      'BEGIN:VTIMEZONE', 'TZID:Europe/Berlin',
      'BEGIN:DAYLIGHT', 'DTSTART:19700329T020000', 'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'END:DAYLIGHT',
      'BEGIN:STANDARD', 'DTSTART:19701025T030000', 'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100', 'END:STANDARD',
      'END:VTIMEZONE', '',
    ].join('\r\n'),
  );
  const base = Date.UTC(2027, 0, 4, 8);
  for (let i = 0; i < n; i++) {
    const d = new Date(base + Math.floor(i / 20) * 86_400_000 + (i % 20) * 1_800_000);
    const stamp = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}00`;
    const uid = i % 50 === 49 ? `bench-${i - 1}@punctual.test` : `bench-${i}@punctual.test`; // every 50th repeats a UID
    const desc = `Sitzung ${i}: Öffnungszeiten für Fortgeschrittene (gefaltet)`;
    const folded = `DESCRIPTION:${desc}`.match(/.{1,40}/g)!.join('\r\n '); // folded like a generator that cuts early
    await write(
      ['BEGIN:VEVENT', `UID:${uid}`, `DTSTART;TZID=Europe/Berlin:${stamp}`, 'DURATION:PT25M', `SUMMARY:Übung ${i}`, `LOCATION:Raum ${i % 40}`, folded, 'END:VEVENT', ''].join('\r\n'),
    );
  }
  await write('END:VCALENDAR\r\n');
  await new Promise<void>((r, j) => out.end((e?: Error | null) => (e ? j(e) : r())));
}

/** The child: one import, then a JSON line with its figures. */
async function child(url: string, file: string): Promise<void> {
  const h = createDb(url, { max: 2 });
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const s = await importIcs(h.db, 'bench', fs.readFileSync(file), new Date('2027-01-01T00:00:00Z'));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  await h.close();
  process.stdout.write(`${JSON.stringify({ seconds, cpuSeconds, maxRssMb: process.resourceUsage().maxRSS / 1024, created: s.created, unchanged: s.unchanged, total: s.total, vevents: s.read.vevents })}\n`);
}

async function runChild(url: string, file: string): Promise<Record<string, number>> {
  const c = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'bench-import.ts'), '--child', '--url', url, '--file', file], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  c.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  const code = await new Promise<number>((r) => c.on('exit', (x) => r(x ?? 1)));
  if (code !== 0) throw new Error(`import child exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

async function main() {
  const { values } = parseArgs({ options: { n: { type: 'string' }, child: { type: 'boolean' }, url: { type: 'string' }, file: { type: 'string' } } });
  if (values.child) return child(values.url!, values.file!);
  const n = Number(values.n ?? 100_000);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'punctual-bench-import-')), `bench-${n}.ics`);
  await generate(file, n);
  console.log(`generated ${n.toLocaleString('en')} VEVENTs: ${(fs.statSync(file).size / 1e6).toFixed(1)} MB`);

  let pg: EmbeddedPg | undefined;
  let server = process.env.DATABASE_URL;
  if (!server) {
    pg = await startEmbeddedPostgres({ dataDir: path.join(root, '.data', 'pg-bench') });
    server = pg.url;
  }
  const name = `punctual_bench_import_${randomBytes(4).toString('hex')}`;
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  const url = u.toString();
  try {
    await migrateDatabase(url);
    const h = createDb(url, { max: 1 });
    await createTenant(h.db, { slug: 'bench', name: 'Bench', timeZone: 'Europe/Amsterdam' });
    await h.close();
    for (const label of ['first import (creates)', 'second import (unchanged)']) {
      const r = await runChild(url, file);
      console.log(`${label}: ${r.seconds.toFixed(1)} s elapsed (${r.cpuSeconds.toFixed(1)} s CPU in the importing process), peak RSS ${r.maxRssMb.toFixed(0)} MB — ${r.vevents} VEVENTs, ${r.total} events (${r.created} created, ${r.unchanged} unchanged)`);
    }
  } finally {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
    await pg?.stop();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
