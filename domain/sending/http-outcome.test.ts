import { describe, expect, it } from 'vitest';
import { classifyHttp, parseRetryAfter, type HttpFailure } from './http-outcome';

const now = new Date('2027-09-01T07:00:00Z');

describe('classifyHttp', () => {
  it.each<[string, HttpFailure, string]>([
    ['200', { kind: 'response', status: 200 }, 'accepted'],
    ['202', { kind: 'response', status: 202 }, 'accepted'],
    ['429 with seconds', { kind: 'response', status: 429, retryAfter: '60' }, 'rate_limited:60000'],
    ['429 with an HTTP date', { kind: 'response', status: 429, retryAfter: 'Wed, 01 Sep 2027 07:02:00 GMT' }, 'rate_limited:120000'],
    ['429 without Retry-After', { kind: 'response', status: 429 }, 'rate_limited:null'],
    ['401', { kind: 'response', status: 401 }, 'rejected:permission'],
    ['403', { kind: 'response', status: 403 }, 'rejected:permission'],
    ['400', { kind: 'response', status: 400 }, 'rejected:validation'],
    ['422', { kind: 'response', status: 422 }, 'rejected:validation'],
    ['409 idempotent request in flight', { kind: 'response', status: 409 }, 'transient'],
    ['404', { kind: 'response', status: 404 }, 'rejected:other'],
    ['500 after the request was written', { kind: 'response', status: 500 }, 'ambiguous'],
    ['503', { kind: 'response', status: 503 }, 'ambiguous'],
    ['connection refused before writing', { kind: 'network', code: 'ECONNREFUSED', requestWritten: false }, 'transient'],
    ['DNS failure', { kind: 'network', code: 'ENOTFOUND', requestWritten: false }, 'transient'],
    ['timeout after writing', { kind: 'network', code: 'ETIMEDOUT', requestWritten: true }, 'ambiguous'],
    ['reset after writing', { kind: 'network', code: 'ECONNRESET', requestWritten: true }, 'ambiguous'],
  ])('%s', (_n, f, expected) => {
    const c = classifyHttp(f, now);
    const label = c.class === 'rejected' ? `rejected:${c.kind}` : c.class === 'rate_limited' ? `rate_limited:${c.retryAfterMs}` : c.class;
    expect(label).toBe(expected);
  });
});

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['120', 120_000],
    ['Wed, 01 Sep 2027 06:59:00 GMT', 0],
    ['soon', null],
    ['-5', null],
    ['1.5', null],
    [null, null],
  ])('%j → %j', (v, ms) => {
    expect(parseRetryAfter(v, now)).toBe(ms);
  });
});
