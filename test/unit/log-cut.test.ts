/**
 * server/platform/log.ts cuts long values (issue #12: a request carrying a 1 MB address wrote the whole value to the log).
 */
import { describe, expect, it } from 'vitest';
import { createLogger, cutLongStrings, cutString, MAX_LOG_STACK, MAX_LOG_STRING } from '@/server/platform/log';

function capture() {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (s: string) => void lines.push(s) } });
  return { logger, lines, last: () => JSON.parse(lines.at(-1)!) as Record<string, unknown> };
}

const MB = 'x'.repeat(1_048_576);

describe('log lines with long values', () => {
  it('cuts a long field, a nested one and the message to 1,000 characters with a marker', () => {
    const { logger, lines, last } = capture();
    logger.warn({ address: MB, body: { contact: { email: MB } }, list: [MB], short: 'kept', n: 3 }, `refused ${MB}`);
    expect(lines[0].length).toBeLessThan(8_000);
    const line = last();
    expect(line.address).toBe(`${'x'.repeat(MAX_LOG_STRING)}…[cut ${MB.length - MAX_LOG_STRING} chars]`);
    expect((line.body as { contact: { email: string } }).contact.email).toMatch(/^x{1000}…\[cut 1047576 chars\]$/);
    expect((line.list as string[])[0]).toMatch(/…\[cut 1047576 chars\]$/);
    expect(line.msg).toMatch(/^refused x{992}…\[cut 1047584 chars\]$/);
    expect(line.short).toBe('kept');
    expect(line.n).toBe(3);
  });

  it('cuts an error message and the copy of it at the top of the stack, keeping the frames', () => {
    const { logger, lines, last } = capture();
    const err = new Error(`Failed query: insert into suppressions … params: ${MB}`);
    logger.error({ err }, 'unexpected error in a request');
    expect(lines[0].length).toBeLessThan(MAX_LOG_STRING + MAX_LOG_STACK + 2_000);
    const e = last().err as { message: string; stack: string; type: string };
    expect(e.type).toBe('Error');
    expect(e.message).toMatch(/^Failed query: insert into suppressions … params: x+…\[cut \d+ chars\]$/);
    expect(e.message.length).toBeLessThan(MAX_LOG_STRING + 40);
    expect(e.stack).toContain('…[cut ');
    expect(e.stack).toContain('log-cut.test.ts');
  });

  it('leaves short values, and the objects it was given, as they are', () => {
    const input = { a: 'short', deep: { b: 'y'.repeat(MAX_LOG_STRING) } };
    expect(cutLongStrings(input)).toEqual(input);
    const long = { a: 'z'.repeat(MAX_LOG_STRING + 1) };
    cutLongStrings(long);
    expect(long.a.length).toBe(MAX_LOG_STRING + 1);
    expect(cutString('abc', 2)).toBe('ab…[cut 1 chars]');
  });
});
