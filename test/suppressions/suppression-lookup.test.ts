/**
 * The send-time suppression lookup (db/queries/suppressions/send-time.ts `findSuppressions` / `suppressionOf`) against real
 * PostgreSQL: one statement for a whole wave of the batch send path, case-insensitive by PostgreSQL's own `lower()`,
 * live entries only, per channel and per list — and addresses whose characters mean something in an array literal.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { suppressions } from '@/db/schema';
import { findSuppression, findSuppressions, suppressionOf } from '@/db/queries/suppressions/send-time';
import { addSuppression } from '@/server/suppressions/suppressions';
import { createHarness, type Harness } from '@/test/support/harness';
import { tenantWithRules } from '@/test/support/fixtures';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.tdb.reset();
});
const db = () => h.tdb.db;

describe('suppression lookup for a wave', () => {
  it('finds each address of the wave on the right list and channel, whatever its case or characters', async () => {
    const { tenant: a } = await tenantWithRules(db(), []);
    const { tenant: b } = await tenantWithRules(db(), []);
    const odd = '"quoted,local\\\\part{x}"@Example.test';
    await addSuppression(db(), a.id, { address: 'Gone@Example.test', reason: 'bounced', source: 'test' });
    // Written straight to the table: the staff form refuses a quoted local part, but an address can arrive this way
    // from a provider's report, and the lookup must not break on what an array literal treats specially.
    await db().insert(suppressions).values({ tenantId: a.id, address: odd.toLowerCase(), reason: 'complained', source: 'test' });
    await addSuppression(db(), b.id, { address: 'other@example.test', reason: 'manual', source: 'test' });
    await addSuppression(db(), a.id, { address: '+31612345678', reason: 'unsubscribed', channel: 'sms', source: 'test' });
    await addSuppression(db(), a.id, { address: 'removed@example.test', reason: 'manual', source: 'test' });
    await db().update(suppressions).set({ removedAt: new Date() }).where(eq(suppressions.address, 'removed@example.test'));

    const wave = ['gone@example.test', 'GONE@example.TEST', odd, 'other@example.test', 'removed@example.test', 'fine@example.test', '+31612345678'];
    const hits = await findSuppressions(db(), [a.id], wave, ['email', 'sms']);
    const of = (address: string, channel: 'email' | 'sms' = 'email') => suppressionOf(hits, [a.id], address, channel)?.reason ?? null;
    expect(of('gone@example.test')).toBe('bounced');
    expect(of('GONE@example.TEST')).toBe('bounced'); // two spellings of one address in one wave: both stopped
    expect(of(odd)).toBe('complained');
    expect(of('other@example.test')).toBeNull(); // on b's list, not a's
    expect(of('removed@example.test')).toBeNull(); // history stops nothing
    expect(of('fine@example.test')).toBeNull();
    expect(of('+31612345678', 'sms')).toBe('unsubscribed');
    expect(of('+31612345678', 'email')).toBeNull(); // a STOP stops SMS only
    // Both lists at once (a guest's message): b's entry counts too.
    const both = await findSuppressions(db(), [a.id, b.id], ['other@example.test'], ['email']);
    expect(suppressionOf(both, [a.id, b.id], 'other@example.test', 'email')?.reason).toBe('manual');
    expect(suppressionOf(both, [a.id], 'other@example.test', 'email')).toBeNull();
    // The single path's lookup is the same rule.
    expect((await findSuppression(db(), [a.id], odd, 'email'))?.reason).toBe('complained');
    expect(await findSuppression(db(), [a.id], 'fine@example.test', 'email')).toBeNull();
  });
});
