/**
 * CSV exports (issue #13) against real PostgreSQL: "Exports open with the right accents when read back as UTF-8
 * (Zoë, Łódź) and quote fields containing commas and newlines." Each download is read back byte for byte: the
 * UTF-8 BOM first, then a strict RFC 4180 reader (test/support/csv-read.ts, independent of the writer) must give
 * back exactly the stored values. Also: the deliveries and audit exports honour the pages' filters, another
 * tenant's rows never appear (invariant 9), the formula guard, keyset pages that neither skip nor repeat rows
 * sharing one created_at, the row cap's closing note, and the `export` audit entry.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { auditLog, deliveries } from '@/db/schema';
import { parseAuditQuery, parseDeliveriesQuery } from '@/domain/dashboards/log-filters';
import { auditCsv, deliveriesCsv, keysetCsvStream, participantsCsv } from '@/server/people/csv-exports';
import { deliveriesAfter } from '@/db/queries/dashboards/deliveries-log';
import { addBooking } from '@/server/scheduling/bookings';
import { createEvent } from '@/server/scheduling/events';
import { cancelBookingAction } from '@/server/scheduling/staff-actions';
import { readCsvDownload } from '@/test/support/csv-read';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { tenantWithRules } from '@/test/support/fixtures';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.close());
beforeEach(async () => tdb.reset());
const db = () => tdb.db;

const NOW = new Date('2027-06-01T10:00:00Z');
const NOTE = 'Przeprowadzka do Łodzi, sorry\nsee you in spring';
const EVIL = '=HYPERLINK("http://evil.test","click")';

async function world() {
  const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }], 'Europe/Warsaw');
  const other = (await tenantWithRules(db(), [{ offset: '-PT1H' }], 'Europe/Warsaw')).tenant;
  const ctx = { tenantId: tenant.id, actor: 'staff@x.test', now: NOW };
  const event = await createEvent(db(), tenant.id, { title: 'Warsztaty w Łodzi, dzień 1', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T10:00:00Z', timeZone: 'Europe/Warsaw', allDay: false, roomUrl: null });
  const zoe = await addBooking(db(), tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'zoe@x.test', name: 'Zoë Brontë', timeZone: 'Europe/Paris', locale: 'fr' } }, new Date('2027-06-01T08:00:00Z'));
  const lucja = await addBooking(db(), tenant.id, { eventId: event.id, role: 'host', contact: { email: 'lucja@x.test', name: 'Łucja z Łódź', timeZone: 'Europe/Warsaw', locale: 'pl', phone: '+48601234567' } }, new Date('2027-06-01T08:01:00Z'));
  const evil = await addBooking(db(), tenant.id, { eventId: event.id, role: 'attendee', contact: { email: 'evil@x.test', name: EVIL } }, new Date('2027-06-01T08:02:00Z'));
  await cancelBookingAction(db(), ctx, lucja.id, { reason: NOTE, version: lucja.version });
  // Another tenant: its own event and person, and its own audit entries and deliveries below.
  const otherEvent = await createEvent(db(), other.id, { title: 'Elsewhere', startsAt: '2027-06-15T08:00:00Z', endsAt: '2027-06-15T10:00:00Z', timeZone: 'UTC', allDay: false, roomUrl: null });
  const stranger = await addBooking(db(), other.id, { eventId: otherEvent.id, role: 'attendee', contact: { email: 'stranger@y.test', name: 'Stranger Zoë' } }, NOW);
  await cancelBookingAction(db(), { ...ctx, tenantId: other.id, actor: 'other@y.test' }, stranger.id, { reason: 'other tenant note, secret', version: stranger.version });
  return { tenant, other, ctx, event, otherEvent, zoe, lucja, evil };
}

const byHeading = (records: string[][]) => {
  const [head, ...rows] = records;
  return rows.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]])));
};

describe('participants export', () => {
  it('reads back as UTF-8 with a BOM: accents intact, commas and newlines quoted, same values as stored', async () => {
    const w = await world();
    const d = await participantsCsv(db(), w.ctx, w.event.id);
    expect(d.filename).toBe(`${w.tenant.slug}-participants-warsztaty-w-lodzi-dzien-1-2027-06-01.csv`);
    const { bytes, records } = await readCsvDownload(d.body);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // The raw bytes hold the accents as UTF-8 (Zoë: 5A 6F C3 AB; Łódź: C5 81 C3 B3 64 C5 BA) and the note quoted with its comma and LF.
    expect(bytes.includes(Buffer.from('Zo\u00eb Bront\u00eb', 'utf8'))).toBe(true);
    expect(bytes.toString('utf8')).toContain(`"Przeprowadzka do Łodzi, sorry\nsee you in spring"`);
    expect(records[0]).toEqual([
      'Name', 'Email', 'Phone', 'Role', 'Booking status', 'Status reason', 'Their time zone', 'Locale', 'Guest of organisation',
      'Booked at (UTC)', 'Booked at (Europe/Warsaw)', 'Next reminder due (UTC)', 'Next reminder due (Europe/Warsaw)', 'Booking id',
    ]);
    const rows = byHeading(records);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ Name: 'Zoë Brontë', Email: 'zoe@x.test', Role: 'attendee', 'Booking status': 'confirmed', 'Their time zone': 'Europe/Paris', Locale: 'fr',
      'Booked at (UTC)': '2027-06-01T08:00:00Z', 'Booked at (Europe/Warsaw)': '2027-06-01 10:00:00',
      // The rule is "1 hour before" an 08:00 UTC start.
      'Next reminder due (UTC)': '2027-06-15T07:00:00Z', 'Next reminder due (Europe/Warsaw)': '2027-06-15 09:00:00', 'Booking id': w.zoe.id });
    expect(rows[1]).toMatchObject({ Name: 'Łucja z Łódź', 'Booking status': 'cancelled', 'Status reason': NOTE, Locale: 'pl', 'Next reminder due (UTC)': '' });
    // The injection guard: a formula and a "+" phone number start with an apostrophe; the rest of the value is intact.
    expect(rows[1].Phone).toBe("'+48601234567");
    expect(rows[2].Name).toBe(`'${EVIL}`);
    // Another tenant's person never appears, and its event cannot be exported from here.
    expect(bytes.toString('utf8')).not.toContain('Stranger');
    await expect(participantsCsv(db(), w.ctx, w.otherEvent.id)).rejects.toMatchObject({ code: 'not_found' });
    // The export is audited.
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, w.tenant.id), eq(auditLog.action, 'export')));
    expect(audits.map((a) => a.details)).toEqual([{ what: 'participants', eventId: w.event.id, title: w.event.title }]);
  });
});

async function addDeliveries(tenantId: string, rows: { subject: string; status: 'accepted' | 'failed' | 'dead'; channel?: 'email' | 'sms'; address?: string; at: string }[]) {
  for (const r of rows) {
    await db().insert(deliveries).values({ tenantId, messageKey: `k:${tenantId}:${Math.random()}`, channel: r.channel ?? 'email', address: r.address ?? 'zoe@x.test', template: 'attendee-reminder', subject: r.subject, status: r.status, createdAt: new Date(r.at) });
  }
}

describe('deliveries export', () => {
  it('honours the /deliveries filters (status, channel, search, dates in the tenant zone) and never shows another tenant', async () => {
    const w = await world();
    await addDeliveries(w.tenant.id, [
      { subject: 'Réunion à Łódź, jour 1', status: 'accepted', at: '2027-06-01T08:00:00Z' },
      { subject: 'Zoë, "see you"\r\nsoon', status: 'failed', at: '2027-06-02T08:00:00Z' },
      { subject: 'SMS: hi', status: 'accepted', channel: 'sms', address: '+48601234567', at: '2027-06-03T21:30:00Z' },
    ]);
    await addDeliveries(w.other.id, [{ subject: 'Other tenant secret', status: 'accepted', address: 'stranger@y.test', at: '2027-06-01T09:00:00Z' }]);
    const read = async (qs: string) => byHeading((await readCsvDownload((await deliveriesCsv(db(), w.ctx, parseDeliveriesQuery(new URLSearchParams(qs)))).body)).records);

    const all = await read('');
    expect(all.map((r) => r['Subject or text'])).toEqual(['SMS: hi', 'Zoë, "see you"\r\nsoon', 'Réunion à Łódź, jour 1']);
    expect(all[0]).toMatchObject({ 'Created at (UTC)': '2027-06-03T21:30:00Z', 'Created at (Europe/Warsaw)': '2027-06-03 23:30:00', Channel: 'sms', To: "'+48601234567", Status: 'accepted' });
    expect((await read('status=accepted')).map((r) => r['Subject or text'])).toEqual(['SMS: hi', 'Réunion à Łódź, jour 1']);
    expect((await read('channel=email&status=accepted')).map((r) => r['Subject or text'])).toEqual(['Réunion à Łódź, jour 1']);
    expect((await read('q=jour')).map((r) => r['Subject or text'])).toEqual(['Réunion à Łódź, jour 1']);
    // 2027-06-03T21:30Z is 23:30 on the 3rd in Warsaw: inside "to=2027-06-03" (inclusive, tenant zone).
    expect((await read('from=2027-06-02&to=2027-06-03')).map((r) => r['Subject or text'])).toEqual(['SMS: hi', 'Zoë, "see you"\r\nsoon']);
    // `page` is the page's, not the export's: every matching row is exported.
    expect(await read('page=7')).toHaveLength(3);
    for (const rows of [all, await read('q=secret')]) expect(rows.some((r) => r['Subject or text'] === 'Other tenant secret')).toBe(false);
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, w.tenant.id), eq(auditLog.action, 'export')));
    expect(audits.map((a) => a.details)).toContainEqual({ what: 'deliveries', filters: { status: 'accepted', channel: 'email' } });
  });

  it('keyset pages neither skip nor repeat rows that share one created_at; the cap ends the file with a note', async () => {
    const w = await world();
    const same = '2027-06-01T08:00:00.123456Z';
    await db().execute(
      // Seven rows at the very same microsecond: only the id orders them.
      sql`insert into deliveries (tenant_id, message_key, channel, address, template, subject, status, created_at)
        select ${w.tenant.id}, 'same-' || g, 'email', 'zoe@x.test', 'attendee-reminder', 'same ' || g, 'accepted', ${same}::timestamptz from generate_series(1, 7) g`,
    );
    const filter = {};
    const pages: number[] = [];
    const stream = keysetCsvStream({
      what: 'deliveries',
      headings: ['Subject'],
      pageSize: 2,
      page: async (after, limit) => {
        const rows = await deliveriesAfter(db(), w.tenant.id, filter, after, limit);
        pages.push(rows.length);
        return rows;
      },
      row: (r) => [r.delivery.subject],
    });
    const { records } = await readCsvDownload(stream);
    const subjects = records.slice(1).map((r) => r[0]);
    expect(subjects).toHaveLength(7);
    expect(new Set(subjects).size).toBe(7);
    expect(pages).toEqual([2, 2, 2, 1]);

    const capped = keysetCsvStream({ what: 'deliveries', headings: ['Subject'], pageSize: 2, cap: 5, page: (after, limit) => deliveriesAfter(db(), w.tenant.id, filter, after, limit), row: (r) => [r.delivery.subject] });
    const c = (await readCsvDownload(capped)).records;
    expect(c).toHaveLength(1 + 5 + 1);
    expect(c.at(-1)).toEqual(['Export stopped at 5 deliveries: there are more. Narrow the filters (a shorter date range) and export again.']);
  });
});

describe('audit export', () => {
  it('honours the /audit filters, keeps reasons with commas and newlines, never shows another tenant, and is itself audited', async () => {
    const w = await world();
    await appendAudit(db(), { tenantId: w.tenant.id, actor: 'zoë@x.test', action: 'suppression_add', reason: 'asked by Zoë, twice', at: new Date('2027-05-20T10:00:00Z'), details: { address: 'zoe@x.test' } });
    const read = async (qs: string) => byHeading((await readCsvDownload((await auditCsv(db(), w.ctx, parseAuditQuery(new URLSearchParams(qs)))).body)).records);

    const cancels = await read('action=booking_cancel');
    expect(cancels).toHaveLength(1);
    expect(cancels[0]).toMatchObject({ Who: 'staff@x.test', Action: 'Cancelled a booking', 'Action code': 'booking_cancel', Reason: NOTE, Address: 'lucja@x.test', Event: 'Warsztaty w Łodzi, dzień 1' });
    expect(JSON.parse(cancels[0]['Details (JSON)'])).toMatchObject({ bookingId: w.lucja.id, email: 'lucja@x.test' });
    // Dates are whole local days in the tenant zone (Europe/Warsaw), `to` inclusive.
    const may = await read('from=2027-05-20&to=2027-05-20');
    expect(may.map((r) => [r['Action code'], r.Reason, r.Who])).toEqual([['suppression_add', 'asked by Zoë, twice', 'zoë@x.test']]);
    expect(may[0]).toMatchObject({ 'When (UTC)': '2027-05-20T10:00:00Z', 'When (Europe/Warsaw)': '2027-05-20 12:00:00' });
    // Unfiltered: every entry of this tenant, the exports themselves included; nothing of the other tenant.
    const all = await read('');
    expect(all.every((r) => r.Who !== 'other@y.test' && !r.Reason.includes('secret'))).toBe(true);
    // It lists itself (written before the first row is read).
    expect(all.filter((r) => r['Action code'] === 'export' && r.Action === 'Exported the audit log (CSV)').map((r) => JSON.parse(r['Details (JSON)']).filters)).toContainEqual({});
    const exports = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, w.tenant.id), eq(auditLog.action, 'export')));
    expect(exports.map((a) => a.details)).toEqual(
      expect.arrayContaining([
        { what: 'audit', filters: { action: 'booking_cancel' } },
        { what: 'audit', filters: { from: '2027-05-20', to: '2027-05-20' } },
        { what: 'audit', filters: {} },
      ]),
    );
    expect(exports.every((a) => a.actor === 'staff@x.test')).toBe(true);
    expect(await db().select().from(auditLog).where(and(eq(auditLog.tenantId, w.other.id), eq(auditLog.action, 'export')))).toHaveLength(0);
  });
});
