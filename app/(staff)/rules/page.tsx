import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { getDb } from '@/db/client';
import { latestRuleWrite, listRules } from '@/db/queries/rules/rules';
import { EmptyState } from '@/components/ui/EmptyState';
import { templateTitles } from '@/components/rules/template-labels';
import { describeRule } from '@/domain/rules/describe-rule';
import { messageFromAudit } from '@/domain/rules/rule-lifecycle';
import { can } from '@/domain/accounts/permissions';
import type { TemplateId } from '@/domain/vocabulary';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/rules.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Reminder rules' };

const savedSchema = z.uuid().optional().catch(undefined);

/**
 * The tenant's reminder rules, each read back as a sentence. Admins (`configure`) get a "New rule" button
 * (/rules/new) and an Edit link per rule (/rules/:id); `?saved=<rule id>` (set by the editor after a save) says
 * what the save did — read back from the rule's newest audit entry (how many pending reminders were re-planned,
 * domain/rules/rule-lifecycle.ts) —; `?deleted=1` confirms a deletion.
 */
export default async function RulesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const raw = params.saved;
  const saved = savedSchema.parse(Array.isArray(raw) ? raw[0] : raw);
  const deleted = params.deleted === '1';
  const session = await requireStaff();
  const { tenant } = session;
  const mayConfigure = can(session.user.role, 'configure');
  const rules = await listRules(getDb(), tenant.id);
  const savedRule = saved ? rules.find((r) => r.id === saved) : undefined;
  const write = savedRule ? await latestRuleWrite(getDb(), tenant.id, savedRule.id) : null;
  // Only the entry of THIS save (same instant as the rule's last change): a save that changed nothing wrote none.
  const savedMessage = write && savedRule && write.createdAt.getTime() === savedRule.updatedAt.getTime() ? messageFromAudit(write.action, write.details) : null;
  return (
    <>
      <div className="page-head">
        <h1>Reminder rules</h1>
        <p className="muted">{tenant.name} · applied to every booking</p>
        <p className="muted">Participants with quiet hours get a reminder when their quiet hours end if that is before the late-send window closes, else at its due time.</p>
        {mayConfigure ? (
          <p className="page-actions">
            <Link className="btn btn-primary" href="/rules/new">
              New rule
            </Link>
          </p>
        ) : null}
      </div>
      {savedRule ? (
        <p className="notice" role="status">
          {savedMessage ??
            `Saved “${savedRule.name}”. Reminders planned from now on (new bookings, rescheduled events) follow it; reminders already planned keep their due instant.`}
        </p>
      ) : deleted ? (
        <p className="notice" role="status">
          Rule deleted. The deletion is in the audit log.
        </p>
      ) : null}
      {rules.length === 0 ? (
        <EmptyState title="No reminder rules">Without rules, bookings get no reminders.</EmptyState>
      ) : (
        <table className="data-table reflow-table rules-table">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">When and to whom</th>
              <th scope="col">Template</th>
              <th scope="col">Offset</th>
              {mayConfigure ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {rules.map((r) => (
              <tr key={r.id} data-rule-id={r.id} className={r.active ? undefined : 'muted'}>
                <td className="row-title reflow-title">
                  {r.name}
                  {r.active ? null : <span className="tag">inactive</span>}
                </td>
                <td data-label="When and to whom">{describeRule(r)}</td>
                <td className="nowrap" data-label="Template" title={templateTitles[r.template as TemplateId]}>
                  {r.template}
                </td>
                <td className="mono nowrap" data-label="Offset">
                  {r.anchor} {r.offset}
                </td>
                {mayConfigure ? (
                  <td className="rule-actions reflow-title">
                    <Link className="btn btn-small" href={`/rules/${r.id}`} aria-label={`Edit ${r.name}`}>
                      Edit
                    </Link>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
