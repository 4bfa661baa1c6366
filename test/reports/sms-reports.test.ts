/**
 * Delivery reports from the SMS provider (issue #10 §1–3): Twilio-style status callbacks POSTed by the SMS peer,
 * signed with X-Twilio-Signature, over HTTP to the intake function — delivered, undelivered with STOP (the number
 * suppressed for SMS only), multi-part messages, a report that races ahead of the send's own commit, and the field
 * checks. Peers, harness and helpers: ./report-harness.ts.
 */
import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { findSuppression } from '@/db/queries/suppressions/send-time';
import { deliveries, deliveryReports, suppressions } from '@/db/schema';
import { formParams, twilioSignature } from '@/domain/reports/twilio-signature';
import { booked, callbackUrl, db, deliveryRows, h, liveSuppressions, mailApi, reload, sms, tenantWith, useReportHarness } from './report-harness';

useReportHarness();

describe('SMS status callbacks (X-Twilio-Signature)', () => {
  /** A tenant whose attendee takes reminders on `channels` (SMS only by default), a day before (and, with `more`, two hours before). */
  async function smsSetup(channels: ('email' | 'sms')[] = ['sms'], more = false) {
    const t = await tenantWith(more ? [{ offset: '-P1D' }, { offset: '-PT2H' }] : [{ offset: '-P1D' }]);
    await booked(t.id, '2027-06-02T09:00:00Z', { email: 'sam@example.test', phone: '+31612345678', channels }, '2027-05-20T09:00:00Z');
    await h.tick('2027-06-01T09:00:00Z');
    const [d] = (await deliveryRows()).filter((x) => x.channel === 'sms');
    expect([d.status, d.address]).toEqual(['accepted', '+31612345678']);
    expect(sms.messages).toHaveLength(1);
    expect(sms.messages[0].statusCallback).toBe(callbackUrl);
    return { t, d, sid: sms.messages[0].sid };
  }
  const smsReports = () => db().select().from(deliveryReports).orderBy(asc(deliveryReports.receivedAt));

  it('delivered → delivered; the same callback again is processed once', async () => {
    const { d, sid } = await smsSetup();
    expect(d.providerMessageId).toBe(sid);
    expect(await sms.statusCallback(sid, 'sent')).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'accepted' } });
    expect(await sms.statusCallback(sid, 'delivered')).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'delivered' } });
    expect(await sms.statusCallback(sid, 'delivered')).toMatchObject({ status: 200, body: { status: 'duplicate' } });
    expect((await reload(d)).status).toBe('delivered');
    const rows = await smsReports();
    expect(rows.map((r) => [r.providerEventId, r.kind])).toEqual([
      [`${sid}:sent`, 'sent'],
      [`${sid}:delivered`, 'delivered'],
    ]);
  });

  it('a bad X-Twilio-Signature → 401, nothing stored', async () => {
    const { d, sid } = await smsSetup();
    expect(await sms.statusCallback(sid, 'undelivered', { ErrorCode: '21610' }, { signWith: 'not-the-token' })).toMatchObject({ status: 401 });
    expect(await sms.statusCallback(sid, 'delivered', {}, { signature: '' })).toMatchObject({ status: 401, body: { error: 'X-Twilio-Signature missing' } });
    // Signed for another URL (a callback meant for a different endpoint, replayed here) is refused as well.
    const params = { MessageSid: sid, MessageStatus: 'failed' };
    const wrongUrl = await fetch(callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(sms.authToken, 'https://elsewhere.example/cb', params) },
      body: new URLSearchParams(params).toString(),
    });
    expect(wrongUrl.status).toBe(401);
    expect(await smsReports()).toHaveLength(0);
    expect((await reload(d)).status).toBe('accepted');
    expect(await db().select().from(suppressions)).toHaveLength(0);
  });

  it('undelivered with 21610 → the number suppressed for SMS only: the next SMS is suppressed, the email to the same person still goes', async () => {
    const { t, d, sid } = await smsSetup(['sms', 'email'], true);
    expect(mailApi.messages.map((m) => m.to)).toEqual(['sam@example.test']);
    expect(await sms.statusCallback(sid, 'undelivered', { ErrorCode: '21610' })).toMatchObject({ status: 200, body: { deliveryStatus: 'failed' } });
    const failed = await reload(d);
    expect(failed.status).toBe('failed');
    expect(failed.statusReason).toContain('error 21610');
    const sup = await liveSuppressions(t.id);
    expect(sup.map((s) => [s.address, s.channel, s.reason])).toEqual([['+31612345678', 'sms', 'unsubscribed']]);
    expect(sup[0].source).toBe('undelivered reported by sms_api at 2027-06-01T09:00:00.000Z: Attempt to send to unsubscribed recipient (replied STOP)');
    expect(await findSuppression(db(), [t.id], '+31612345678', 'sms')).not.toBeNull();
    expect(await findSuppression(db(), [t.id], 'sam@example.test', 'email')).toBeNull();

    await h.tick('2027-06-02T07:00:00Z');
    expect((await deliveryRows()).map((x) => [x.channel, x.status]).sort()).toEqual([
      ['email', 'accepted'],
      ['email', 'accepted'],
      ['sms', 'failed'],
      ['sms', 'suppressed'],
    ]);
    expect(sms.messages).toHaveLength(1);
    expect(mailApi.messages.map((m) => m.to)).toEqual(['sam@example.test', 'sam@example.test']);
  });

  it('a 2-part SMS: part 0 delivered, part 1 undelivered → failed, reason partial', async () => {
    const { d, sid } = await smsSetup();
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '0', NumSegments: '2' })).toMatchObject({ status: 200, body: { deliveryStatus: 'accepted' } });
    expect(await sms.statusCallback(sid, 'undelivered', { PartIndex: '1', NumSegments: '2', ErrorCode: '30003' })).toMatchObject({ status: 200, body: { deliveryStatus: 'failed' } });
    const after = await reload(d);
    expect(after.status).toBe('failed');
    expect(after.statusReason).toBe('partial: part 2 of 2 undelivered (error 30003: Unreachable destination handset); 1 of 2 delivered');
    expect((await smsReports()).map((r) => [r.providerEventId, r.partIndex, r.partCount])).toEqual([
      [`${sid}:delivered:0`, 0, 2],
      [`${sid}:undelivered:1`, 1, 2],
    ]);
    // 30003 (unreachable) suppresses nothing: it may work next time.
    expect(await db().select().from(suppressions)).toHaveLength(0);
    // A malformed part report names its field.
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '2', NumSegments: '2' })).toMatchObject({ status: 400, body: { field: 'PartIndex' } });
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '1' })).toMatchObject({ status: 400, body: { field: 'NumSegments' } });
  });

  it('a report racing ahead of the send’s own commit is kept (202) and adopted when the send records the message id', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-06-02T09:00:00Z', { email: 'fast@example.test', phone: '+31612345679', channels: ['sms'] }, '2027-05-20T09:00:00Z');
    sms.script('delay:1'); // the provider stores the message, then answers a second later
    const sending = h.tick('2027-06-01T09:00:00Z');
    for (let i = 0; sms.messages.length === 0; i++) {
      if (i > 250) throw new Error('the SMS never reached the provider');
      await new Promise((r) => setTimeout(r, 20));
    }
    const sid = sms.messages[0].sid;
    const early = await sms.statusCallback(sid, 'delivered');
    expect(early).toMatchObject({ status: 202, body: { status: 'unmatched' } });
    const [waiting] = await smsReports();
    expect(waiting.deliveryId).toBeNull();
    await sending;
    const [d] = await deliveryRows();
    expect(d.providerMessageId).toBe(sid);
    expect(d.status).toBe('delivered');
    const [adopted] = await smsReports();
    expect(adopted).toMatchObject({ id: waiting.id, deliveryId: d.id, tenantId: t.id, address: '+31612345679' });
    expect(adopted.effect).toBe('accepted → delivered');
    // A repeat of it now is a duplicate: processed once.
    expect(await sms.statusCallback(sid, 'delivered')).toMatchObject({ status: 200, body: { status: 'duplicate' } });
  });

  /** POSTs `body` verbatim to the report route, signed with the peer's token as Twilio signs it. */
  const rawCallback = (body: string, contentType = 'application/x-www-form-urlencoded') =>
    fetch(callbackUrl, {
      method: 'POST',
      headers: { 'content-type': contentType, 'x-twilio-signature': twilioSignature(sms.authToken, callbackUrl, formParams(body)) },
      body,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

  it('a repeated parameter (MessageStatus=delivered&MessageStatus=failed, either order: the same signature) → 400 naming it, nothing stored', async () => {
    const { d, sid } = await smsSetup();
    for (const body of [`MessageSid=${sid}&MessageStatus=delivered&MessageStatus=failed`, `MessageSid=${sid}&MessageStatus=failed&MessageStatus=delivered`, `MessageSid=${sid}&MessageStatus=delivered&MessageStatus=delivered`]) {
      const a = await rawCallback(body);
      expect([body, a.status, a.body.field]).toEqual([body, 400, 'MessageStatus']);
      expect(a.body.error).toBe('MessageStatus: given more than once (a status callback names each parameter once)');
    }
    expect((await rawCallback(`MessageSid=${sid}&MessageStatus=delivered&ErrorCode=30003&ErrorCode=0`)).body).toMatchObject({ field: 'ErrorCode' });
    expect(await smsReports()).toHaveLength(0);
    expect((await reload(d)).status).toBe('accepted');
    // Still a signature check first: a forged repeat is 401.
    expect((await fetch(callbackUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'AAAA' }, body: `MessageSid=${sid}&MessageStatus=a&MessageStatus=b` })).status).toBe(401);
  });

  it('an unknown MessageStatus → 400 naming it with the allowed values; a known non-report status (canceled) stays 200 ignored', async () => {
    const { d, sid } = await smsSetup();
    const a = await sms.statusCallback(sid, 'exploded');
    expect(a).toMatchObject({ status: 400, body: { field: 'MessageStatus' } });
    expect((a.body as { error: string }).error).toBe(
      'MessageStatus: "exploded" is not a status: queued, accepted, scheduled, sending, sent, delivered, read, undelivered, failed, canceled, receiving, received, partially_delivered',
    );
    expect(await sms.statusCallback(sid, 'canceled')).toMatchObject({ status: 200, body: { status: 'ignored' } });
    expect(await smsReports()).toHaveLength(0);
    expect((await reload(d)).status).toBe('accepted');
    // A form callback with another content type is refused before anything is read.
    expect(await rawCallback(`MessageSid=${sid}&MessageStatus=delivered`, 'application/json')).toMatchObject({ status: 415, body: { field: 'content-type' } });
  });

  it('NumSegments above 25 or PartIndex not below NumSegments → 400 naming the field and the real limit; parts disagreeing on the count do not leave it accepted', async () => {
    const { d, sid } = await smsSetup();
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '0', NumSegments: '9999' })).toMatchObject({
      status: 400,
      body: { field: 'NumSegments', error: 'NumSegments: must be a whole number from 1 to 25 (the most parts one SMS can be sent as)' },
    });
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '99999', NumSegments: '2' })).toMatchObject({
      status: 400,
      body: { field: 'PartIndex', error: 'PartIndex: must be a whole number from 0 to 1 (below NumSegments 2)' },
    });
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '-1', NumSegments: '2' })).toMatchObject({ status: 400, body: { field: 'PartIndex' } });
    expect(await smsReports()).toHaveLength(0);
    // Part 0 says 10 parts, part 1 says 2: both delivered → delivered (2 parts), not accepted forever.
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '0', NumSegments: '10' })).toMatchObject({ status: 200, body: { deliveryStatus: 'accepted' } });
    expect(await sms.statusCallback(sid, 'delivered', { PartIndex: '1', NumSegments: '2' })).toMatchObject({ status: 200, body: { deliveryStatus: 'delivered' } });
    expect((await reload(d)).statusReason).toBe('all 2 parts delivered by 2027-06-01T09:00:00.000Z');
  });

  it('RawDlrDoneDate and Timestamp must be real times from 2000 to a day after now → else 400 naming them', async () => {
    const { d, sid } = await smsSetup(); // now = 2027-06-01T09:00Z
    for (const [field, value] of [
      ['RawDlrDoneDate', '2706031000'],
      ['RawDlrDoneDate', '2702301000'],
      ['RawDlrDoneDate', '99123123590'],
      ['Timestamp', '9999-12-31T23:59:59Z'],
      ['Timestamp', '+275760-09-13T00:00:00Z'],
      ['Timestamp', '2027-02-30T12:00:00Z'],
      ['Timestamp', '1999-12-31T23:59:59Z'],
    ] as const) {
      const a = await sms.statusCallback(sid, 'delivered', { [field]: value });
      expect([field, value, a.status, (a.body as { field?: string }).field]).toEqual([field, value, 400, field]);
    }
    expect(await smsReports()).toHaveLength(0);
    expect(await sms.statusCallback(sid, 'delivered', { RawDlrDoneDate: '2706010905' })).toMatchObject({ status: 200, body: { deliveryStatus: 'delivered' } });
    expect((await reload(d)).reportedAt?.toISOString()).toBe('2027-06-01T09:05:00.000Z');
  });

  it('a report about an `unknown` delivery proves it went out; a report never moves a delivery back', async () => {
    const { d, sid } = await smsSetup();
    await db().update(deliveries).set({ status: 'unknown', statusReason: 'ambiguous' }).where(eq(deliveries.id, d.id));
    expect(await sms.statusCallback(sid, 'sent')).toMatchObject({ status: 200, body: { deliveryStatus: 'accepted' } });
    expect((await reload(d)).statusReason).toContain('delivery report');
    expect(await sms.statusCallback(sid, 'failed', { ErrorCode: '30008' })).toMatchObject({ body: { deliveryStatus: 'failed' } });
    expect(await sms.statusCallback(sid, 'delivered')).toMatchObject({ body: { deliveryStatus: 'failed' } });
  });
});
