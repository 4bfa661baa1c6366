/**
 * A participant's language, chosen by staff when booking (issue 8 §5: the words of an email follow the
 * reader), against real PostgreSQL: stored canonical on the contact, a known person's language kept when
 * none is chosen, a malformed tag refused naming the field with nothing written.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, contacts } from '@/db/schema';
import { AppError } from '@/server/platform/errors';
import { addBookingAction, createEventAction } from '@/server/scheduling/staff-actions';
import { createTestDatabase, type TestDatabase } from '@/test/support/db';
import { tenantWithRules } from '@/test/support/fixtures';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(async () => tdb?.close());
beforeEach(async () => tdb.reset());
const db = () => tdb.db;

describe('the language of a participant’s messages', () => {
  it('is stored canonical; an empty choice keeps what is known; a malformed tag is a 400 naming locale and writes nothing', async () => {
    const { tenant } = await tenantWithRules(db(), [{ offset: '-PT1H' }]);
    const ctx = { tenantId: tenant.id, actor: 'staff@example.test', now: new Date('2027-06-01T00:00:00Z') }; // no actorId: not a staff account (role re-check: recheck-under-lock.test.ts)
    const e1 = await createEventAction(db(), ctx, { title: 'Kurs', timeZone: 'Europe/Berlin', start: '2027-06-15T10:00', end: '2027-06-15T11:00' });
    const e2 = await createEventAction(db(), ctx, { title: 'Kurs 2', timeZone: 'Europe/Berlin', start: '2027-06-16T10:00', end: '2027-06-16T11:00' });
    await addBookingAction(db(), ctx, e1.id, { name: 'Anna', email: 'anna@example.test', role: 'attendee', locale: 'DE-de' });
    const localeOf = async () => (await db().select({ locale: contacts.locale }).from(contacts).where(eq(contacts.email, 'anna@example.test')))[0]?.locale;
    expect(await localeOf()).toBe('de-DE');
    await addBookingAction(db(), ctx, e2.id, { name: 'Anna', email: 'anna@example.test', role: 'attendee', locale: '' });
    expect(await localeOf()).toBe('de-DE');

    const err = await addBookingAction(db(), ctx, e1.id, { name: 'Bo', email: 'bo@example.test', role: 'attendee', locale: 'de_DE!' }).then(
      () => null,
      (x: unknown) => x,
    );
    expect(err).toBeInstanceOf(AppError);
    expect([(err as AppError).code, (err as AppError).field]).toEqual(['validation', 'locale']);
    expect(await db().select().from(contacts).where(eq(contacts.email, 'bo@example.test'))).toHaveLength(0);
    expect(await db().select().from(bookings).where(eq(bookings.eventId, e1.id))).toHaveLength(1);
  });
});
