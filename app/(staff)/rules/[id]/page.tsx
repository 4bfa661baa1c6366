import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { getRule } from '@/db/queries/rules/rules';
import { DeleteRuleButton } from '@/components/rules/DeleteRuleButton';
import { RuleForm } from '@/components/rules/RuleForm';
import { templateTitles } from '@/components/rules/template-labels';
import { describeRule } from '@/domain/rules/describe-rule';
import { can } from '@/domain/accounts/permissions';
import { reminderTemplateIds, type TemplateId } from '@/domain/vocabulary';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/rules.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Edit reminder rule' };

/**
 * One reminder rule of the signed-in tenant: the edit form for admins (`configure`), a read-only read-back for
 * everyone else (the PUT route refuses them too). 404 for a malformed id or another tenant's rule.
 */
export default async function RulePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const session = await requireStaff();
  const rule = await getRule(getDb(), session.tenant.id, id);
  if (!rule) notFound();
  const mayConfigure = can(session.user.role, 'configure');
  return (
    <>
      <p className="breadcrumb">
        <Link href="/rules">← Reminder rules</Link>
      </p>
      <div className="page-head">
        <h1>{mayConfigure ? `Edit “${rule.name}”` : rule.name}</h1>
        <p className="muted">{session.tenant.name} · applies to every booking of every event</p>
      </div>
      {mayConfigure ? (
        <section className="card rule-card">
          <RuleForm
            rule={{
              id: rule.id,
              name: rule.name,
              anchor: rule.anchor,
              offset: rule.offset,
              audience: rule.audience,
              channel: rule.channel,
              template: (reminderTemplateIds as readonly string[]).includes(rule.template) ? (rule.template as TemplateId) : reminderTemplateIds[0],
              lateSendWindowSeconds: rule.lateSendWindowSeconds,
              onlyUnconfirmed: rule.onlyUnconfirmed,
              active: rule.active,
              version: rule.version,
            }}
            templateTitles={templateTitles}
          />
        </section>
      ) : null}
      {mayConfigure ? (
        <section className="card rule-card rule-retire" aria-labelledby="rule-retire-h">
          <h2 id="rule-retire-h">Retire this rule</h2>
          <p className="small muted">
            To stop it, uncheck Active above and save (you choose what happens to its pending reminders). A rule that never planned a reminder can be deleted.
          </p>
          <DeleteRuleButton id={rule.id} name={rule.name} version={rule.version} />
        </section>
      ) : (
        <section className="card">
          <p className="notice notice-warn">Your role ({session.user.role}) can read reminder rules; only an admin can change them.</p>
          <p className="rule-sentence-static">{describeRule(rule)}</p>
          <p className="muted small">
            Template {rule.template} · offset <code>{rule.offset}</code> from {rule.anchor} · {rule.active ? 'active' : 'inactive'}
          </p>
        </section>
      )}
    </>
  );
}
