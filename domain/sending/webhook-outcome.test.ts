import { describe, expect, it } from 'vitest';
import { decideAfterOutcome, type Outcome } from './outcome';
import { defaultRetryPolicy } from './retry';
import {
  classifyWebhookNetworkError,
  classifyWebhookResponse,
  receiverIdFrom,
  webhookResponseText,
  type WebhookAnswer,
} from './webhook-outcome';

const now = new Date('2027-09-01T07:00:00Z');
const answer = (status: number, bodyText = '', retryAfter: string | null = null, location: string | null = null): WebhookAnswer => ({
  status,
  bodyText,
  retryAfter,
  location,
});
const label = (o: Outcome) =>
  o.class === 'rejected'
    ? `rejected:${o.kind}`
    : o.class === 'rate_limited'
      ? `rate_limited:${o.retryAfterMs}`
      : o.class === 'accepted'
        ? `accepted:${o.providerId}`
        : o.class;

describe('classifyWebhookResponse', () => {
  it.each<[string, WebhookAnswer, string]>([
    ['200, empty body', answer(200), 'accepted:http-200'],
    ['200 "OK"', answer(200, 'OK'), 'accepted:http-200'],
    ['202 with a receiver id', answer(202, '{"id":"evt_42","status":"queued"}'), 'accepted:evt_42'],
    ['204', answer(204), 'accepted:http-204'],
    ['200 with a numeric id (not taken)', answer(200, '{"id":42}'), 'accepted:http-200'],
    ['299', answer(299), 'accepted:http-299'],
    ['410 Gone', answer(410, 'unsubscribed'), 'rejected:endpoint_gone'],
    ['429 Retry-After seconds', answer(429, '', '3'), 'rate_limited:3000'],
    ['429 Retry-After HTTP-date, relative to now', answer(429, '', 'Wed, 01 Sep 2027 07:02:00 GMT'), 'rate_limited:120000'],
    ['429 Retry-After date in the past', answer(429, '', 'Wed, 01 Sep 2027 06:00:00 GMT'), 'rate_limited:0'],
    ['429 without Retry-After', answer(429), 'rate_limited:null'],
    ['429 with garbage Retry-After', answer(429, '', 'soon'), 'rate_limited:null'],
    ['408 Request Timeout', answer(408), 'ambiguous'],
    ['500', answer(500), 'ambiguous'],
    ['502', answer(502), 'ambiguous'],
    ['503 (even with Retry-After)', answer(503, '', '30'), 'ambiguous'],
    ['504', answer(504), 'ambiguous'],
    ['599', answer(599), 'ambiguous'],
    ['301', answer(301, '', null, 'https://new.example.com/hook'), 'rejected:permission'],
    ['302', answer(302), 'rejected:permission'],
    ['307', answer(307), 'rejected:permission'],
    ['308', answer(308), 'rejected:permission'],
    ['401', answer(401), 'rejected:permission'],
    ['403', answer(403), 'rejected:permission'],
    ['404', answer(404), 'rejected:permission'],
    ['400', answer(400), 'rejected:validation'],
    ['409', answer(409), 'rejected:validation'],
    ['413', answer(413), 'rejected:validation'],
    ['415', answer(415), 'rejected:validation'],
    ['422', answer(422), 'rejected:validation'],
    ['100 as a final answer', answer(100), 'ambiguous'],
    ['700', answer(700), 'ambiguous'],
  ])('%s', (_n, a, expected) => {
    const o = classifyWebhookResponse(a, now);
    expect(label(o)).toBe(expected);
    if (o.class !== 'accepted') expect(o.code).toBe(`HTTP_${a.status}`);
    expect(o.response).toBe(webhookResponseText(a.status, a.bodyText));
  });

  it('a redirect says the endpoint must not redirect, and where it pointed', () => {
    const o = classifyWebhookResponse(answer(301, '', null, 'https://new.example.com/hook'), now);
    expect(o).toMatchObject({ class: 'rejected', kind: 'permission', code: 'HTTP_301' });
    expect((o as { message: string }).message).toMatch(/must not redirect/);
    expect((o as { message: string }).message).toContain('https://new.example.com/hook');
  });

  it('response = status + the first 500 characters of the body', () => {
    const long = 'x'.repeat(600);
    const o = classifyWebhookResponse(answer(500, long), now);
    expect(o.response).toBe(`500 ${'x'.repeat(500)}`);
    expect(classifyWebhookResponse(answer(410, 'bye'), now).response).toBe('410 bye');
    expect(classifyWebhookResponse(answer(204), now).response).toBe('204');
  });

  it('the 500-character cut never splits a surrogate pair', () => {
    const body = `${'a'.repeat(499)}😀tail`;
    expect(webhookResponseText(200, body)).toBe(`200 ${'a'.repeat(499)}`);
  });

  it('what the pipeline does with each class (decideAfterOutcome, webhooks are idempotent)', () => {
    const decide = (o: Outcome) =>
      decideAfterOutcome({
        outcome: o,
        idempotentProvider: true,
        failuresSoFar: 0,
        deferredSoFar: 0,
        now,
        expiresAt: new Date(now.getTime() + 86_400_000),
        policy: defaultRetryPolicy,
        random: 0.5,
      });
    expect(decide(classifyWebhookResponse(answer(410), now))).toMatchObject({ status: 'dead', repairOwner: 'configuration', disableEndpoint: true });
    expect(decide(classifyWebhookResponse(answer(503), now))).toMatchObject({ status: 'retrying', countsAsFailure: true });
    expect(decide(classifyWebhookResponse(answer(302), now))).toMatchObject({ status: 'dead', repairOwner: 'configuration' });
    expect(decide(classifyWebhookResponse(answer(422), now))).toMatchObject({ status: 'dead', repairOwner: 'template' });
    expect(decide(classifyWebhookResponse(answer(200, '{"id":"r1"}'), now))).toMatchObject({ status: 'accepted', providerMessageId: 'r1' });
  });
});

describe('receiverIdFrom', () => {
  it.each<[string, string | null]>([
    ['{"id":"evt_1"}', 'evt_1'],
    ['{"id":""}', null],
    ['{"id":"a\\nb"}', null],
    [`{"id":"${'x'.repeat(201)}"}`, null],
    ['["evt_1"]', null],
    ['"evt_1"', null],
    ['null', null],
    ['{"data":{"id":"nested"}}', null],
    ['not json', null],
    ['', null],
  ])('%s → %j', (body, id) => {
    expect(receiverIdFrom(body)).toBe(id);
  });
});

describe('classifyWebhookNetworkError', () => {
  it.each<[string, { code: string; message: string; requestWritten: boolean }, string]>([
    ['connection refused before writing', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED', requestWritten: false }, 'transient'],
    ['DNS failure', { code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND', requestWritten: false }, 'transient'],
    ['TLS handshake failure', { code: 'ERR_TLS_CERT_ALTNAME_INVALID', message: 'bad cert', requestWritten: false }, 'transient'],
    ['connect timeout', { code: 'ETIMEDOUT', message: 'no answer', requestWritten: false }, 'transient'],
    ['reset after writing', { code: 'ECONNRESET', message: 'socket hang up', requestWritten: true }, 'ambiguous'],
    ['timeout after writing', { code: 'ETIMEDOUT', message: 'no answer', requestWritten: true }, 'ambiguous'],
  ])('%s', (_n, f, expected) => {
    const o = classifyWebhookNetworkError(f);
    expect(o.class).toBe(expected);
    expect((o as { code: string }).code).toBe(f.code);
  });
});
