/** Reminder rules of a tenant, for the staff UI. */
import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { reminderRules, type ReminderRule } from '../schema';

/** Every rule of the tenant (active first, then by name). */
export async function listRules(db: DbOrTx, tenantId: string): Promise<ReminderRule[]> {
  const rows = await db.select().from(reminderRules).where(eq(reminderRules.tenantId, tenantId)).orderBy(asc(reminderRules.name));
  return rows.sort((a, b) => Number(b.active) - Number(a.active));
}
