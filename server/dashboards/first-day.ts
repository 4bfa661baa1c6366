/**
 * The first-day checklist of an organisation's dashboard (domain/dashboards/first-day.ts): its items for the page,
 * and an admin dismissing it (audited `first_day_dismiss`).
 */
import type { Db, DbOrTx } from '@/db/client';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { dismissFirstDay, firstDayFacts } from '@/db/queries/dashboards/first-day';
import { setActor } from '@/db/queries/platform/actor';
import type { Tenant } from '@/db/schema';
import { firstDayChecklist, type FirstDayChecklist } from '@/domain/dashboards/first-day';
import { senderProof } from '@/domain/organisations/sender-identity';
import { senderIdentityFromEnv } from '@/server/organisations/sender-config';
import { recheckActor } from '@/server/platform/versions';

/**
 * The checklist of `tenant` as its dashboard shows it. The sender address counts as proven the way the send path
 * decides From (verified, on the operator's allowlist, or the deployment's own default sender).
 * @returns null when the checklist was dismissed (no query beyond the tenant row already read).
 */
export async function firstDayChecklistOf(db: DbOrTx, tenant: Pick<Tenant, 'id' | 'senderEmail' | 'senderVerifiedEmail' | 'firstDayDismissedAt'>): Promise<FirstDayChecklist | null> {
  if (tenant.firstDayDismissedAt) return null;
  const facts = await firstDayFacts(db, tenant.id);
  if (!facts) return null;
  return firstDayChecklist({ ...facts, senderVerified: senderProof(tenant, senderIdentityFromEnv()) !== 'unverified' });
}

/**
 * An admin (permission `configure`, re-checked in the transaction) dismisses the checklist for the whole
 * organisation. A second dismissal changes nothing and writes no second audit entry.
 * @returns whether this call dismissed it.
 * @throws AppError forbidden when the actor may no longer configure.
 */
export async function dismissFirstDayChecklist(db: Db, ctx: { tenantId: string; actor: string; actorId?: string; now: Date }): Promise<{ dismissed: boolean }> {
  return db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'configure');
    await setActor(tx, ctx.actor);
    const dismissed = await dismissFirstDay(tx, ctx.tenantId, ctx.now);
    if (dismissed) await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'first_day_dismiss', at: ctx.now });
    return { dismissed };
  });
}
