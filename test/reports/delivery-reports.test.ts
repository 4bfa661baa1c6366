/**
 * Applying delivery reports (issue #10 §1–3) against real PostgreSQL and the real queue: a report that names its
 * delivery by id (as the DSN reader does), one that waits while the send is still being recorded or its worker
 * died, suppression removal as a soft delete, repeats of one provider event, and the soft-bounce count (per
 * message, reset by a removal). Peers, harness and helpers: ./report-harness.ts; the provider intakes are in
 * email-reports.test.ts and sms-reports.test.ts, the routes in report-routes.test.ts.
 */
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { transitionDelivery } from '@/db/queries/sending/delivery';
import { findSuppression } from '@/db/queries/suppressions/send-time';
import { listSuppressions } from '@/db/queries/suppressions/suppressions';
import { auditLog, deliveries, deliveryReports, suppressions } from '@/db/schema';
import { adoptUnmatchedReports, applyReport } from '@/server/reports/reports';
import { addSuppressionAction, removeSuppressionAction } from '@/server/scheduling/staff-actions';
import { booked, db, deliveryRows, emailEvent, h, liveSuppressions, mailApi, postEmail, reload, tenantWith, useReportHarness } from './report-harness';

useReportHarness();

describe('applyReport directly (the DSN reader calls it with a delivery id)', () => {
  it('names the delivery by id; an id that is not ours is unmatched; validation names the field', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-03-02T12:00:00Z', { email: 'dsn@example.test' }, '2027-02-20T09:00:00Z');
    await h.tick('2027-03-01T12:00:00Z');
    const [d] = await deliveryRows();
    const now = new Date('2027-03-01T13:00:00Z');
    const r = await applyReport(db(), { source: 'smtp_dsn', providerEventId: '<dsn-1@mx.example>:dsn@example.test', deliveryId: d.id, kind: 'hard_bounce', occurredAt: new Date('2027-03-01T12:30:00Z'), errorCode: '5.1.1', detail: 'x'.repeat(1500) }, now);
    expect(r).toMatchObject({ outcome: 'applied', deliveryId: d.id, status: 'bounced' });
    const [row] = await db().select().from(deliveryReports);
    expect(row.detail).toHaveLength(1000);
    expect(await applyReport(db(), { source: 'smtp_dsn', providerEventId: 'other', deliveryId: '00000000-0000-4000-8000-000000000000', kind: 'hard_bounce', occurredAt: now }, now)).toMatchObject({ outcome: 'unmatched' });
    expect(await applyReport(db(), { source: 'smtp_dsn', providerEventId: 'bad-id', deliveryId: 'not-a-uuid', kind: 'hard_bounce', occurredAt: now }, now)).toMatchObject({ outcome: 'unmatched' });
    await expect(applyReport(db(), { source: 'smtp_dsn', providerEventId: 'x', kind: 'hard_bounce', occurredAt: new Date('nope') }, now)).rejects.toMatchObject({ code: 'validation', field: 'occurredAt' });
  });
});

describe('a report about a delivery still being sent waits for the send to be recorded', () => {
  it('a DSN naming a `sending` delivery changes nothing and suppresses nothing until the send is recorded; then it applies', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-03-02T12:00:00Z', { email: 'early-dsn@example.test' }, '2027-02-20T09:00:00Z');
    await h.tick('2027-03-01T12:00:00Z');
    const [d] = await deliveryRows();
    // As if the SMTP answer were still on its way: the delivery is `sending`.
    await db().update(deliveries).set({ status: 'sending', providerMessageId: null }).where(eq(deliveries.id, d.id));
    const now = new Date('2027-03-01T12:00:05Z');
    const r = await applyReport(db(), { source: 'smtp_dsn', providerEventId: '<early@mx>:early-dsn@example.test', deliveryId: d.id, kind: 'hard_bounce', occurredAt: new Date('2027-03-01T12:00:04Z'), detail: '550 5.1.1 no such user' }, now);
    expect(r).toMatchObject({ outcome: 'applied', status: 'sending' });
    expect(await liveSuppressions(t.id)).toHaveLength(0);
    const [waiting] = await db().select().from(deliveryReports);
    expect(waiting.effect).toMatch(/^waiting: the delivery is sending/);
    // The send is recorded (what recordOutcome does): accepted, then the waiting report applies.
    await db().transaction(async (tx) => {
      const accepted = await transitionDelivery(tx, d.id, 'accepted', { providerMessageId: '<k@punctual.local>', acceptedAt: now });
      expect(await adoptUnmatchedReports(tx, accepted!, now)).toEqual({ adopted: 0, status: 'bounced' });
    });
    expect((await reload(d)).status).toBe('bounced');
    expect((await liveSuppressions(t.id)).map((s) => [s.reason, s.reportId])).toEqual([['hard_bounce', waiting.id]]);
    const [applied] = await db().select().from(deliveryReports);
    expect(applied.effect).toBe('accepted → bounced; suppressed early-dsn@example.test for email (hard_bounce)');
  });
});

describe('a report that waited for a lost attempt', () => {
  it('a DSN naming a `sending` delivery whose worker died: lease recovery marks it unknown and the waiting report applies (it proves the message went out)', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-03-02T12:00:00Z', { email: 'lost-worker@example.test' }, '2027-02-20T09:00:00Z');
    await h.tick('2027-03-01T12:00:00Z');
    const [d] = await deliveryRows();
    // As if the worker died during the SMTP call: `sending` under a lease that runs out at 12:02.
    await db().update(deliveries).set({ status: 'sending', provider: 'smtp', providerMessageId: null, leaseExpiresAt: new Date('2027-03-01T12:02:00Z') }).where(eq(deliveries.id, d.id));
    const r = await applyReport(db(), { source: 'smtp_dsn', providerEventId: '<lost@mx>:lost-worker@example.test', deliveryId: d.id, kind: 'hard_bounce', occurredAt: new Date('2027-03-01T12:00:30Z'), detail: '550 5.1.1 no such user' }, new Date('2027-03-01T12:00:40Z'));
    expect(r).toMatchObject({ outcome: 'applied', status: 'sending' });
    expect(await liveSuppressions(t.id)).toHaveLength(0);
    await h.tick('2027-03-01T12:03:00Z'); // the sweep recovers the expired lease
    const after = await reload(d);
    expect(after.status).toBe('bounced');
    expect((await liveSuppressions(t.id)).map((s) => s.reason)).toEqual(['hard_bounce']);
    const [report] = await db().select().from(deliveryReports);
    expect(report.effect).toMatch(/^unknown → bounced/);
  });
});

describe('suppression removal is a soft delete (issue #10 §3)', () => {
  it('the row stays with removed_at/by/reason and an audit entry; the address can be mailed again and re-suppressed', async () => {
    const t = await tenantWith([
      { offset: '-P2D', name: 'two days before' },
      { offset: '-P1D', name: 'a day before' },
    ]);
    const staff = { tenantId: t.id, actor: 'ada@org.test', now: new Date('2027-10-01T08:00:00Z') }; // no actorId: not a staff account (the role re-check is covered by recheck-under-lock.test.ts)
    const { id } = await addSuppressionAction(db(), staff, { address: 'back@example.test', reason: 'manual', note: 'asked by phone' });
    await booked(t.id, '2027-10-05T09:00:00Z', { email: 'back@example.test' }, '2027-10-01T08:00:00Z');
    await h.tick('2027-10-03T09:00:00Z');
    expect((await deliveryRows())[0].status).toBe('suppressed');

    const [live] = await liveSuppressions(t.id);
    await removeSuppressionAction(db(), { ...staff, now: new Date('2027-10-03T10:00:00Z') }, id, { reason: 'mailbox works again', version: live.version });
    const rows = await db().select().from(suppressions).where(eq(suppressions.tenantId, t.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, address: 'back@example.test', removedBy: 'ada@org.test', removedReason: 'mailbox works again' });
    expect(rows[0].removedAt?.toISOString()).toBe('2027-10-03T10:00:00.000Z');
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, t.id), eq(auditLog.action, 'suppression_remove')));
    expect(audit).toMatchObject({ actor: 'ada@org.test', reason: 'mailbox works again' });
    expect(audit.details).toMatchObject({ suppressionId: id, address: 'back@example.test', channel: 'email' });
    // Removing it again: it is no longer live → 409 naming who removed it (a second tab), nothing written.
    await expect(removeSuppressionAction(db(), staff, id, { reason: 'twice', version: rows[0].version })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('already removed') });
    expect(await findSuppression(db(), [t.id], 'back@example.test', 'email')).toBeNull();

    // Mailed again: the next reminder goes out.
    await h.tick('2027-10-04T09:00:00Z');
    const second = (await deliveryRows())[1];
    expect(second.status).toBe('accepted');
    expect(mailApi.messages.map((m) => m.to)).toEqual(['back@example.test']);

    // And re-suppressed by a report: a new live row beside the removed one.
    await postEmail(emailEvent('msg_back', 'email.bounced', '2027-10-04T09:05:00Z', { email_id: second.providerMessageId, bounce: { type: 'Permanent', message: 'gone' } }), '2027-10-04T09:06:00Z');
    const all = await db().select().from(suppressions).where(eq(suppressions.tenantId, t.id)).orderBy(asc(suppressions.createdAt));
    expect(all.map((s) => [s.reason, s.removedAt === null])).toEqual([
      ['manual', false],
      ['hard_bounce', true],
    ]);
    // The list shows live entries; "Show removed" shows the history.
    const liveList = await listSuppressions(db(), t.id, {}, { limit: 50, offset: 0 });
    expect(liveList.items.map((s) => [s.reason, s.report?.kind ?? null, s.report?.deliveryId ?? null])).toEqual([['hard_bounce', 'hard_bounce', second.id]]);
    const history = await listSuppressions(db(), t.id, { removed: true }, { limit: 50, offset: 0 });
    expect(history.items.map((s) => [s.id, s.removed])).toEqual([[id, { at: '2027-10-03T10:00:00.000Z', by: 'ada@org.test', reason: 'mailbox works again' }]]);
    // Staff can list it again by hand once it is removed — and not while it is live.
    await expect(addSuppressionAction(db(), staff, { address: 'BACK@example.test', reason: 'manual' })).rejects.toMatchObject({ code: 'conflict', field: 'address' });
  });
});

describe('review findings: repeats and soft bounces', () => {
  it('the same webhook-id with different content is kept once (the first) and logged as a conflict; the route still answers 200 duplicate', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-03-02T12:00:00Z', { email: 'ops@example.test' }, '2027-02-20T09:00:00Z');
    await h.tick('2027-03-01T12:00:00Z');
    const [d] = await deliveryRows();
    expect(await postEmail(emailEvent('msg_same', 'email.delivered', '2027-03-01T12:00:03Z', { email_id: d.providerMessageId }), '2027-03-01T12:01:00Z')).toMatchObject({ status: 200, body: { status: 'applied' } });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      // An identical repeat: a plain duplicate, nothing logged.
      const same = await applyReport(db(), { source: 'http_api', providerEventId: 'msg_same', providerMessageId: d.providerMessageId, kind: 'delivered', occurredAt: new Date('2027-03-01T12:00:03Z') }, new Date('2027-03-01T12:02:00Z'));
      expect(same).toMatchObject({ outcome: 'duplicate', conflict: false, deliveryId: d.id });
      expect(warn).not.toHaveBeenCalled();
      const other = await applyReport(db(), { source: 'http_api', providerEventId: 'msg_same', providerMessageId: 'em_other', kind: 'complaint', occurredAt: new Date('2027-03-01T12:05:00Z') }, new Date('2027-03-01T12:06:00Z'));
      expect(other).toMatchObject({ outcome: 'duplicate', conflict: true, deliveryId: d.id });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toBe(
        `[reports] conflicting repeat of http_api report msg_same: stored kind delivered, message ${d.providerMessageId}; this one kind complaint, message em_other — the first is kept, this one ignored`,
      );
      expect(await postEmail(emailEvent('msg_same', 'email.complained', '2027-03-01T12:05:00Z', { email_id: d.providerMessageId }), '2027-03-01T12:07:00Z')).toMatchObject({ status: 200, body: { status: 'duplicate' } });
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      warn.mockRestore();
    }
    expect((await reload(d)).status).toBe('delivered');
    expect(await db().select().from(deliveryReports)).toMatchObject([{ kind: 'delivered' }]);
    expect(await liveSuppressions(t.id)).toHaveLength(0);
  });

  it('three soft bounces of ONE message count once: not suppressed', async () => {
    const t = await tenantWith([{ offset: '-P1D' }]);
    await booked(t.id, '2027-05-02T09:00:00Z', { email: 'soft@example.test' }, '2027-04-20T09:00:00Z');
    await h.tick('2027-05-01T09:00:00Z');
    const [d] = await deliveryRows();
    for (const [i, at] of ['2027-05-01T10:00:00.000Z', '2027-05-01T14:00:00.000Z', '2027-05-02T10:00:00.000Z'].entries()) {
      const e = emailEvent(`msg_one_${i}`, 'email.bounced', at, { email_id: d.providerMessageId, bounce: { type: 'Transient', message: '452 4.2.2 mailbox full' } });
      expect(await postEmail(e, at)).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'soft_bounced' } });
    }
    expect(await liveSuppressions(t.id)).toHaveLength(0);
    const reports = await db().select().from(deliveryReports).orderBy(asc(deliveryReports.occurredAt));
    expect(reports[2].effect).toBe('no change (stays soft_bounced); soft bounce counted (1 message on record for soft@example.test; suppressed at 3 within 7 days)');
  });

  it('a staff removal of the suppression resets the soft-bounce count', async () => {
    const t = await tenantWith([{ offset: '-P9D' }, { offset: '-P7D' }, { offset: '-P4D' }, { offset: '-P3D' }]);
    await booked(t.id, '2027-05-10T09:00:00Z', { email: 'soft@example.test' }, '2027-04-20T09:00:00Z');
    const bounceLatest = async (i: number, at: string) => {
      await h.tick(at);
      const ds = await deliveryRows();
      expect(ds[i].status).toBe('accepted');
      const occurred = new Date(Date.parse(at) + 3_600_000).toISOString();
      // Each bounce must be stored and applied: an answer not checked here surfaced only later as a missing row.
      const answer = await postEmail(emailEvent(`msg_reset_${i}`, 'email.bounced', occurred, { email_id: ds[i].providerMessageId, bounce: { type: 'Transient', message: '452 4.2.2 mailbox full' } }), occurred);
      expect(answer).toMatchObject({ status: 200, body: { status: 'applied', deliveryStatus: 'soft_bounced' } });
    };
    await bounceLatest(0, '2027-05-01T09:00:00Z');
    await bounceLatest(1, '2027-05-03T09:00:00Z');
    await bounceLatest(2, '2027-05-06T09:00:00Z');
    const [sup] = await liveSuppressions(t.id);
    expect(sup.reason).toBe('soft_bounces');
    const staff = { tenantId: t.id, actor: 'ada@org.test', now: new Date('2027-05-06T12:00:00Z') }; // no actorId: not a staff account
    await removeSuppressionAction(db(), staff, sup.id, { reason: 'mailbox emptied', version: sup.version });

    await bounceLatest(3, '2027-05-07T09:00:00Z');
    expect(await liveSuppressions(t.id)).toHaveLength(0);
    const reports = await db().select().from(deliveryReports).orderBy(asc(deliveryReports.occurredAt));
    expect(reports[3].effect).toBe('accepted → soft_bounced; soft bounce counted (1 message on record for soft@example.test since the suppression was removed at 2027-05-06T12:00:00.000Z; suppressed at 3 within 7 days)');
  });
});
