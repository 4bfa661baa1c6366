import { describe, expect, it } from 'vitest';
import {
  absoluteLink,
  alertEmailHtml,
  alertMessageKey,
  alertPath,
  alertRetryPolicy,
  alertTexts,
  decideAlertSend,
  maskWebhookUrl,
  recipientOfKey,
  slackEscape,
} from './messages';
import {
  ALERT_GROUP_MAX_MS,
  startHold,
  conditionHolds,
  decideAlert,
  idleAlertState,
  startHeldReason,
  type AlertObservation,
  type AlertStateSnapshot,
} from './alerts';
import { alertBannerLine } from './banner';
import { formatDuration, alertTime } from './format';
import { isAuthRejection, providerAuthFailure, type DecisiveAttempt } from './provider-auth';
import type { OutcomeClass, Provider } from '@/domain/vocabulary';

const T = (iso: string) => new Date(iso);
const at = (s: string) => T(`2027-03-01T${s}Z`);

describe('isAuthRejection (SMTP 530/535/5.7.0/5.7.8…, relay denied, HTTP 401/403, SMS 20003)', () => {
  const row = (provider: Provider, outcome: OutcomeClass | null, errorCode: string | null, response: string | null = null, message: string | null = null) => ({
    provider,
    outcome,
    errorCode,
    providerResponse: response,
    errorMessage: message,
  });
  it.each([
    ['SMTP 535 credentials invalid', row('smtp', 'rejected', '535', '535 5.7.8 Authentication credentials invalid'), true],
    ['SMTP 530 authentication required', row('smtp', 'rejected', '530', '530 5.7.0 Authentication required'), true],
    ['SMTP 534 mechanism too weak', row('smtp', 'rejected', '534'), true],
    ['SMTP 538 encryption required', row('smtp', 'rejected', '538'), true],
    ['nodemailer EAUTH', row('smtp', 'rejected', 'EAUTH'), true],
    ['SMTP 550 5.7.1 not authorized (one recipient\'s policy)', row('smtp', 'rejected', '550', '550 5.7.1 Delivery not authorized, message refused'), false],
    ['SMTP 550 5.7.1 the catcher\'s +deny-once refusal', row('smtp', 'rejected', '550', '550 5.7.1 Sender not authorized for this recipient'), false],
    ['SMTP 535 5.7.8 in the message only', row('smtp', 'rejected', '550', null, '550 5.7.8 account blocked'), true],
    ['SMTP 554 5.7.1 relay denied', row('smtp', 'rejected', '554', '554 5.7.1 Relay access denied'), true],
    ['SMTP 5.7.26 DMARC refusal is the receiver\'s policy', row('smtp', 'rejected', '550', null, '550 5.7.26 unauthenticated sender'), false],
    ['SMTP 550 5.1.1 unknown user', row('smtp', 'rejected', '550', '550 5.1.1 User unknown'), false],
    ['SMTP 550 without an enhanced code', row('smtp', 'rejected', '550', '550 mailbox unavailable'), false],
    ['SMTP 5.7.1 in free text is not an enhanced code', row('smtp', 'rejected', '554', '554 spam score 5.7.1 too high'), false],
    ['SMTP 451 4.7.0 is transient, not rejected', row('smtp', 'transient', '451', '451 4.7.0 Try again later'), false],
    ['HTTP email API 401', row('http_api', 'rejected', 'HTTP_401'), true],
    ['HTTP email API 403', row('http_api', 'rejected', 'HTTP_403'), true],
    ['HTTP email API 422', row('http_api', 'rejected', 'HTTP_422'), false],
    ['webhook receiver 401', row('webhook', 'rejected', 'HTTP_401'), true],
    ['webhook receiver 404 (endpoint, not credentials)', row('webhook', 'rejected', 'HTTP_404'), false],
    ['SMS Twilio 20003', row('sms_api', 'rejected', '20003'), true],
    ['SMS HTTP 401 without a Twilio code', row('sms_api', 'rejected', 'HTTP_401'), true],
    ['SMS 21211 invalid number', row('sms_api', 'rejected', '21211'), false],
    ['SMS 21212 invalid sender (configuration, not credentials)', row('sms_api', 'rejected', '21212'), false],
    ['accepted', row('smtp', 'accepted', null), false],
    ['attempt still running', row('http_api', null, null), false],
    ['code in lower case', row('http_api', 'rejected', 'http_401'), true],
  ])('%s → %s', (_name, a, expected) => {
    expect(isAuthRejection(a)).toBe(expected);
  });
});

describe('providerAuthFailure (newest decisive attempt decides)', () => {
  const a = (outcome: OutcomeClass, errorCode: string | null, time: string, response: string | null = null): DecisiveAttempt => ({
    provider: 'http_api',
    outcome,
    errorCode,
    errorMessage: null,
    providerResponse: response,
    at: at(time),
  });
  it('the newest is a 401 → failing, with its instant and code', () => {
    expect(providerAuthFailure([a('rejected', 'HTTP_401', '12:05:00', '{"name":"unauthorized"}'), a('accepted', null, '12:00:00')])).toEqual({
      provider: 'http_api',
      at: at('12:05:00'),
      code: 'HTTP_401',
      message: '{"name":"unauthorized"}',
    });
  });
  it('an acceptance after the 401 → not failing', () => {
    expect(providerAuthFailure([a('accepted', null, '12:06:00'), a('rejected', 'HTTP_401', '12:05:00')])).toBeNull();
  });
  it('a rejection that says nothing about credentials is skipped', () => {
    expect(providerAuthFailure([a('rejected', 'HTTP_422', '12:06:00'), a('rejected', 'HTTP_403', '12:05:00')])?.code).toBe('HTTP_403');
    expect(providerAuthFailure([a('rejected', 'HTTP_422', '12:06:00'), a('accepted', null, '12:05:00')])).toBeNull();
  });
  it('no attempts → not failing', () => {
    expect(providerAuthFailure([])).toBeNull();
  });
});

describe('conditionHolds', () => {
  const now = at('12:00:00');
  it.each<[string, AlertObservation, boolean, boolean]>([
    ['1 dead letter', { condition: 'dead_letters', count: 1, firstAt: null, lastAt: null }, false, true],
    ['no dead letters', { condition: 'dead_letters', count: 0, firstAt: null, lastAt: null }, true, false],
    ['2 unknown outcomes', { condition: 'unknown_outcomes', count: 2, firstAt: null, lastAt: null }, false, true],
    ['lag p95 61 s over 60 s', { condition: 'dispatch_lag', p95Ms: 61_000, samples: 5, thresholdMs: 60_000 }, false, true],
    ['lag p95 exactly the threshold', { condition: 'dispatch_lag', p95Ms: 60_000, samples: 5, thresholdMs: 60_000 }, false, false],
    ['no sends in the window', { condition: 'dispatch_lag', p95Ms: null, samples: 0, thresholdMs: 60_000 }, true, false],
    ['oldest due 601 s over 600 s', { condition: 'oldest_due', oldestDueAt: at('11:49:59'), waiting: 3, thresholdSeconds: 600 }, false, true],
    ['oldest due exactly 600 s', { condition: 'oldest_due', oldestDueAt: at('11:50:00'), waiting: 3, thresholdSeconds: 600 }, false, false],
    ['nothing due', { condition: 'oldest_due', oldestDueAt: null, waiting: 0, thresholdSeconds: 600 }, true, false],
    ['401 five minutes ago', { condition: 'provider_auth', failures: [{ provider: 'http_api', at: at('11:55:00'), code: 'HTTP_401', message: '' }] }, false, true],
    ['401 twenty minutes ago does not start', { condition: 'provider_auth', failures: [{ provider: 'http_api', at: at('11:40:00'), code: 'HTTP_401', message: '' }] }, false, false],
    ['401 twenty minutes ago keeps an active one', { condition: 'provider_auth', failures: [{ provider: 'http_api', at: at('11:40:00'), code: 'HTTP_401', message: '' }] }, true, true],
    ['no failing provider', { condition: 'provider_auth', failures: [] }, true, false],
    ['last sweep 3 min 1 s ago', { condition: 'worker_heartbeat', lastSweepAt: at('11:56:59') }, false, true],
    ['last sweep exactly 3 min ago', { condition: 'worker_heartbeat', lastSweepAt: at('11:57:00') }, false, false],
    ['no worker ever seen', { condition: 'worker_heartbeat', lastSweepAt: null }, false, false],
  ])('%s', (_name, obs, wasActive, expected) => {
    expect(conditionHolds(obs, wasActive, now)).toBe(expected);
  });
});

/** Runs a sequence of evaluations, returning each decision. */
function run(steps: { now: Date; obs: AlertObservation; canNotify?: boolean }[], start: AlertStateSnapshot = idleAlertState) {
  let s = start;
  return steps.map((step) => {
    const d = decideAlert(s, step.obs, { now: step.now, canNotify: step.canNotify ?? true });
    s = d.next;
    return d;
  });
}
const dead = (count: number, firstAt: Date | null, lastAt: Date | null): AlertObservation => ({ condition: 'dead_letters', count, firstAt, lastAt });

describe('decideAlert: count conditions are grouped into one start', () => {
  it('nothing observed, nothing changes', () => {
    const d = decideAlert(idleAlertState, dead(0, null, null), { now: at('12:00:00'), canNotify: true });
    expect(d).toEqual({ next: idleAlertState, changed: false, notify: null });
  });

  it('50 dead letters within two minutes → one start naming 50 once a minute passed without a new one', () => {
    const [a, b, c, d, e] = run([
      { now: at('12:00:30'), obs: dead(20, at('12:00:05'), at('12:00:29')) },
      { now: at('12:01:30'), obs: dead(45, at('12:00:05'), at('12:01:28')) },
      { now: at('12:02:30'), obs: dead(50, at('12:00:05'), at('12:02:04')) },
      { now: at('12:03:04'), obs: dead(50, at('12:00:05'), at('12:02:04')) },
      { now: at('12:04:00'), obs: dead(50, at('12:00:05'), at('12:02:04')) },
    ]);
    expect(a.next).toMatchObject({ active: true, episode: 1, startedAt: at('12:00:30'), itemCount: 20, firstItemAt: at('12:00:05'), startNotified: false });
    expect([a.notify, b.notify, c.notify]).toEqual([null, null, null]);
    expect(d.notify).toBe('started');
    expect(d.next).toMatchObject({ itemCount: 50, startNotified: true, lastStartAlertAt: at('12:03:04'), detail: '50 new dead letters, first at Mon 1 Mar 2027, 12:00:05 UTC' });
    // Re-evaluating changes nothing and plans nothing.
    expect(e.notify).toBeNull();
    expect(e.changed).toBe(false);
  });

  it('a burst that never pauses is sent 5 minutes after its first item, naming the count then', () => {
    const steps = Array.from({ length: 7 }, (_, i) => ({
      now: new Date(at('12:00:00').getTime() + i * 60_000),
      obs: dead(10 * (i + 1), at('12:00:00'), new Date(at('12:00:00').getTime() + i * 60_000)),
    }));
    const ds = run(steps);
    expect(ds.map((d) => d.notify)).toEqual([null, null, null, null, null, 'started', null]);
    expect(ds[5].next.detail).toBe('60 new dead letters, first at Mon 1 Mar 2027, 12:00:00 UTC');
    expect(ALERT_GROUP_MAX_MS).toBe(5 * 60_000);
  });

  it('a test quiet period (PUNCTUAL_ALERT_QUIET_MS) replaces the minute; the 5-minute cap and hourly limit stay', () => {
    const one: AlertStateSnapshot = { ...idleAlertState, active: true, episode: 1, itemCount: 1, startedAt: at('12:00:00'), firstItemAt: at('12:00:00'), lastItemAt: at('12:00:00') };
    expect(startHold('dead_letters', one, at('12:00:01'), { quietMs: 2_000 })).toEqual({ kind: 'grouping', until: at('12:00:02') });
    expect(startHold('dead_letters', one, at('12:00:02'), { quietMs: 2_000 })).toBeNull();
    expect(startHold('dead_letters', one, at('12:00:02'))).toEqual({ kind: 'grouping', until: at('12:01:00') });
    const d = decideAlert(idleAlertState, dead(1, at('12:00:00'), at('12:00:00')), { now: at('12:00:03'), canNotify: true, timing: { quietMs: 2_000 } });
    expect(d.notify).toBe('started');
    const flap: AlertStateSnapshot = { ...one, lastStartAlertAt: at('11:30:00') };
    expect(startHold('dead_letters', flap, at('12:00:03'), { quietMs: 2_000 })).toMatchObject({ kind: 'hourly' });
  });

  it('without item instants, growth seen at an evaluation counts as a new item then', () => {
    const ds = run([
      { now: at('12:00:00'), obs: dead(3, null, null) },
      { now: at('12:00:40'), obs: dead(5, null, null) },
      { now: at('12:01:20'), obs: dead(5, null, null) },
      { now: at('12:01:40'), obs: dead(5, null, null) },
    ]);
    expect(ds.map((d) => d.notify)).toEqual([null, null, null, 'started']);
    expect(ds[3].next.detail).toBe('5 new dead letters, first at Mon 1 Mar 2027, 12:00:00 UTC');
  });

  it('an item instant later than now (a clock ahead) is taken as now', () => {
    const [d] = run([{ now: at('12:00:00'), obs: dead(1, at('12:05:00'), at('12:05:00')) }]);
    expect(d.next.firstItemAt).toEqual(at('12:00:00'));
    expect(d.next.lastItemAt).toEqual(at('12:00:00'));
  });

  it('the count follows the observation down; the first item instant stays', () => {
    const ds = run([
      { now: at('12:00:00'), obs: dead(4, at('11:59:00'), at('11:59:30')) },
      { now: at('12:01:00'), obs: dead(2, at('11:59:30'), at('11:59:30')) },
    ]);
    expect(ds[1].next).toMatchObject({ itemCount: 2, firstItemAt: at('11:59:00') });
  });

  it('unknown outcomes read as such', () => {
    const [d] = run([{ now: at('12:02:00'), obs: { condition: 'unknown_outcomes', count: 1, firstAt: at('12:00:00'), lastAt: at('12:00:00') } }]);
    expect(d.notify).toBe('started');
    expect(d.next.detail).toBe('1 new unknown outcome, first at Mon 1 Mar 2027, 12:00:00 UTC');
  });
});

describe('decideAlert: clears, flaps and the hourly limit', () => {
  it('cleared after its start was sent → one cleared message; again → nothing', () => {
    const ds = run([
      { now: at('12:02:00'), obs: dead(2, at('12:00:00'), at('12:00:00')) },
      { now: at('12:10:00'), obs: dead(0, null, null) },
      { now: at('12:11:00'), obs: dead(0, null, null) },
    ]);
    expect(ds.map((d) => d.notify)).toEqual(['started', 'cleared', null]);
    expect(ds[1].next).toMatchObject({ active: false, clearedAt: at('12:10:00'), episode: 1, startNotified: true });
    expect(ds[2].changed).toBe(false);
  });

  it('cleared before its start was sent (still grouping) → no message at all', () => {
    const ds = run([
      { now: at('12:00:10'), obs: dead(1, at('12:00:00'), at('12:00:00')) },
      { now: at('12:00:40'), obs: dead(0, null, null) },
    ]);
    expect(ds.map((d) => d.notify)).toEqual([null, null]);
    expect(ds[1].next).toMatchObject({ active: false, episode: 1, startNotified: false });
  });

  it('a flap within the hour is tracked (episode 2) but neither its start nor its clear is sent; still active after the hour → sent then', () => {
    const hb = (last: string): AlertObservation => ({ condition: 'worker_heartbeat', lastSweepAt: at(last) });
    const ds = run([
      { now: at('12:00:00'), obs: hb('11:56:00') }, // started, sent
      { now: at('12:05:00'), obs: hb('12:04:30') }, // cleared, sent
      { now: at('12:20:00'), obs: hb('12:16:00') }, // flap: episode 2, held
      { now: at('12:21:00'), obs: hb('12:20:50') }, // cleared, nothing sent
      { now: at('12:40:00'), obs: hb('12:36:00') }, // episode 3, held
      { now: at('12:59:59'), obs: hb('12:36:00') }, // still within the hour
      { now: at('13:00:00'), obs: hb('12:36:00') }, // the hour has passed: sent
    ]);
    expect(ds.map((d) => d.notify)).toEqual(['started', 'cleared', null, null, null, null, 'started']);
    expect(ds.map((d) => d.next.episode)).toEqual([1, 1, 2, 2, 3, 3, 3]);
    expect(startHeldReason('worker_heartbeat', ds[2].next, at('12:20:00'))).toBe(
      'an alert for this went out at Mon 1 Mar 2027, 12:00:00 UTC (at most one an hour); if it is still active at Mon 1 Mar 2027, 13:00:00 UTC it is sent then',
    );
    expect(ds[6].next.lastStartAlertAt).toEqual(at('13:00:00'));
  });

  it('nobody to tell: held until a route exists, then sent', () => {
    const ds = run([
      { now: at('12:02:00'), obs: dead(1, at('12:00:00'), at('12:00:00')), canNotify: false },
      { now: at('12:03:00'), obs: dead(1, at('12:00:00'), at('12:00:00')), canNotify: false },
      { now: at('12:04:00'), obs: dead(1, at('12:00:00'), at('12:00:00')), canNotify: true },
    ]);
    expect(ds.map((d) => d.notify)).toEqual([null, null, 'started']);
    expect(ds[1].next.lastStartAlertAt).toBeNull();
  });

  it('a clear of an unsent episode is not sent, and a later start is not limited by it', () => {
    const ds = run([
      { now: at('12:02:00'), obs: dead(1, at('12:00:00'), at('12:00:00')), canNotify: false },
      { now: at('12:05:00'), obs: dead(0, null, null) },
      { now: at('12:08:00'), obs: dead(1, at('12:06:00'), at('12:06:00')) },
    ]);
    expect(ds.map((d) => d.notify)).toEqual([null, null, 'started']);
    expect(ds[2].next.episode).toBe(2);
  });
});

describe('decideAlert: the other conditions alert at their first evaluation', () => {
  it('dispatch lag over the threshold starts and clears', () => {
    const ds = run([
      { now: at('12:00:00'), obs: { condition: 'dispatch_lag', p95Ms: 95_000, samples: 40, thresholdMs: 60_000 } },
      { now: at('12:01:00'), obs: { condition: 'dispatch_lag', p95Ms: 2_000, samples: 40, thresholdMs: 60_000 } },
    ]);
    expect(ds.map((d) => d.notify)).toEqual(['started', 'cleared']);
    expect(ds[0].next.detail).toBe('Dispatch lag p95 is 1 min over the last 5 minutes (threshold 1 min; 40 sends)');
    expect(ds[0].next.itemCount).toBe(40);
  });

  it('oldest due reminder over the threshold', () => {
    const [d] = run([{ now: at('12:00:00'), obs: { condition: 'oldest_due', oldestDueAt: at('11:45:00'), waiting: 7, thresholdSeconds: 600 } }]);
    expect(d.notify).toBe('started');
    expect(d.next).toMatchObject({ firstItemAt: at('11:45:00'), itemCount: 7 });
    expect(d.next.detail).toBe('The oldest due reminder has waited 15 min (due Mon 1 Mar 2027, 11:45:00 UTC; threshold 10 min; 7 reminders waiting)');
  });

  it('provider auth: started by a recent 401, kept by an old one, cleared when none fails', () => {
    const f = (time: string) => ({ provider: 'http_api' as const, at: at(time), code: 'HTTP_401', message: '{"name":"unauthorized"}' });
    const ds = run([
      { now: at('12:00:00'), obs: { condition: 'provider_auth', failures: [f('11:59:58')] } },
      { now: at('12:30:00'), obs: { condition: 'provider_auth', failures: [f('11:59:58')] } },
      { now: at('12:31:00'), obs: { condition: 'provider_auth', failures: [] } },
    ]);
    expect(ds.map((d) => d.notify)).toEqual(['started', null, 'cleared']);
    expect(ds[0].next.detail).toBe('The HTTP email API refused our credentials: {"name":"unauthorized"} (at Mon 1 Mar 2027, 11:59:58 UTC)');
  });

  it('heartbeat: detail names the last sweep', () => {
    const [d] = run([{ now: at('12:05:00'), obs: { condition: 'worker_heartbeat', lastSweepAt: at('12:00:00') } }]);
    expect(d.notify).toBe('started');
    expect(d.next.detail).toBe('No worker has run its minute sweep since Mon 1 Mar 2027, 12:00:00 UTC (5 min ago)');
  });
});

describe('startHeldReason', () => {
  const s = (o: Partial<AlertStateSnapshot>): AlertStateSnapshot => ({ ...idleAlertState, active: true, episode: 1, ...o });
  it('names when a burst will be sent at the latest', () => {
    expect(startHeldReason('dead_letters', s({ firstItemAt: at('12:00:00'), lastItemAt: at('12:00:30') }), at('12:01:00'))).toBe(
      'waiting until no new one has appeared for a minute, so a burst is one alert (sent by Mon 1 Mar 2027, 12:01:30 UTC at the latest)',
    );
  });
  it('nothing holds a non-count condition back but the hour', () => {
    expect(startHeldReason('oldest_due', s({ firstItemAt: at('12:00:00'), lastItemAt: at('12:00:30') }), at('12:01:00'))).toBeNull();
  });
});

describe('message keys and links', () => {
  it('key shape alert:<tenant>:<condition>:<episode>:<transition>:<route>:<recipient>, recipient read back', () => {
    const key = alertMessageKey({ tenantId: 't-1', condition: 'dead_letters', episode: 3, transition: 'started', route: 'email', recipient: 'user:with:colons' });
    expect(key).toBe('alert:t-1:dead_letters:3:started:email:user:with:colons');
    expect(recipientOfKey(key)).toBe('user:with:colons');
    expect(recipientOfKey('nudge:x')).toBeNull();
  });
  it.each([
    ['dead_letters', [], '/attention'],
    ['unknown_outcomes', [], '/attention'],
    ['dispatch_lag', [], '/'],
    ['oldest_due', [], '/'],
    ['worker_heartbeat', [], '/'],
    ['provider_auth', [{ provider: 'http_api', at: at('12:00:00'), code: 'HTTP_401', message: '' }], '/attention?channel=email'],
    ['provider_auth', [{ provider: 'sms_api', at: at('12:00:00'), code: '20003', message: '' }], '/attention?channel=sms'],
    [
      'provider_auth',
      [
        { provider: 'sms_api', at: at('12:00:00'), code: '20003', message: '' },
        { provider: 'smtp', at: at('12:00:00'), code: '535', message: '' },
      ],
      '/attention',
    ],
  ] as const)('%s → %s', (condition, failures, path) => {
    expect(alertPath(condition, [...failures]).path).toBe(path);
  });
  it('absolute links with or without a trailing slash', () => {
    expect(absoluteLink('https://app.example.test/', '/attention')).toBe('https://app.example.test/attention');
    expect(absoluteLink('https://app.example.test', '/')).toBe('https://app.example.test/');
  });
});

describe('alertTexts', () => {
  const started: AlertStateSnapshot = { ...idleAlertState, active: true, episode: 1, startedAt: at('12:03:00'), itemCount: 12, firstItemAt: at('12:00:05'), detail: '12 new dead letters, first at Mon 1 Mar 2027, 12:00:05 UTC', startNotified: true };
  it('a start: subject names the group, the text ends with the link, Slack links as <url|label>', () => {
    const t = alertTexts({ tenantName: 'Acme <Ops>', condition: 'dead_letters', transition: 'started', state: started, link: 'https://app.example.test/attention', linkLabel: 'Open Needs attention' });
    expect(t.subject).toBe('[Punctual] Acme <Ops>: 12 new dead letters, first at Mon 1 Mar 2027, 12:00:05 UTC');
    expect(t.text).toContain('Open Needs attention: https://app.example.test/attention');
    expect(t.slack).toContain('<https://app.example.test/attention|Open Needs attention>');
    expect(t.slack).toContain('*Acme &lt;Ops&gt;*');
  });
  it('a clear says how long it lasted', () => {
    const t = alertTexts({ tenantName: 'Acme', condition: 'dead_letters', transition: 'cleared', state: { ...started, active: false, clearedAt: at('12:20:00') }, link: 'https://x.test/attention', linkLabel: 'Open Needs attention' });
    expect(t.subject).toBe('[Punctual] Acme: Cleared: no dead letters left after 17 min');
    expect(t.text).toContain('It started at Mon 1 Mar 2027, 12:03:00 UTC: 12 new dead letters, first at Mon 1 Mar 2027, 12:00:05 UTC.');
  });
  it('instants are written in the tenant zone, never as a raw ISO instant (issue #12)', () => {
    const d = decideAlert(idleAlertState, { condition: 'dead_letters', count: 1, firstAt: at('12:00:05'), lastAt: at('12:00:05') }, { now: at('12:03:00'), canNotify: true, zone: 'Europe/Amsterdam' });
    expect(d.next.detail).toBe('1 new dead letter, first at Mon 1 Mar 2027, 13:00:05 CET');
    const t = alertTexts({ tenantName: 'Acme', condition: 'dead_letters', transition: 'cleared', state: { ...d.next, active: false, clearedAt: at('12:20:00') }, link: 'https://x.test/attention', linkLabel: 'Open Needs attention', zone: 'Europe/Amsterdam' });
    expect(t.text).toContain('It started at Mon 1 Mar 2027, 13:03:00 CET: 1 new dead letter, first at Mon 1 Mar 2027, 13:00:05 CET.');
    const iso = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
    for (const x of [d.next.detail ?? '', t.subject, t.text, t.slack]) expect(x).not.toMatch(iso);
    const held = startHeldReason('dead_letters', { ...d.next, startNotified: false, lastStartAlertAt: at('12:30:00') }, at('12:40:00'), {}, 'Europe/Amsterdam');
    expect(held).toBe('an alert for this went out at Mon 1 Mar 2027, 13:30:00 CET (at most one an hour); if it is still active at Mon 1 Mar 2027, 14:30:00 CET it is sent then');
    const retry = decideAlertSend({ outcome: { class: 'transient', code: '421' }, attempts: 1, policy: { baseMs: 15_000, capMs: 15_000, maxAttempts: 3 }, now: at('12:00:00'), random: 0, zone: 'Europe/Amsterdam' });
    expect(retry).toMatchObject({ status: 'retrying' });
    expect((retry as { reason: string }).reason).not.toMatch(iso);
    expect((retry as { reason: string }).reason).toMatch(/next attempt at Mon 1 Mar 2027, 13:00:\d\d CET$/);
  });
  it('a provider_auth alert about the email provider says it is not emailed', () => {
    const t = alertTexts({ tenantName: 'Acme', condition: 'provider_auth', transition: 'started', state: { ...started, detail: 'x' }, link: 'https://x.test/attention?channel=email', linkLabel: 'Open Needs attention', emailSkipped: true });
    expect(t.slack).toContain('not emailed');
  });
  it('slackEscape escapes the three control characters', () => {
    expect(slackEscape('a & <b> c')).toBe('a &amp; &lt;b&gt; c');
  });
});

describe('decideAlertSend', () => {
  const now = at('12:00:00');
  it.each([
    ['accepted', { class: 'accepted' as const }, 1, { status: 'sent' }],
    ['rejected', { class: 'rejected' as const, code: 'HTTP_404', message: 'no_service' }, 1, { status: 'failed', reason: 'refused: rejected (HTTP_404: no_service)' }],
    ['transient, first attempt, draw 0.5', { class: 'transient' as const, code: 'ECONNREFUSED' }, 1, { status: 'retrying', nextAttemptAt: new Date(now.getTime() + 7_500) }],
    ['rate limited, Retry-After 30 s', { class: 'rate_limited' as const, code: 'HTTP_429', retryAfterMs: 30_000 }, 2, { status: 'retrying', nextAttemptAt: new Date(now.getTime() + 30_000) }],
    ['ambiguous is retried', { class: 'ambiguous' as const, code: 'ETIMEDOUT' }, 3, { status: 'retrying', nextAttemptAt: new Date(now.getTime() + 30_000) }],
    ['budget spent', { class: 'transient' as const, code: 'ECONNREFUSED' }, alertRetryPolicy.maxAttempts, { status: 'failed' }],
  ])('%s', (_n, outcome, attempts, expected) => {
    expect(decideAlertSend({ outcome, attempts, policy: alertRetryPolicy, now, random: 0.5 })).toMatchObject(expected);
  });
});

describe('formatting', () => {
  it.each([
    [0, '0 s'],
    [59_999, '59 s'],
    [60_000, '1 min'],
    [3_599_000, '59 min'],
    [3_600_000, '1 h'],
    [3_900_000, '1 h 5 min'],
    [90_000_000, '1 d 1 h'],
    [-5, '0 s'],
  ])('formatDuration(%i) = %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
  it('alertTime writes an instant to the second in the tenant zone, never as an ISO instant', () => {
    expect(alertTime(new Date('2027-03-01T12:00:05.123Z'), 'UTC')).toBe('Mon 1 Mar 2027, 12:00:05 UTC');
    expect(alertTime(new Date('2027-03-01T12:00:05.123Z'), 'Europe/Amsterdam')).toBe('Mon 1 Mar 2027, 13:00:05 CET');
  });
  it('maskWebhookUrl keeps scheme and host only', () => {
    expect(maskWebhookUrl('https://hooks.slack.com/services/T000/B000/XXXX')).toBe('https://hooks.slack.com/…');
    expect(maskWebhookUrl(null)).toBeNull();
  });
  it('alertEmailHtml escapes and links', () => {
    const html = alertEmailHtml('3 new <dead> letters\n\nOpen: https://x.test/attention?a=1&b=2', 'https://x.test/attention?a=1&b=2');
    expect(html).toContain('<strong>3 new &lt;dead&gt; letters</strong>');
    expect(html).toContain('<a href="https://x.test/attention?a=1&amp;b=2">');
  });
});

describe('alertBannerLine', () => {
  const s: AlertStateSnapshot = { ...idleAlertState, active: true, episode: 1, itemCount: 3, startNotified: true };
  const hm = (d: Date) => d.toISOString().slice(11, 16);
  const sent = { hold: null, hasRecipients: true, formatAt: hm };
  const none = { peopleSent: 0, slackSent: false, pending: 0, failed: 0 };
  it('"3 new dead letters since 12:01 — alert sent to 2 people"', () => {
    expect(alertBannerLine('dead_letters', s, '12:01', { peopleSent: 2, slackSent: false, pending: 0, failed: 0 }, sent)).toBe('3 new dead letters since 12:01 — alert sent to 2 people');
  });
  it('people and Slack, one still on its way', () => {
    expect(alertBannerLine('dead_letters', s, '12:01', { peopleSent: 1, slackSent: true, pending: 1, failed: 0 }, sent)).toBe(
      '3 new dead letters since 12:01 — alert sent to 1 person and Slack (1 still on the way)',
    );
  });
  // The walkthrough: one dead letter at 12:00:00 with two staff and a Slack URL set up — held for grouping, then
  // (after the quiet minute, before the next sweep sends it) never "no recipient is set up".
  const oneDead: AlertStateSnapshot = { ...idleAlertState, active: true, episode: 1, itemCount: 1, startNotified: false, startedAt: at('12:00:00'), firstItemAt: at('12:00:00'), lastItemAt: at('12:00:00') };
  it('held for the grouping window: says when it goes out', () => {
    const hold = startHold('dead_letters', oneDead, at('12:00:20'));
    expect(hold).toEqual({ kind: 'grouping', until: at('12:01:00') });
    expect(alertBannerLine('dead_letters', oneDead, '12:00', none, { hold, hasRecipients: true, formatAt: hm })).toBe(
      '1 new dead letter since 12:00 — alert goes out when no new dead letter has come for a minute (at the latest 5 min after the first)',
    );
    expect(alertBannerLine('unknown_outcomes', oneDead, '12:00', none, { hold, hasRecipients: true, formatAt: hm })).toBe(
      '1 new unknown outcome since 12:00 — alert goes out when no new unknown outcome has come for a minute (at the latest 5 min after the first)',
    );
  });
  it('grouping over but the sweep has not sent it yet: goes out at the next check, not "no recipient"', () => {
    const hold = startHold('dead_letters', oneDead, at('12:01:05'));
    expect(hold).toBeNull();
    const line = alertBannerLine('dead_letters', oneDead, '12:00', none, { hold, hasRecipients: true, formatAt: hm });
    expect(line).toBe('1 new dead letter since 12:00 — alert goes out at the next check (within a minute)');
    expect(line).not.toContain('no recipient');
  });
  it('a flap within the hour: held, naming when the last one went out and when it would be sent', () => {
    const flap: AlertStateSnapshot = { ...oneDead, episode: 2, startedAt: at('12:30:00'), firstItemAt: at('12:30:00'), lastItemAt: at('12:30:00'), lastStartAlertAt: at('12:03:00') };
    const hold = startHold('dead_letters', flap, at('12:35:00'));
    expect(hold).toEqual({ kind: 'hourly', lastAt: at('12:03:00'), retryAt: at('13:03:00') });
    expect(alertBannerLine('dead_letters', flap, '12:30', none, { hold, hasRecipients: true, formatAt: hm })).toBe(
      '1 new dead letter since 12:30 — alert held: one went out at 12:03 (at most one an hour); sent at 13:03 if still active',
    );
  });
  it('no email recipient and no Slack URL: "no recipient is set up", whatever the hold', () => {
    const held = { ...s, startNotified: false };
    expect(alertBannerLine('oldest_due', held, '12:01', none, { hold: null, hasRecipients: false, formatAt: hm })).toBe(
      'A due reminder is waiting longer than your threshold (since 12:01) — no alert sent: no recipient is set up',
    );
    expect(alertBannerLine('dead_letters', oneDead, '12:00', none, { hold: startHold('dead_letters', oneDead, at('12:00:20')), hasRecipients: false, formatAt: hm })).toBe(
      '1 new dead letter since 12:00 — no alert sent: no recipient is set up',
    );
  });
  it('every send failed', () => {
    expect(alertBannerLine('provider_auth', s, '12:01', { peopleSent: 0, slackSent: false, pending: 0, failed: 1 }, sent)).toBe(
      'A provider refuses our credentials (since 12:01) — the alert could not be sent (see Alerts)',
    );
  });
});
