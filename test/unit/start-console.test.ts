/** What `npm start` prints per log line (scripts/start-console.ts): sends and errors, nothing else, no addresses. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { consoleLineOf, teeLogFile } from '@/scripts/start-console';
import { createLogger } from '@/server/platform/log';

const attempt = { level: 30, time: '2026-12-03T14:05:09.123Z', msg: 'send attempt', channel: 'email', outcome: 'accepted', attemptNo: 1, messageKey: 'rem:abc:v1:email', providerId: 'x' };

describe('consoleLineOf', () => {
  it.each([
    ['an accepted send', attempt, '  14:05:09 UTC  email    accepted     attempt 1  rem:abc:v1:email'],
    ['a deferred SMS with its code', { ...attempt, level: 40, channel: 'sms', outcome: 'transient', errorCode: '503', attemptNo: 2 }, '  14:05:09 UTC  sms      transient (503) attempt 2  rem:abc:v1:email'],
    ['an error with its cause', { level: 50, time: attempt.time, msg: 'dispatch failed', err: { message: 'connection refused' } }, '  14:05:09 UTC  error  dispatch failed: connection refused'],
    ['an info line', { level: 30, time: attempt.time, msg: 'worker started' }, null],
    ['a warning that is not a send', { level: 40, time: attempt.time, msg: 'lease expired' }, null],
  ])('%s', (_, line, expected) => {
    expect(consoleLineOf(line)).toBe(expected);
  });
});

describe('teeLogFile', () => {
  it('appends every JSON line to the file and prints only the readable ones', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'start-console-'));
    const file = path.join(dir, 'logs', 'worker.log');
    const printed: string[] = [];
    const logger = createLogger({ destination: teeLogFile(file, (l) => printed.push(l)), level: 'info' });
    logger.info({ channel: 'webhook', outcome: 'accepted', attemptNo: 1, messageKey: 'k1', to: 'someone@example.test' }, 'send attempt');
    logger.info('claimed 3 reminders');
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { msg: string });
    expect(lines.map((l) => l.msg)).toEqual(['send attempt', 'claimed 3 reminders']);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/webhook {2}accepted {5}attempt 1 {2}k1$/);
    expect(printed[0]).not.toContain('someone@example.test');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
