/** SQL of the organisation settings page (issue #13): the tenant row under lock, its settings update, test messages. */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { orgTestMessages, tenants, type OrgTestMessage, type Tenant } from '@/db/schema';
import type { OrgSettings, TestMessageStatus } from '@/domain/organisations/org-settings';
import type { EmailProvider } from '@/domain/vocabulary';

/** The tenant row locked FOR UPDATE (a settings save's row lock), or undefined. */
export async function lockTenant(db: DbOrTx, tenantId: string): Promise<Tenant | undefined> {
  const [t] = await db.select().from(tenants).where(eq(tenants.id, tenantId)).for('update');
  return t;
}

/** Writes the settings (the row-version trigger bumps `version` and sets `updated_by`). */
export async function updateTenantSettings(db: DbOrTx, tenantId: string, s: OrgSettings, now: Date, opts: { clearSenderProof?: boolean } = {}): Promise<Tenant> {
  const [t] = await db
    .update(tenants)
    .set({
      name: s.name,
      timeZone: s.timeZone,
      senderName: s.senderName,
      senderEmail: s.senderEmail,
      replyTo: s.replyTo,
      locale: s.locale,
      emailProvider: s.emailProvider,
      smsSegmentLimit: s.smsSegmentLimit,
      unconfirmedAlertThreshold: s.unconfirmedAlertThreshold,
      updatedAt: now,
      // A new sender address: the proof of the old one goes (server/organisations/sender-identity.ts claimSenderAddress).
      ...(opts.clearSenderProof ? { senderVerifiedEmail: null, senderVerifiedVia: null, senderVerifiedAt: null } : {}),
    })
    .where(eq(tenants.id, tenantId))
    .returning();
  return t;
}

/**
 * Serialises test-message requests of one tenant (a transaction-scoped advisory lock), so two clicks cannot both
 * pass the once-per-10-seconds check.
 */
export async function lockTestMessages(db: DbOrTx, tenantId: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`org_test_messages:${tenantId}`}))`);
}

/** When the tenant's latest test message was asked for, or null. */
export async function lastTestMessageAt(db: DbOrTx, tenantId: string): Promise<Date | null> {
  const [r] = await db.select({ at: orgTestMessages.createdAt }).from(orgTestMessages).where(eq(orgTestMessages.tenantId, tenantId)).orderBy(desc(orgTestMessages.createdAt)).limit(1);
  return r?.at ?? null;
}

export async function insertTestMessage(db: DbOrTx, m: { tenantId: string; to: string; requestedBy: string; provider: EmailProvider; at: Date }): Promise<OrgTestMessage> {
  const [row] = await db.insert(orgTestMessages).values({ tenantId: m.tenantId, to: m.to, requestedBy: m.requestedBy, provider: m.provider, createdAt: m.at }).returning();
  return row;
}

/** One test message of the tenant (tenant-scoped), or undefined. */
export async function getTestMessage(db: DbOrTx, tenantId: string, id: string): Promise<OrgTestMessage | undefined> {
  const [row] = await db.select().from(orgTestMessages).where(and(eq(orgTestMessages.tenantId, tenantId), eq(orgTestMessages.id, id)));
  return row;
}

/** The worker's read of a test message by id (its job names only the id). */
export async function getTestMessageById(db: DbOrTx, id: string): Promise<OrgTestMessage | undefined> {
  const [row] = await db.select().from(orgTestMessages).where(eq(orgTestMessages.id, id));
  return row;
}

/** The tenant's latest test messages, newest first. */
export async function recentTestMessages(db: DbOrTx, tenantId: string, limit = 5): Promise<OrgTestMessage[]> {
  return db.select().from(orgTestMessages).where(eq(orgTestMessages.tenantId, tenantId)).orderBy(desc(orgTestMessages.createdAt)).limit(limit);
}

/** Records the outcome of a pending test message; false when it was already finished (a redelivered job). */
export async function finishTestMessage(db: DbOrTx, id: string, r: { status: Exclude<TestMessageStatus, 'pending'>; answer: string; at: Date }): Promise<boolean> {
  const rows = await db
    .update(orgTestMessages)
    .set({ status: r.status, providerAnswer: r.answer, finishedAt: r.at })
    .where(and(eq(orgTestMessages.id, id), eq(orgTestMessages.status, 'pending')))
    .returning({ id: orgTestMessages.id });
  return rows.length > 0;
}
