/**
 * Every message kind's built-in words preview in the text editor (server/messages/text-preview.ts), against real
 * PostgreSQL: each variable the kind offers has a value (a kind added without one answered HTTP 500 in the editor).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { templateIds, type TemplateId } from '@/domain/vocabulary';
import { previewText } from '@/server/messages/text-preview';
import { builtInDraft } from '@/server/messages/text-overview';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { tenantWithRules } from '@/test/support/fixtures';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => {
  await tdb?.close();
});

it.each(templateIds.map((k) => [k]))('%s: the built-in words preview as email and SMS', async (kind) => {
  const { tenant } = await tenantWithRules(tdb.db, []);
  const draft = builtInDraft(kind as TemplateId, 'en');
  const r = await previewText(tdb.db, tenant.id, { kind, locale: 'en', subject: draft.subject, body: draft.body, sms: draft.sms });
  expect(r.subject.length).toBeGreaterThan(0);
  expect(r.sms.length).toBeGreaterThan(0);
  expect(r.html).toContain('<');
});
