/**
 * SQL of a tenant's notification settings (server/notifications/notification-settings.ts): one `notification_settings` row per
 * tenant, edited by admins with the row version they saw (invariant 11; the row-version trigger bumps `version`
 * and copies the transaction's actor into `updated_by` on every UPDATE that changes the row).
 */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { notificationSettings, type NotificationSettings } from '@/db/schema';

/** The tenant's settings row, or undefined when none was ever saved. No lock. */
export async function readSettingsRow(db: DbOrTx, tenantId: string): Promise<NotificationSettings | undefined> {
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.tenantId, tenantId));
  return row;
}

/** The tenant's settings row locked FOR UPDATE (the writer's version check and write happen under it), or undefined. */
export async function lockSettingsRow(db: DbOrTx, tenantId: string): Promise<NotificationSettings | undefined> {
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.tenantId, tenantId)).for('update');
  return row;
}

/** The columns a save writes. */
type SettingsWrite = Pick<
  NotificationSettings,
  'policy' | 'smsSender' | 'webhookUrl' | 'webhookSecret' | 'webhookEnabled' | 'webhookDisabledReason' | 'webhookDisabledAt'
>;

/**
 * Inserts the tenant's first settings row (version 1, `updated_by` = actor: the trigger only runs on UPDATE).
 * ON CONFLICT DO NOTHING: when another first save committed meanwhile, returns undefined and writes nothing —
 * the caller then answers with that row as a stale save.
 */
export async function insertSettingsRow(db: DbOrTx, tenantId: string, values: SettingsWrite, actor: string, at: Date): Promise<NotificationSettings | undefined> {
  const [row] = await db
    .insert(notificationSettings)
    .values({ tenantId, ...values, version: 1, updatedBy: actor, updatedAt: at })
    .onConflictDoNothing({ target: notificationSettings.tenantId })
    .returning();
  return row;
}

/** Writes `values` to the tenant's (locked) row and returns it as stored (version bumped by the trigger). */
export async function updateSettingsRow(db: DbOrTx, tenantId: string, values: Partial<SettingsWrite>, at: Date): Promise<NotificationSettings> {
  const [row] = await db
    .update(notificationSettings)
    .set({ ...values, updatedAt: at })
    .where(eq(notificationSettings.tenantId, tenantId))
    .returning();
  return row;
}
