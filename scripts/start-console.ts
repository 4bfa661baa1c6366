/**
 * What `npm start` shows in the terminal while it runs, and where the rest goes. The worker it runs in-process writes
 * its JSON log lines (server/platform/log.ts) to a file; the terminal gets one readable line per send attempt and
 * one per error, so a person watching sees reminders go out without reading JSON.
 *
 * {@link consoleLineOf} is the pure part (one parsed log line → the terminal's line, or null); {@link teeLogFile}
 * is the pino destination that appends every line to the file and prints the readable ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DestinationStream } from 'pino';

/** pino's numeric levels that reach the terminal as errors (50 error, 60 fatal). */
const ERROR_LEVEL = 50;

/** `HH:MM:SS` of a log line's ISO `time` (UTC, as the log writes it), or '' when it has none. */
function clock(time: unknown): string {
  return typeof time === 'string' && /T(\d\d:\d\d:\d\d)/.test(time) ? `${/T(\d\d:\d\d:\d\d)/.exec(time)![1]} UTC` : '';
}

/**
 * The terminal's line for one parsed JSON log line, or null when the line stays in the file only.
 *   - a send attempt (`msg: 'send attempt'`, server/dashboards/metrics.ts observeSend): time, channel, outcome, attempt
 *     number and message key, e.g. `  12:00:01 UTC  email    accepted     attempt 1  rem:…`; an outcome other than
 *     `accepted` adds the provider's code;
 *   - level error or fatal: `  12:00:01 UTC  error  <msg>: <err.message>`.
 * Recipients' addresses are never in it (the log line does not carry them either).
 */
export function consoleLineOf(line: Record<string, unknown>): string | null {
  const at = clock(line.time);
  if (line.msg === 'send attempt') {
    const outcome = String(line.outcome ?? '?');
    const code = outcome !== 'accepted' && line.errorCode ? ` (${String(line.errorCode)})` : '';
    return `  ${at}  ${String(line.channel ?? '?').padEnd(8)} ${(outcome + code).padEnd(12)} attempt ${String(line.attemptNo ?? '?')}  ${String(line.messageKey ?? '')}`;
  }
  if (typeof line.level === 'number' && line.level >= ERROR_LEVEL) {
    const err = line.err && typeof line.err === 'object' ? (line.err as { message?: unknown }).message : undefined;
    return `  ${at}  error  ${String(line.msg ?? '')}${err ? `: ${String(err)}` : ''}`;
  }
  return null;
}

/**
 * A pino destination writing every line to `file` (appended; its folder is made) and printing
 * {@link consoleLineOf}'s readable lines with `print`. Writes are synchronous, so nothing is lost at exit.
 */
export function teeLogFile(file: string, print: (line: string) => void): DestinationStream {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'a', 0o600);
  return {
    write(chunk: string) {
      fs.writeSync(fd, chunk);
      for (const text of chunk.split('\n')) {
        if (!text) continue;
        try {
          const shown = consoleLineOf(JSON.parse(text) as Record<string, unknown>);
          if (shown) print(shown);
        } catch {
          /* not JSON: the file has it */
        }
      }
    },
  };
}
