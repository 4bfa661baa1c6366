/**
 * The reminder-rule lifecycle (issue #13): create a rule, change it (timing, audience, channel, active), delete
 * one that never produced a reminder — and, for a create or a change, what happens to the pending reminders of
 * upcoming events: the staff member previews the count ({@link previewRuleImpact}, read-only) and chooses
 *
 *  - `replan` — in the SAME transaction as the rule write: the rule's impact (domain/rules/rule-impact.ts, the one
 *    planner) is computed again from rows read under the locks the scheduling code takes (every upcoming event
 *    FOR UPDATE in id order, then the rule's reminders FOR UPDATE), and applied: new reminders inserted (business
 *    key = message key, insert-or-nothing: never twice), waiting ones re-timed in place or cancelled — never one
 *    already `dispatched`/`done` —, the rule's wake-ups set. For a deactivation this is "cancel its N pending
 *    reminders".
 *  - `new_only` — the rule is written; planned reminders keep their instants and only bookings and reschedules
 *    from now on follow it. For a deactivation this is "let them go out": `pending_go_out` is set, and the send
 *    path (domain/sending/send-decision.ts) lets the reminders it planned while active through.
 *
 * Each write: `recheckActor` first, the rule's row version checked under its lock (stale → 409 with the current
 * rule, nothing written), ONE audit entry (`rule_create` / `rule_update` / `rule_delete`) whose details hold the
 * choice, the previewed count and the applied counts. Admin-only (`configure`).
 */
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx, Tx } from '@/db/client';
import { setActor } from '@/db/queries/platform/actor';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { retimeReminder } from '@/db/queries/scheduling/participants';
import {
  cancelWaitingReminders,
  earliestScheduledOfRuleByEvent,
  remindersOfRuleCount,
  ruleRemindersOfUpcoming,
  upcomingBookingsWithContacts,
  upcomingEvents,
} from '@/db/queries/rules/rules';
import { getTenant } from '@/db/queries/scheduling/scheduling';
import { insertPlannedReminders } from '@/db/queries/scheduling/bulk-planning';
import { reminderRules, type ReminderRule, type Tenant } from '@/db/schema';
import { DueInstantError } from '@/domain/scheduling/due-instant';
import type { PlanningRule } from '@/domain/scheduling/planning';
import { impactCounts, impactLines, ruleImpact, type RuleImpact, type RuleImpactCounts } from '@/domain/rules/rule-impact';
import { appliedMessage, type RuleChoice } from '@/domain/rules/rule-lifecycle';
import { sameValue } from '@/domain/platform/edit-conflict';
import { AppError, assertId, parseInput } from '@/server/platform/errors';
import { enqueueRuleWakes } from '@/server/scheduling/planning';
import { ruleFormView, type ActionContext } from '@/server/scheduling/staff-actions';
import { reminderRuleSchema } from '@/server/rules/reminder-rule';
import { assertVersion, parseVersion, recheckActor } from '@/server/platform/versions';

const ruleChoices = ['replan', 'new_only'] as const;

const choiceSchema = z.object({
  /** What to do with pending reminders; absent on a change: `new_only` (the editor's behaviour before issue #13). */
  choice: z.enum(ruleChoices, { message: 'must be "replan" or "new_only"' }).optional(),
  /** The count the page showed (recorded in the audit entry and compared with the applied count). */
  previewPending: z.number().int().min(0).nullish(),
});

/** What a create or change answers: the rule, the choice, and the counts previewed and applied. */
interface RuleWriteResult {
  rule: ReturnType<typeof ruleFormView>;
  choice: RuleChoice;
  previewPending: number | null;
  /** Counts applied in the transaction (null for `new_only`: nothing re-planned). */
  applied: RuleImpactCounts | null;
  /** The sentence for the page, e.g. "Created “2 hours before”. Re-planned 40 pending reminders." */
  message: string;
  /** False when a change changed nothing (nothing written, no audit entry). */
  changed: boolean;
}

const RULE_FIELDS = ['name', 'anchor', 'offset', 'audience', 'channel', 'template', 'lateSendWindowSeconds', 'active', 'onlyUnconfirmed'] as const;

function planningRule(id: string, f: z.output<typeof reminderRuleSchema>): PlanningRule {
  return { id, anchor: f.anchor, offset: f.offset, audience: f.audience, channel: f.channel, lateSendWindowSeconds: f.lateSendWindowSeconds, active: f.active, onlyUnconfirmed: f.onlyUnconfirmed };
}

async function requireTenant(db: DbOrTx, tenantId: string): Promise<Tenant> {
  const t = await getTenant(db, tenantId);
  if (!t) throw new AppError('not_found', `tenant ${tenantId} not found`, 'tenantId');
  return t;
}

/**
 * Loads the rows and computes the impact of `rule` (domain/rules/rule-impact.ts). `lock`: inside the writing
 * transaction, events FOR UPDATE (id order) then the rule's reminders FOR UPDATE.
 * @param ruleId the stored rule whose reminders are compared (null: a rule not yet created — none stored).
 * @throws AppError('validation', field offset/timeZone) when the planner cannot use the offset.
 */
async function computeImpact(db: DbOrTx, tenant: Tenant, ruleId: string | null, rule: PlanningRule, now: Date, lock: boolean): Promise<RuleImpact> {
  const evs = await upcomingEvents(db, tenant.id, now, lock);
  const rows = evs.length === 0 ? [] : await upcomingBookingsWithContacts(db, tenant.id, now);
  const stored = ruleId && evs.length > 0 ? await ruleRemindersOfUpcoming(db, tenant.id, ruleId, now, lock) : [];
  try {
    return ruleImpact({
      rule,
      events: evs.map((e) => ({ ...e, roomOpenLeadMinutes: e.roomOpenLeadMinutes ?? tenant.roomOpenLeadMinutes })),
      bookings: rows.map((b) => ({ id: b.id, eventId: b.eventId, role: b.role, status: b.status, attendance: b.attendance, contact: { email: b.email, phone: b.phone, timeZone: b.timeZone, preferences: b.preferences, quietHours: b.quietHours } })),
      stored,
      tenantZone: tenant.timeZone,
      now,
    });
  } catch (e) {
    if (e instanceof DueInstantError) throw new AppError('validation', `${e.field}: ${e.message}`, e.field);
    throw e;
  }
}

/**
 * Applies a computed impact inside the writing transaction: inserts (insert-or-nothing on the business key),
 * re-timings and cancellations of still-`scheduled` rows only, then the rule's wake-up per touched event.
 * Returns the counts as APPLIED (an insert that found its key taken by a concurrent booking's plan is not counted).
 */
async function applyImpact(tx: Tx, tenantId: string, ruleId: string, impact: RuleImpact, now: Date, reason: string): Promise<RuleImpactCounts> {
  const { inserted } = await insertPlannedReminders(
    tx,
    impact.add.map((a) => ({
      tenantId,
      eventId: a.eventId,
      bookingId: a.bookingId,
      ruleId,
      scheduleVersion: a.scheduleVersion,
      channel: a.channel,
      dueAt: a.dueAt,
      deferredFrom: a.deferredFrom,
      expiresAt: a.expiresAt,
      status: a.status,
      statusReason: a.statusReason,
    })),
  );
  let moved = 0;
  for (const m of impact.move) if (await retimeReminder(tx, m.id, m.to, reason)) moved++;
  const cancelled = await cancelWaitingReminders(
    tx,
    impact.cancel.map((c) => c.id),
    reason,
  );
  if (impact.eventIds.length > 0) await enqueueRuleWakes(tx, ruleId, await earliestScheduledOfRuleByEvent(tx, tenantId, ruleId, impact.eventIds), now);
  const c = impactCounts(impact);
  return { ...c, added: inserted, moved, cancelled, pending: inserted + moved + cancelled };
}

/**
 * The read-only preview (POST /api/rules/impact): what saving `input.rule` with "re-plan" would do to pending
 * reminders of upcoming events — for a new rule (`ruleId` absent) the reminders it would add; for a change of
 * rule `ruleId` the waiting reminders of that rule it would add, move or cancel. Nothing is written or locked.
 * @returns the counts and the page's lines (domain/rules/rule-impact.ts impactLines).
 * @throws AppError validation (field named), not_found (rule).
 */
export async function previewRuleImpact(db: DbOrTx, ctx: Pick<ActionContext, 'tenantId' | 'now'>, input: { ruleId?: unknown; rule?: unknown }): Promise<RuleImpactCounts & { lines: string[] }> {
  const ruleId = input.ruleId === undefined || input.ruleId === null ? null : String(input.ruleId);
  if (ruleId) assertId(ruleId, 'ruleId', 'rule');
  const f = parseInput(reminderRuleSchema, input.rule ?? {});
  const tenant = await requireTenant(db, ctx.tenantId);
  if (ruleId) {
    const [r] = await db.select({ id: reminderRules.id }).from(reminderRules).where(and(eq(reminderRules.tenantId, ctx.tenantId), eq(reminderRules.id, ruleId)));
    if (!r) throw new AppError('not_found', `rule ${ruleId} not found`, 'ruleId');
  }
  const counts = impactCounts(await computeImpact(db, tenant, ruleId, planningRule(ruleId ?? 'new', f), ctx.now, false));
  return { ...counts, lines: impactLines(counts) };
}

/**
 * Creates a reminder rule (admins) and, with `choice: 'replan'`, plans it for the bookings of upcoming events in
 * the same transaction; one `rule_create` audit entry. Runs on `db` (a transaction there; a savepoint on a Tx —
 * the idempotent create route's).
 * @throws AppError validation (field named), forbidden (no longer an admin).
 */
export async function createRuleAction(db: DbOrTx, ctx: ActionContext, input: Record<string, unknown>): Promise<RuleWriteResult> {
  const { choice: rawChoice, previewPending: rawPreview, ...fields } = input ?? {};
  const { choice = 'new_only', previewPending = null } = parseInput(choiceSchema, { choice: rawChoice, previewPending: rawPreview });
  const f = parseInput(reminderRuleSchema, fields);
  return db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'configure');
    await setActor(tx, ctx.actor);
    const tenant = await requireTenant(tx, ctx.tenantId);
    const [rule] = await tx.insert(reminderRules).values({ tenantId: ctx.tenantId, ...f, updatedBy: ctx.actor, createdAt: ctx.now, updatedAt: ctx.now }).returning();
    let applied: RuleImpactCounts | null = null;
    if (choice === 'replan') {
      const impact = await computeImpact(tx, tenant, rule.id, planningRule(rule.id, f), ctx.now, true);
      applied = await applyImpact(tx, ctx.tenantId, rule.id, impact, ctx.now, `planned when rule “${f.name}” was created`);
    }
    await appendAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: 'rule_create',
      at: ctx.now,
      details: { ruleId: rule.id, name: f.name, rule: f, choice, ...auditCounts(previewPending, applied) },
    });
    return { rule: ruleFormView(rule), choice, previewPending, applied, changed: true, message: appliedMessage({ verb: 'Created', name: f.name, choice, deactivated: false, previewPending, applied }) };
  });
}

/** The counts an audit entry records (flat, so the audit page lists them one by one). */
function auditCounts(previewPending: number | null, applied: RuleImpactCounts | null) {
  return {
    pendingPreviewed: previewPending,
    pendingApplied: applied?.pending ?? 0,
    ...(applied ? { remindersAdded: applied.added, remindersMoved: applied.moved, remindersCancelled: applied.cancelled, alreadyDueNotPlanned: applied.pastDue } : {}),
  };
}

/**
 * Changes a reminder rule (admins): any field, incl. `active` (deactivate / activate), with the version the form
 * was opened at. `choice`: `replan` applies the impact in this transaction (for a deactivation: cancels its
 * pending reminders); `new_only` (default) leaves planned reminders as they are (for a deactivation: lets them go
 * out). A save that changes nothing writes nothing (no version bump, no audit entry).
 * @throws AppError validation (field named, `version`, `choice`), forbidden, not_found, conflict (stale version:
 *   nothing written; `current` = the rule as stored).
 */
export async function updateRuleWithChoice(db: Db, ctx: ActionContext, ruleId: string, input: Record<string, unknown>): Promise<RuleWriteResult> {
  assertId(ruleId, 'ruleId', 'rule');
  const seen = parseVersion(input);
  const { version: _v, choice: rawChoice, previewPending: rawPreview, ...fields } = input ?? {};
  const { choice, previewPending = null } = parseInput(choiceSchema, { choice: rawChoice, previewPending: rawPreview });
  const f = parseInput(reminderRuleSchema, fields);
  return db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'configure');
    await setActor(tx, ctx.actor);
    const [before] = await tx.select().from(reminderRules).where(and(eq(reminderRules.tenantId, ctx.tenantId), eq(reminderRules.id, ruleId))).for('update');
    if (!before) throw new AppError('not_found', `rule ${ruleId} not found`, 'ruleId');
    await assertVersion(tx, ctx, before, seen, { what: 'This rule', current: ruleFormView(before) });
    const effective: RuleChoice = choice ?? 'new_only';
    const fieldsSame = RULE_FIELDS.every((k) => sameValue(f[k], before[k]));
    if (fieldsSame && effective === 'new_only') {
      return { rule: ruleFormView(before), choice: effective, previewPending, applied: null, changed: false, message: `Nothing changed in “${before.name}”.` };
    }
    const deactivated = before.active && !f.active;
    // "Let them go out" is remembered only for a deactivation that chose it; activation or a cancel clears it.
    const pendingGoOut = f.active ? false : deactivated ? choice === 'new_only' : effective === 'replan' ? false : before.pendingGoOut;
    const [after] = await tx.update(reminderRules).set({ ...f, pendingGoOut, updatedAt: ctx.now }).where(eq(reminderRules.id, ruleId)).returning();
    let applied: RuleImpactCounts | null = null;
    if (effective === 'replan') {
      const tenant = await requireTenant(tx, ctx.tenantId);
      const impact = await computeImpact(tx, tenant, ruleId, planningRule(ruleId, f), ctx.now, true);
      const reason = f.active ? `re-planned: rule “${f.name}” changed` : `rule “${f.name}” deactivated: pending reminders cancelled`;
      applied = await applyImpact(tx, ctx.tenantId, ruleId, impact, ctx.now, reason);
    }
    const { id: _id, tenantId: _t, createdAt: _c, updatedAt: _u, version: _ver, updatedBy: _by, pendingGoOut: _p, ...was } = before;
    await appendAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: 'rule_update',
      at: ctx.now,
      details: { ruleId, from: was, to: f, choice: effective, ...(deactivated ? { pendingReminders: choice === 'new_only' ? 'let go out' : 'cancelled' } : {}), ...auditCounts(previewPending, applied) },
    });
    return {
      rule: ruleFormView(after),
      choice: effective,
      previewPending,
      applied,
      changed: true,
      message: appliedMessage({ verb: 'Saved', name: f.name, choice: effective, deactivated, previewPending, applied }),
    };
  });
}

/**
 * Deletes a rule that never produced a reminder (admins), with the version the page showed; one `rule_delete`
 * audit entry holding the rule as it was.
 * @throws AppError conflict "used by N reminders — deactivate it instead" (409, field `ruleId`), conflict (stale
 *   version), not_found, forbidden, validation (`version`).
 */
export async function deleteRuleAction(db: Db, ctx: ActionContext, ruleId: string, input: Record<string, unknown>): Promise<{ deleted: true; name: string }> {
  assertId(ruleId, 'ruleId', 'rule');
  const seen = parseVersion(input);
  return db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'configure');
    await setActor(tx, ctx.actor);
    const [before] = await tx.select().from(reminderRules).where(and(eq(reminderRules.tenantId, ctx.tenantId), eq(reminderRules.id, ruleId))).for('update');
    if (!before) throw new AppError('not_found', `rule ${ruleId} not found`, 'ruleId');
    await assertVersion(tx, ctx, before, seen, { what: 'This rule', current: ruleFormView(before) });
    // Under the rule's row lock: a planning path reads the rule without a lock, so a reminder inserted meanwhile
    // makes the delete fail on the foreign key (rolled back whole) rather than orphan a reminder.
    const used = await remindersOfRuleCount(tx, ctx.tenantId, ruleId);
    if (used > 0) throw new AppError('conflict', `“${before.name}” is used by ${used} reminder${used === 1 ? '' : 's'} — deactivate it instead`, 'ruleId', { used });
    await tx.delete(reminderRules).where(eq(reminderRules.id, ruleId));
    const { id: _id, tenantId: _t, createdAt: _c, updatedAt: _u, version: _ver, updatedBy: _by, pendingGoOut: _p, ...was } = before;
    await appendAudit(tx, { tenantId: ctx.tenantId, actor: ctx.actor, action: 'rule_delete', at: ctx.now, details: { ruleId, name: before.name, rule: was } });
    return { deleted: true as const, name: before.name };
  });
}

export type { ReminderRule };
