/**
 * Issue #22 §2, an organisation's own message text, against real PostgreSQL: a draft is checked before it is stored
 * (the issue's `{eventTitel}` scenario: 400 naming the variable and listing the known ones, nothing stored), saved,
 * published as numbered versions (audited), rolled back and reset to the built-in text with every version kept;
 * stale saves are 409s that write nothing (invariant 11); only admins write; every read is one tenant's.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertStaffUser } from '@/db/queries/accounts/staff';
import { auditLog, messageTexts, tenants } from '@/db/schema';
import { textOverview } from '@/server/messages/text-overview';
import { effectiveText, publishText, readMessageText, resetToBuiltIn, rollbackText, saveDraft, textHistory } from '@/server/messages/message-texts';
import { createTenant } from '@/server/organisations/tenants';
import { AppError } from '@/server/platform/errors';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.close());
beforeEach(async () => tdb.reset());

const db = () => tdb.db;
const now = new Date('2027-06-01T09:00:00Z');
let n = 0;

async function tenant() {
  return createTenant(db(), { slug: `mt${++n}-${Date.now().toString(36)}`, name: 'Keramik Studio', timeZone: 'Europe/Berlin', emailProvider: 'smtp' });
}
async function staff(tenantId: string, role: 'admin' | 'staff' | 'viewer' = 'admin', at = now) {
  const email = `${role}${++n}@example.test`;
  const id = await insertStaffUser(db(), { tenantId, email, name: `${role} ${n}`, role, passwordHash: 'not-used' });
  return { tenantId, actor: email, actorId: id!, now: at };
}
async function refusal(p: Promise<unknown>): Promise<AppError> {
  const r = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(r).toBeInstanceOf(AppError);
  return r as AppError;
}

const key = { kind: 'attendee-reminder', locale: 'de' } as const;
const german = {
  subject: 'Erinnerung: {eventTitle}',
  body: 'Guten Tag,\n\n**{eventTitle}** beginnt {when}. Bitte bringen Sie eine Schürze mit.',
  sms: '{tenantName}: Erinnerung - {eventTitle}, {when}. Schürze mitbringen!',
};
const rowsOf = (tenantId: string) => db().select().from(messageTexts).where(eq(messageTexts.tenantId, tenantId));

describe('message texts', () => {
  it('issue #22: {eventTitel} in a German reminder body is a 400 naming it and the known variables; nothing stored. {eventTitle} is saved as a draft', async () => {
    const t = await tenant();
    const a = await staff(t.id);
    const e = await refusal(saveDraft(db(), a, { ...key, ...german, body: 'Guten Tag,\n\n{eventTitel} beginnt {when}.', rowVersion: 0 }));
    expect(e.httpStatus).toBe(400);
    expect(e.field).toBe('body');
    expect(e.message).toContain('{eventTitel}');
    expect(e.details).toMatchObject({ variable: 'eventTitel', line: 3 });
    const [first] = (e.details as { errors: { variable: string; known: string[]; line: number }[] }).errors;
    expect(first).toMatchObject({ field: 'body', line: 3, variable: 'eventTitel', suggestion: 'eventTitle' });
    expect(first.known).toContain('eventTitle');
    expect(await rowsOf(t.id)).toEqual([]);

    const saved = await saveDraft(db(), a, { ...key, ...german, rowVersion: 0 });
    expect(saved).toMatchObject({ kind: 'attendee-reminder', locale: 'de', rowVersion: 1, published: null, draft: { subject: german.subject, body: german.body, sms: german.sms } });
    expect(await effectiveText(db(), { tenantId: t.id, ...key })).toBeNull();
  });

  it('publish makes the draft version 1 (audited) and the effective text; a second publish is version 2', async () => {
    const t = await tenant();
    const a = await staff(t.id);
    let v = await saveDraft(db(), a, { ...key, ...german, rowVersion: 0 });
    v = await publishText(db(), a, { ...key, rowVersion: v.rowVersion });
    expect(v.draft).toBeNull();
    expect(v.published).toMatchObject({ version: 1, status: 'published', subject: german.subject, publishedBy: expect.stringMatching(/^admin \d+$/) });
    expect(await effectiveText(db(), { tenantId: t.id, ...key })).toEqual({ version: 1, ...german });
    // Another language and another organisation are not touched.
    expect(await effectiveText(db(), { tenantId: t.id, kind: key.kind, locale: 'nl' })).toBeNull();
    const other = await tenant();
    expect(await effectiveText(db(), { tenantId: other.id, ...key })).toBeNull();
    expect((await readMessageText(db(), other.id, key)).published).toBeNull();

    v = await saveDraft(db(), a, { ...key, ...german, subject: 'Bald: {eventTitle}', rowVersion: v.rowVersion });
    v = await publishText(db(), a, { ...key, rowVersion: v.rowVersion });
    expect(v.published).toMatchObject({ version: 2, subject: 'Bald: {eventTitle}' });
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.tenantId, t.id), eq(auditLog.action, 'message_text_publish')));
    expect(audits.map((x) => x.details).sort((p, q) => JSON.stringify(p).localeCompare(JSON.stringify(q)))).toEqual([
      { kind: key.kind, locale: 'de', version: 1 },
      { kind: key.kind, locale: 'de', version: 2 },
    ]);
    expect(audits.every((x) => x.actor === a.actor)).toBe(true);
  });

  it('two editors: the second save with the state both opened is a 409 with the current text that writes nothing', async () => {
    const t = await tenant();
    const a = await staff(t.id);
    const b = await staff(t.id);
    const opened = (await readMessageText(db(), t.id, key)).rowVersion;
    expect(opened).toBe(0);
    await saveDraft(db(), a, { ...key, ...german, rowVersion: opened });
    const e = await refusal(saveDraft(db(), b, { ...key, ...german, subject: 'Von B: {eventTitle}', rowVersion: opened }));
    expect(e.httpStatus).toBe(409);
    expect(e.details).toMatchObject({ version: 1, current: { draft: { subject: german.subject } } });
    const rows = await rowsOf(t.id);
    expect(rows.map((r) => r.subject)).toEqual([german.subject]);
    // A publish by A makes B's view stale too: B cannot publish or overwrite what B never saw.
    await publishText(db(), a, { ...key, rowVersion: 1 });
    expect((await refusal(saveDraft(db(), b, { ...key, ...german, rowVersion: 1 }))).httpStatus).toBe(409);
    // A version nobody was given is a 400, not a 409.
    expect((await refusal(saveDraft(db(), b, { ...key, ...german, rowVersion: 99 }))).httpStatus).toBe(400);
  });

  it('two saves at the same moment from the same state: one is stored, the other is a 409 (the key is locked while deciding)', async () => {
    const t = await tenant();
    const a = await staff(t.id);
    const b = await staff(t.id);
    const results = await Promise.allSettled([
      saveDraft(db(), a, { ...key, ...german, subject: 'A: {eventTitle}', rowVersion: 0 }),
      saveDraft(db(), b, { ...key, ...german, subject: 'B: {eventTitle}', rowVersion: 0 }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((rejected.reason as AppError).httpStatus).toBe(409);
    expect(await rowsOf(t.id)).toHaveLength(1);
  });

  it('only admins write; a missing draft cannot be published; an unknown kind or language is a 400', async () => {
    const t = await tenant();
    const s = await staff(t.id, 'staff');
    const a = await staff(t.id);
    expect((await refusal(saveDraft(db(), s, { ...key, ...german, rowVersion: 0 }))).httpStatus).toBe(403);
    expect(await rowsOf(t.id)).toEqual([]);
    expect((await refusal(publishText(db(), a, { ...key, rowVersion: 0 }))).httpStatus).toBe(409);
    expect((await refusal(saveDraft(db(), a, { ...german, kind: 'password-reset', locale: 'de', rowVersion: 0 }))).field).toBe('kind');
    expect((await refusal(saveDraft(db(), a, { ...german, kind: key.kind, locale: 'pl', rowVersion: 0 }))).field).toBe('locale');
  });

  it('roll back publishes a copy of version N as a new version; reset goes back to the built-in text; every version is kept', async () => {
    const t = await tenant();
    const a = await staff(t.id);
    let v = await saveDraft(db(), a, { ...key, ...german, rowVersion: 0 });
    v = await publishText(db(), a, { ...key, rowVersion: v.rowVersion });
    v = await saveDraft(db(), a, { ...key, ...german, subject: 'Version zwei: {eventTitle}', rowVersion: v.rowVersion });
    v = await publishText(db(), a, { ...key, rowVersion: v.rowVersion });
    v = await rollbackText(db(), a, { ...key, toVersion: 1, rowVersion: v.rowVersion });
    expect(v.published).toMatchObject({ version: 3, subject: german.subject, copiedFrom: 1 });
    expect(await effectiveText(db(), { tenantId: t.id, ...key })).toEqual({ version: 3, ...german });

    v = await resetToBuiltIn(db(), a, { ...key, rowVersion: v.rowVersion });
    expect(v.published).toBeNull();
    expect(await effectiveText(db(), { tenantId: t.id, ...key })).toBeNull();
    // Reset again: nothing to do, nothing written.
    const again = await resetToBuiltIn(db(), a, { ...key, rowVersion: v.rowVersion });
    expect(again.rowVersion).toBe(v.rowVersion);

    const history = await textHistory(db(), t.id, key);
    expect(history.map((h) => [h.version, h.status, h.subject, h.copiedFrom])).toEqual([
      [4, 'reset', null, null],
      [3, 'published', german.subject, 1],
      [2, 'published', 'Version zwei: {eventTitle}', null],
      [1, 'published', german.subject, null],
    ]);
    expect(history.every((h) => /^admin \d+$/.test(h.publishedBy) && h.publishedAt === now.toISOString())).toBe(true);
    // A reset version cannot be rolled back to; an earlier text can be brought back after a reset.
    expect((await refusal(rollbackText(db(), a, { ...key, toVersion: 4, rowVersion: v.rowVersion }))).httpStatus).toBe(409);
    expect((await refusal(rollbackText(db(), a, { ...key, toVersion: 9, rowVersion: v.rowVersion }))).httpStatus).toBe(404);
    v = await rollbackText(db(), a, { ...key, toVersion: 2, rowVersion: v.rowVersion });
    expect(await effectiveText(db(), { tenantId: t.id, ...key })).toMatchObject({ version: 5, subject: 'Version zwei: {eventTitle}' });
    const actions = (await db().select().from(auditLog).where(eq(auditLog.tenantId, t.id))).map((x) => x.action).sort();
    expect(actions).toEqual(['message_text_publish', 'message_text_publish', 'message_text_reset', 'message_text_rollback', 'message_text_rollback']);
  });

  it('an SMS text is checked against the organisation’s own segment limit (settings), not a fixed one', async () => {
    const t = await tenant();
    const a = await staff(t.id);
    // Two GSM-7 segments with the sample values: over a limit of 1, within the default of 3.
    const long = { ...german, sms: `{tenantName}: Erinnerung - {eventTitle}, {when}. ${'Bitte eine Schürze mitbringen und rechtzeitig da sein. '.repeat(2)}` };
    await db().update(tenants).set({ smsSegmentLimit: 1 }).where(eq(tenants.id, t.id));
    const e = await refusal(saveDraft(db(), a, { ...key, ...long, rowVersion: 0 }));
    expect([e.httpStatus, e.field]).toEqual([400, 'sms']);
    expect(e.message).toMatch(/\b1\b/);
    expect(await rowsOf(t.id)).toHaveLength(0);
    await db().update(tenants).set({ smsSegmentLimit: 3 }).where(eq(tenants.id, t.id));
    const v = await saveDraft(db(), a, { ...key, ...long, rowVersion: 0 });
    expect(v.draft?.sms).toBe(long.sms);
    // Lowered again before publishing: the publish re-checks against the limit as it is then.
    await db().update(tenants).set({ smsSegmentLimit: 1 }).where(eq(tenants.id, t.id));
    expect((await refusal(publishText(db(), a, { ...key, rowVersion: v.rowVersion }))).field).toBe('sms');
  });
});

describe('the templates overview', () => {
  it('counts the SMS segments of the text in effect per language: Punctual’s, then the organisation’s own once published', async () => {
    const t = await tenant();
    const a = await staff(t.id);
    const before = (await textOverview(db(), t.id, 'Keramik Studio')).find((s) => s.kind === key.kind && s.locale === key.locale)!;
    expect(before.published).toBeNull();
    expect(before.sms).toMatchObject({ segments: 1, encoding: 'GSM-7' });
    // The preferences link (~145 characters) every SMS ends with is a segment of its own.
    expect(before.sms!.withLink).toBe(2);
    const long = { ...german, sms: `{tenantName}: ${'Bitte eine Schürze mitbringen und rechtzeitig da sein. '.repeat(6)}{eventTitle}, {when}.` };
    let v = await saveDraft(db(), a, { ...key, ...long, rowVersion: 0 });
    v = await publishText(db(), a, { ...key, rowVersion: v.rowVersion });
    const after = (await textOverview(db(), t.id, 'Keramik Studio')).find((s) => s.kind === key.kind && s.locale === key.locale)!;
    expect(after.published).toBe(1);
    expect(after.sms!.segments).toBeGreaterThan(before.sms!.segments);
    expect(after.sms!.segments).toBeLessThanOrEqual(3);
    expect(after.sms!.withLink).toBeGreaterThan(after.sms!.segments);
    // Other languages still count Punctual's text.
    expect((await textOverview(db(), t.id)).find((s) => s.kind === key.kind && s.locale === 'nl')!.published).toBeNull();
  });
});
