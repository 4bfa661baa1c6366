/**
 * SQL behind the first-day checklist (domain/dashboards/first-day.ts): the facts it ticks from, read in one statement
 * scoped to one tenant (invariant 9), and its dismissal.
 *
 * Cost: every count stops at its first row where a yes/no is all the checklist needs (`exists`); the test message is
 * looked up by the organisation's staff addresses (a handful) among its deliveries — fine while the checklist shows (a
 * new organisation has few deliveries); the dashboard skips the query once the checklist was dismissed.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { tenants } from '@/db/schema';
import type { FirstDayFacts } from '@/domain/dashboards/first-day';

/**
 * The checklist's stored facts for `tenantId` (null when there is no such tenant); whether the sender address is
 * proven is the caller's (it depends on the deployment's configuration: server/dashboards/first-day.ts).
 */
export async function firstDayFacts(db: DbOrTx, tenantId: string): Promise<Omit<FirstDayFacts, 'senderVerified'> | null> {
  const rows = await db.execute<{
    active_rules: number;
    events: number;
    test_messages: number;
    staff_accounts: number;
    pending_invitations: number;
    dismissed_at: string | null;
  }>(sql`
    select
      (select count(*)::int from reminder_rules r where r.tenant_id = t.id and r.active) as active_rules,
      (select count(*)::int from (select 1 from events e where e.tenant_id = t.id limit 1) x) as events,
      (select count(*)::int from (
         select 1 from deliveries d
          where d.tenant_id = t.id and d.channel = 'email' and d.status in ('accepted', 'delivered')
            and lower(d.address) in (select lower(u.email) from staff_users u where u.tenant_id = t.id)
          limit 1) x) as test_messages,
      (select count(*)::int from staff_users u where u.tenant_id = t.id and u.disabled_at is null) as staff_accounts,
      (select count(*)::int from staff_invitations i where i.tenant_id = t.id and i.status = 'pending' and i.expires_at > now()) as pending_invitations,
      t.first_day_dismissed_at as dismissed_at
    from tenants t where t.id = ${tenantId}`);
  const r = rows[0];
  if (!r) return null;
  return {
    activeRules: r.active_rules,
    events: r.events,
    testMessages: r.test_messages,
    staffAccounts: r.staff_accounts,
    pendingInvitations: r.pending_invitations,
    dismissedAt: r.dismissed_at ? new Date(r.dismissed_at) : null,
  };
}

/** Marks the checklist dismissed at `at` (UTC instant); @returns false when it already was (nothing changed). */
export async function dismissFirstDay(db: DbOrTx, tenantId: string, at: Date): Promise<boolean> {
  const changed = await db
    .update(tenants)
    .set({ firstDayDismissedAt: at })
    .where(and(eq(tenants.id, tenantId), isNull(tenants.firstDayDismissedAt)))
    .returning({ id: tenants.id });
  return changed.length > 0;
}
