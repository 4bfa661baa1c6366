/**
 * Helpers for the iTIP REPLY tests: a fixture reply (test/fixtures/itip) re-addressed to a booking the test made —
 * the fixture's booking id is replaced in plain parts and inside base64 parts (decoded, replaced, re-encoded).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The booking id every fixture answers (test/fixtures/itip/README.md). */
export const FIXTURE_BOOKING_ID = '7f3c2a9e-5b14-4d6a-8e21-c04b9d3f6a58';
/** The attendee address of the fixtures. */
export const FIXTURE_ATTENDEE = 'ana.lopez@example.org';

/** The raw bytes of fixture `file` with its booking id replaced by `bookingId`. */
export function replyFor(file: string, bookingId: string): Buffer {
  const raw = readFileSync(path.join(import.meta.dirname, '../fixtures/itip', file), 'latin1');
  const lines = raw.split('\r\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    if (/^[A-Za-z0-9+/]{40,}={0,2}$/.test(lines[i])) {
      let j = i;
      while (j < lines.length && /^[A-Za-z0-9+/]+={0,2}$/.test(lines[j])) j++;
      const decoded = Buffer.from(lines.slice(i, j).join(''), 'base64').toString('utf8').replaceAll(FIXTURE_BOOKING_ID, bookingId);
      const enc = Buffer.from(decoded, 'utf8').toString('base64');
      for (let k = 0; k < enc.length; k += 76) out.push(enc.slice(k, k + 76));
      i = j;
    } else {
      out.push(lines[i].replaceAll(FIXTURE_BOOKING_ID, bookingId));
      i++;
    }
  }
  return Buffer.from(out.join('\r\n'), 'latin1');
}
