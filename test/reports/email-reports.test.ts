/**
 * Delivery reports from the HTTP email provider (issue #10 §1–3): Resend-style events signed per Standard Webhooks,
 * driven through the intake function the route calls — signature, content type and field checks, complaints, hard
 * bounces stopping the next reminder, soft bounces counted per address, and an external guest's bounce on the guest
 * organisation's list. Peers, harness and helpers: ./report-harness.ts. Each `it` is one of the exact
 * scenarios (or a rule it rests on).
 */
import { asc, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { deliveryReports, reminders, suppressions } from '@/db/schema';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { allowGuestsFrom, createTenant } from '@/server/organisations/tenants';
import { booked, db, deliveryRows, emailEvent, h, liveSuppressions, mailApi, postEmail, reload, SECRET, tenantWith, useReportHarness } from './report-harness';

useReportHarness();

describe('HTTP email provider events (Standard Webhooks)', () => {
  it('complained (12:05) at 12:06, delivered (12:00:03) at 12:07, the same complained at 12:08 → complained, one suppression, the repeat processed once', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-03-02T12:00:00Z', { email: 'ops@example.test' }, '2027-02-20T09:00:00Z');
    await h.tick('2027-03-01T12:00:00Z');
    const [d] = await deliveryRows();
    expect(d.status).toBe('accepted');
    expect(mailApi.messages).toHaveLength(1);
    expect(d.providerMessageId).toBe(mailApi.messages[0].id);
    const emailId = d.providerMessageId!;

    const complained = emailEvent('msg_2027_complaint', 'email.complained', '2027-03-01T12:05:00.000Z', { email_id: emailId, to: ['ops@example.test'] });
    const delivered = emailEvent('msg_2027_delivered', 'email.delivered', '2027-03-01T12:00:03.000Z', { email_id: emailId, to: ['ops@example.test'] });

    const first = await postEmail(complained, '2027-03-01T12:06:00Z');
    expect(first).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'complained' } });
    const second = await postEmail(delivered, '2027-03-01T12:07:00Z');
    expect(second).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'complained' } });
    const third = await postEmail(complained, '2027-03-01T12:08:00Z');
    expect(third).toMatchObject({ status: 200, body: { status: 'duplicate', reportId: first.body.reportId } });

    const after = await reload(d);
    expect(after.status).toBe('complained');
    expect(after.reportedAt?.toISOString()).toBe('2027-03-01T12:05:00.000Z');
    expect(after.statusReason).toContain('complaint at 2027-03-01T12:05:00.000Z');

    const reports = await db().select().from(deliveryReports).orderBy(asc(deliveryReports.receivedAt));
    expect(reports.map((r) => [r.kind, r.occurredAt.toISOString(), r.receivedAt.toISOString(), r.deliveryId])).toEqual([
      ['complaint', '2027-03-01T12:05:00.000Z', '2027-03-01T12:06:00.000Z', d.id],
      ['delivered', '2027-03-01T12:00:03.000Z', '2027-03-01T12:07:00.000Z', d.id],
    ]);
    expect(reports[0].effect).toBe('accepted → complained; suppressed ops@example.test for email (complained)');
    expect(reports[1].effect).toMatch(/^no change/);

    const sup = await db().select().from(suppressions).where(eq(suppressions.tenantId, t.id));
    expect(sup).toHaveLength(1);
    expect(sup[0]).toMatchObject({ address: 'ops@example.test', channel: 'email', reason: 'complained', reportId: reports[0].id, removedAt: null });
    expect(sup[0].source).toBe('complaint reported by http_api at 2027-03-01T12:05:00.000Z');
  });

  it('a wrong signature → 401 and nothing stored; a valid signature for an unknown message → 202 and nothing changed', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-03-02T12:00:00Z', { email: 'ops@example.test' }, '2027-02-20T09:00:00Z');
    await h.tick('2027-03-01T12:00:00Z');
    const [d] = await deliveryRows();

    const forged = emailEvent('msg_forged', 'email.bounced', '2027-03-01T12:05:00Z', { email_id: d.providerMessageId, bounce: { type: 'hard', message: 'forged' } }, `whsec_${Buffer.from('someone-else').toString('base64')}`);
    const r1 = await postEmail(forged, '2027-03-01T12:06:00Z');
    expect(r1.status).toBe(401);
    expect(r1.body.error).toMatch(/signature/);
    // A body changed after signing is refused too.
    const genuine = emailEvent('msg_tampered', 'email.delivered', '2027-03-01T12:05:00Z', { email_id: d.providerMessageId });
    expect((await postEmail({ ...genuine, rawBody: genuine.rawBody.replace('delivered', 'complained') }, '2027-03-01T12:06:00Z')).status).toBe(401);
    expect(await db().select().from(deliveryReports)).toHaveLength(0);

    const unknown = emailEvent('msg_unknown', 'email.bounced', '2027-03-01T12:05:00Z', { email_id: 'no-such-email-id', to: ['ops@example.test'], bounce: { type: 'Permanent', message: '550 5.1.1 no such user' } });
    const r2 = await postEmail(unknown, '2027-03-01T12:06:00Z');
    expect(r2).toMatchObject({ status: 202, body: { status: 'unmatched' } });
    expect((await reload(d)).status).toBe('accepted');
    expect(await db().select().from(suppressions)).toHaveLength(0);
    const [kept] = await db().select().from(deliveryReports);
    expect(kept).toMatchObject({ deliveryId: null, tenantId: null, kind: 'hard_bounce', providerMessageId: 'no-such-email-id' });
  });

  it('not configured → 503 naming HTTP_EMAIL_WEBHOOK_SECRET; malformed → 400 naming the field; other event types are ignored', async () => {
    const e = emailEvent('msg_x', 'email.delivered', '2027-03-01T12:05:00Z', { email_id: 'x' });
    const r = await postEmail(e, '2027-03-01T12:06:00Z', null);
    expect(r.status).toBe(503);
    expect(r.body.error).toContain('HTTP_EMAIL_WEBHOOK_SECRET');
    expect(await postEmail(emailEvent('m1', 'email.delivered', '2027-03-01T12:05:00Z', {}), '2027-03-01T12:06:00Z')).toMatchObject({ status: 400, body: { field: 'data.email_id' } });
    expect(await postEmail(emailEvent('m2', 'email.delivered', 'yesterday', { email_id: 'x' }), '2027-03-01T12:06:00Z')).toMatchObject({ status: 400, body: { field: 'created_at' } });
    expect(await postEmail(emailEvent('m3', 'email.bounced', '2027-03-01T12:05:00Z', { email_id: 'x', bounce: { type: 'sideways' } }), '2027-03-01T12:06:00Z')).toMatchObject({
      status: 400,
      body: { field: 'data.bounce.type' },
    });
    expect(await postEmail(emailEvent('m4', 'email.opened', '2027-03-01T12:05:00Z', { email_id: 'x' }), '2027-03-01T12:06:00Z')).toMatchObject({ status: 200, body: { status: 'ignored' } });
    expect(await db().select().from(deliveryReports)).toHaveLength(0);
  });

  it('created_at must be a real RFC 3339 date-time from 2000-01-01 to a day after now, else 400 naming created_at and nothing stored', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-03-02T12:00:00Z', { email: 'when@example.test' }, '2027-02-20T09:00:00Z');
    await h.tick('2027-03-01T12:00:00Z');
    const [d] = await deliveryRows();
    const now = '2027-03-01T12:06:00Z';
    const post = (id: string, createdAt: string) => postEmail(emailEvent(id, 'email.delivered', createdAt, { email_id: d.providerMessageId, to: ['when@example.test'] }), now);
    for (const [i, bad] of ['-010000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '9999-12-31T23:59:59Z', '2027-02-30T12:00:00Z', '1999-12-31T23:59:59Z', '2027-03-02T12:06:01Z', '2027-03-01T12:05:00'].entries()) {
      const a = await post(`msg_when_${i}`, bad);
      expect([bad, a.status, a.body.field]).toEqual([bad, 400, 'created_at']);
    }
    expect((await post('msg_when_future', '9999-12-31T23:59:59Z')).body.error).toBe('created_at: 9999-12-31T23:59:59Z is more than a day after now (2027-03-01T12:06:00.000Z)');
    expect((await post('msg_when_feb30', '2027-02-30T12:00:00Z')).body.error).toMatch(/^created_at: must be an RFC 3339 date-time/);
    expect(await db().select().from(deliveryReports)).toHaveLength(0);
    expect((await reload(d)).status).toBe('accepted');
    // At the edges it is taken: a day after now (a fast provider clock), and with an offset.
    expect(await post('msg_when_edge', '2027-03-02T12:06:00Z')).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'delivered' } });
    expect(await post('msg_when_offset', '2027-03-01T13:05:00+01:00')).toMatchObject({ status: 200, body: { status: 'applied' } });
    const rows = await db().select().from(deliveryReports).orderBy(asc(deliveryReports.occurredAt));
    expect(rows.map((r) => r.occurredAt.toISOString())).toEqual(['2027-03-01T12:05:00.000Z', '2027-03-02T12:06:00.000Z']);
  });

  it('a body that is not a JSON object → 400 naming body; a content-type other than JSON → 415 naming content-type; unknown types stay 200 ignored', async () => {
    const arr = emailEvent('msg_arr', 'email.delivered', '2027-03-01T12:05:00Z', { email_id: 'x' });
    const arrayBody = '[{"type":"email.delivered"}]';
    // Signed for the timestamp already in the headers (a fresh clock read could fall in the next second).
    const signedArray = { rawBody: arrayBody, headers: { ...arr.headers, 'webhook-signature': new Webhook(SECRET).sign('msg_arr', new Date(Number(arr.headers['webhook-timestamp']) * 1000), arrayBody) } };
    expect(await postEmail(signedArray, '2027-03-01T12:06:00Z')).toMatchObject({ status: 400, body: { field: 'body', error: 'body: must be a JSON object (one webhook event)' } });
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded', '']) {
      const e = emailEvent(`msg_ct_${ct}`, 'email.delivered', '2027-03-01T12:05:00Z', { email_id: 'x' });
      const a = await postEmail({ ...e, headers: { ...e.headers, 'content-type': ct } }, '2027-03-01T12:06:00Z');
      expect([ct, a.status, a.body.field]).toEqual([ct, 415, 'content-type']);
    }
    const charset = emailEvent('msg_ct_charset', 'email.delivered', '2027-03-01T12:05:00Z', { email_id: 'no-such' });
    expect(await postEmail({ ...charset, headers: { ...charset.headers, 'content-type': 'Application/JSON; charset=utf-8' } }, '2027-03-01T12:06:00Z')).toMatchObject({ status: 202 });
    expect(await postEmail(emailEvent('msg_clicked', 'email.clicked', '2027-03-01T12:05:00Z', { email_id: 'x' }), '2027-03-01T12:06:00Z')).toMatchObject({ status: 200, body: { status: 'ignored' } });
  });

  it('a hard bounce for attendee-b@example.test at 2027-08-02T10:00Z; their reminder due 2027-08-04T08:00Z → no provider call, suppressed (hard_bounce)', async () => {
    const t = await tenantWith([
      { offset: '-P3D', name: 'three days before' },
      { offset: '-P1D', name: 'a day before' },
    ]);
    await booked(t.id, '2027-08-05T08:00:00Z', { email: 'attendee-b@example.test' }, '2027-07-20T09:00:00Z');
    await h.tick('2027-08-02T08:00:00Z');
    expect(mailApi.messages.map((m) => m.to)).toEqual(['attendee-b@example.test']);
    const [first] = await deliveryRows();
    const bounce = emailEvent('msg_bounce_b', 'email.bounced', '2027-08-02T10:00:00.000Z', {
      email_id: first.providerMessageId,
      to: ['attendee-b@example.test'],
      bounce: { type: 'hard', message: '550 5.1.1 <attendee-b@example.test>: Recipient address rejected: User unknown' },
    });
    expect(await postEmail(bounce, '2027-08-02T10:00:30Z')).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'bounced' } });
    const [sup] = await liveSuppressions(t.id);
    expect(sup).toMatchObject({ address: 'attendee-b@example.test', reason: 'hard_bounce', channel: 'email' });
    expect(sup.source).toBe('hard_bounce reported by http_api at 2027-08-02T10:00:00.000Z: 550 5.1.1 <attendee-b@example.test>: Recipient address rejected: User unknown');

    await h.tick('2027-08-04T08:00:00Z');
    expect(mailApi.requests).toHaveLength(1); // no provider call for the second reminder
    const [, second] = await deliveryRows();
    const [r] = await db().select().from(reminders).where(eq(reminders.id, second.reminderId!));
    expect(r.dueAt.toISOString()).toBe('2027-08-04T08:00:00.000Z');
    expect(second.status).toBe('suppressed');
    expect(second.statusReason).toContain('hard_bounce');
    expect(second.attemptCount).toBe(0);
  });

  /** Three reminders to one address, each soft-bounced at its send date + 1 h; the suppression count after each. */
  async function softBounces(startsAt: string, offsets: string[], sendDates: string[]) {
    const t = await tenantWith(offsets.map((offset) => ({ offset })));
    await booked(t.id, startsAt, { email: 'soft@example.test' }, '2027-04-20T09:00:00Z');
    const counts: number[] = [];
    for (const [i, at] of sendDates.entries()) {
      await h.tick(at);
      const ds = await deliveryRows();
      expect(ds).toHaveLength(i + 1);
      expect(ds[i].status).toBe('accepted');
      const occurred = new Date(Date.parse(at) + 3_600_000).toISOString();
      const e = emailEvent(`msg_soft_${i}`, 'email.bounced', occurred, { email_id: ds[i].providerMessageId, to: ['soft@example.test'], bounce: { type: 'Transient', message: '452 4.2.2 mailbox full' } });
      expect(await postEmail(e, occurred)).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'soft_bounced' } });
      counts.push((await liveSuppressions(t.id)).length);
    }
    return { t, counts };
  }

  it('soft bounces on 2027-05-01, 05-03 and 05-06 → suppressed after the third (soft_bounces)', async () => {
    const { t, counts } = await softBounces('2027-05-10T09:00:00Z', ['-P9D', '-P7D', '-P4D'], ['2027-05-01T09:00:00Z', '2027-05-03T09:00:00Z', '2027-05-06T09:00:00Z']);
    expect(counts).toEqual([0, 0, 1]);
    const [sup] = await liveSuppressions(t.id);
    expect(sup).toMatchObject({ address: 'soft@example.test', reason: 'soft_bounces' });
    expect(sup.source).toBe('soft_bounce reported by http_api at 2027-05-06T10:00:00.000Z: 452 4.2.2 mailbox full');
    const reports = await db().select().from(deliveryReports).orderBy(asc(deliveryReports.occurredAt));
    expect(reports[1].effect).toContain('soft bounce counted (2 messages on record');
    expect(reports[2].effect).toContain('(soft_bounces)');
  });

  it('soft bounces on 2027-05-01, 05-03 and 05-20 → not suppressed', async () => {
    const { counts } = await softBounces('2027-05-25T09:00:00Z', ['-P24D', '-P22D', '-P5D'], ['2027-05-01T09:00:00Z', '2027-05-03T09:00:00Z', '2027-05-20T09:00:00Z']);
    expect(counts).toEqual([0, 0, 0]);
  });

  it('an external guest’s bounce suppresses the address on the guest’s own organisation’s list', async () => {
    const host = await tenantWith([{ offset: '-P1D' }], 'Host Org');
    const guestOrg = await createTenant(db(), { slug: `guest-${Date.now().toString(36)}`, name: 'Guest Org', timeZone: 'Europe/Amsterdam', emailProvider: 'http_api' });
    await allowGuestsFrom(db(), guestOrg.id, host.id);
    const event = await createEvent(db(), host.id, { title: 'Visit', startsAt: '2027-09-02T09:00:00Z', endsAt: '2027-09-02T10:00:00Z', timeZone: 'Europe/Amsterdam' });
    await addBooking(db(), host.id, { eventId: event.id, role: 'external', guestTenantId: guestOrg.id, contact: { email: 'guest@example.test', name: 'Gus' } }, new Date('2027-08-20T09:00:00Z'));
    await h.tick('2027-09-01T09:00:00Z');
    const [d] = await deliveryRows();
    expect(d.status).toBe('accepted');
    await postEmail(emailEvent('msg_guest', 'email.complained', '2027-09-01T10:00:00Z', { email_id: d.providerMessageId }), '2027-09-01T10:00:01Z');
    expect(await liveSuppressions(host.id)).toHaveLength(0);
    expect((await liveSuppressions(guestOrg.id)).map((s) => [s.address, s.reason])).toEqual([['guest@example.test', 'complained']]);
  });
});
