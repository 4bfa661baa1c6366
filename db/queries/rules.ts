/** Reminder rules of a tenant, for the staff UI. */
import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { reminderRules, type ReminderRule } from '../schema';
import { isUuid } from './views';

/** Every rule of the tenant (active first, then by name). */
export async function listRules(db: DbOrTx, tenantId: string): Promise<ReminderRule[]> {
  const rows = await db.select().from(reminderRules).where(eq(reminderRules.tenantId, tenantId)).orderBy(asc(reminderRules.name));
  return rows.sort((a, b) => Number(b.active) - Number(a.active));
}

/** The rule `ruleId` of tenant `tenantId`; null when the id is malformed or the rule is another tenant's. */
export async function getRule(db: DbOrTx, tenantId: string, ruleId: string): Promise<ReminderRule | null> {
  if (!isUuid(ruleId)) return null;
  const [row] = await db.select().from(reminderRules).where(and(eq(reminderRules.tenantId, tenantId), eq(reminderRules.id, ruleId)));
  return row ?? null;
}
