import { describe, expect, it } from 'vitest';
import { classifySmsResponse, responseLimit, twilioErrorRules, type SmsApiResponse } from './sms-outcome';

const now = new Date('2027-09-01T07:00:00Z');
const twilioError = (status: number, code: number, message = `error ${code}`) => ({
  code,
  message,
  more_info: `https://www.twilio.com/docs/errors/${code}`,
  status,
});
const answer = (status: number, body: unknown, retryAfter: string | null = null): SmsApiResponse => ({ status, body, retryAfter });
const created = { sid: 'SM0123456789abcdef0123456789abcdef', status: 'queued', to: '+31612345678', from: '+3197010000000', body: 'Hi' };

/** [name, answer, expected fields of the Outcome] */
const cases: [string, SmsApiResponse, Record<string, unknown>][] = [
  // Accepted.
  ['201 with a sid', answer(201, created), { class: 'accepted', providerId: created.sid }],
  ['200 with a sid', answer(200, created), { class: 'accepted', providerId: created.sid }],
  ['201 without a sid: a message may exist we cannot name', answer(201, { status: 'queued' }), { class: 'ambiguous', code: 'HTTP_201' }],
  ['201 with an empty body', answer(201, null), { class: 'ambiguous', code: 'HTTP_201' }],
  ['201 with an empty sid', answer(201, { sid: '' }), { class: 'ambiguous' }],

  // Invalid recipient: suppressed.
  ['400 21211 invalid To', answer(400, twilioError(400, 21211, "The 'To' number +3199 is not a valid phone number.")), {
    class: 'rejected', kind: 'invalid_recipient', suppressAs: 'invalid_number', code: '21211', message: "The 'To' number +3199 is not a valid phone number.",
  }],
  ['400 21614 not a mobile number', answer(400, twilioError(400, 21614)), { class: 'rejected', kind: 'invalid_recipient', suppressAs: 'invalid_number', code: '21614' }],
  ['400 21635 landline', answer(400, twilioError(400, 21635)), { class: 'rejected', kind: 'invalid_recipient', suppressAs: 'invalid_number', code: '21635' }],
  ['400 21610 unsubscribed (STOP)', answer(400, twilioError(400, 21610)), { class: 'rejected', kind: 'invalid_recipient', suppressAs: 'unsubscribed', code: '21610' }],
  ['the code decides even under another status', answer(403, twilioError(403, 21610)), { class: 'rejected', kind: 'invalid_recipient', suppressAs: 'unsubscribed' }],
  ['a numeric-string code is read too', answer(400, { code: '21211', message: 'bad To' }), { class: 'rejected', kind: 'invalid_recipient', code: '21211' }],

  // Permission: dead letter owned by configuration, never suppresses the recipient.
  ['401 20003 authentication', answer(401, twilioError(401, 20003, 'Authenticate')), { class: 'rejected', kind: 'permission', code: '20003', message: 'Authenticate' }],
  ['401 without a body', answer(401, null), { class: 'rejected', kind: 'permission', code: 'HTTP_401' }],
  ['403 without a code', answer(403, { message: 'forbidden' }), { class: 'rejected', kind: 'permission', code: 'HTTP_403', message: 'forbidden' }],
  ['400 21212 invalid From', answer(400, twilioError(400, 21212)), { class: 'rejected', kind: 'permission', code: '21212' }],
  ['400 21606 From not message-capable', answer(400, twilioError(400, 21606)), { class: 'rejected', kind: 'permission', code: '21606' }],
  ['400 21603 From required', answer(400, twilioError(400, 21603)), { class: 'rejected', kind: 'permission', code: '21603' }],
  ['400 21408 region not enabled', answer(400, twilioError(400, 21408)), { class: 'rejected', kind: 'permission', code: '21408' }],
  ['400 21608 trial account, unverified To', answer(400, twilioError(400, 21608)), { class: 'rejected', kind: 'permission', code: '21608' }],
  ['404 20404 wrong account path', answer(404, twilioError(404, 20404)), { class: 'rejected', kind: 'permission', code: '20404' }],

  // Validation: the message itself.
  ['400 21602 body required', answer(400, twilioError(400, 21602)), { class: 'rejected', kind: 'validation', code: '21602' }],
  ['400 21617 body too long', answer(400, twilioError(400, 21617)), { class: 'rejected', kind: 'validation', code: '21617' }],
  ['400 with an unlisted code', answer(400, twilioError(400, 21604, "A 'To' phone number is required.")), {
    class: 'rejected', kind: 'validation', code: '21604', message: "A 'To' phone number is required.",
  }],
  ['413', answer(413, null), { class: 'rejected', kind: 'validation', code: 'HTTP_413' }],
  ['422', answer(422, null), { class: 'rejected', kind: 'validation', code: 'HTTP_422' }],

  // Other 4xx / unexpected statuses.
  ['409', answer(409, twilioError(409, 20409)), { class: 'rejected', kind: 'other', code: '20409' }],
  ['405', answer(405, null), { class: 'rejected', kind: 'other', code: 'HTTP_405' }],
  ['302 redirect', answer(302, null), { class: 'rejected', kind: 'other', code: 'HTTP_302' }],
  ['408 request timeout', answer(408, null), { class: 'transient', code: 'HTTP_408' }],

  // Rate limited.
  ['429 with Retry-After seconds', answer(429, twilioError(429, 20429, 'Too Many Requests'), '2'), { class: 'rate_limited', retryAfterMs: 2000, code: '20429', message: 'Too Many Requests' }],
  ['429 with an HTTP-date Retry-After', answer(429, twilioError(429, 20429), 'Wed, 01 Sep 2027 07:02:00 GMT'), { class: 'rate_limited', retryAfterMs: 120_000 }],
  ['429 with a past HTTP-date', answer(429, null, 'Wed, 01 Sep 2027 06:00:00 GMT'), { class: 'rate_limited', retryAfterMs: 0, code: 'HTTP_429' }],
  ['429 without Retry-After', answer(429, null), { class: 'rate_limited', retryAfterMs: null }],
  ['429 with a garbage Retry-After', answer(429, null, 'soon'), { class: 'rate_limited', retryAfterMs: null }],
  ['code 20429 under a 400', answer(400, twilioError(400, 20429), '5'), { class: 'rate_limited', retryAfterMs: 5000, code: '20429' }],

  // 5xx: the API answered without creating a message (issue #9 §4: retry).
  ['500', answer(500, twilioError(500, 20500, 'Internal Server Error')), { class: 'transient', code: '20500', message: 'Internal Server Error' }],
  ['502 from a gateway (HTML)', { status: 502, body: null, retryAfter: null, bodyText: '<html>Bad Gateway</html>' }, {
    class: 'transient', code: 'HTTP_502', response: '502 <html>Bad Gateway</html>',
  }],
  ['503 with Retry-After', answer(503, twilioError(503, 20503), '30'), { class: 'transient', code: '20503' }],
  ['504', answer(504, null), { class: 'transient', code: 'HTTP_504' }],
  ['5xx wins over a rejecting code', answer(500, twilioError(500, 21211)), { class: 'transient' }],
];

describe('classifySmsResponse', () => {
  it.each(cases)('%s', (_n, res, expected) => {
    expect(classifySmsResponse(res, now)).toMatchObject(expected);
  });

  it('every Twilio error rule is exercised by a case above', () => {
    const covered = new Set(cases.map(([, r]) => (r.body as { code?: unknown } | null)?.code).map(Number));
    for (const rule of twilioErrorRules) expect(covered.has(rule.code), `code ${rule.code}`).toBe(true);
  });

  it('only invalid_recipient rows carry suppressAs', () => {
    for (const [, res] of cases) {
      const o = classifySmsResponse(res, now);
      if (o.class !== 'rejected' || o.kind !== 'invalid_recipient') expect(o).not.toHaveProperty('suppressAs');
    }
  });

  it('response is the status and the body text, truncated to 500 characters', () => {
    const o = classifySmsResponse(answer(400, twilioError(400, 21211, 'x'.repeat(2000))), now);
    expect(o.response?.startsWith('400 {"code":21211,"message":"xxx')).toBe(true);
    expect(o.response).toHaveLength(responseLimit);
    const ok = classifySmsResponse(answer(201, created), now);
    expect(ok.response).toBe(`201 ${JSON.stringify(created)}`);
  });

  it('without a Twilio message, the message describes the status', () => {
    expect(classifySmsResponse(answer(401, null), now)).toMatchObject({ message: 'HTTP 401: not authorised', response: '401' });
  });
});
