import type { Metadata } from 'next';
import Link from 'next/link';
import { RuleForm } from '@/components/rules/RuleForm';
import { templateTitles } from '@/components/rules/template-labels';
import { can } from '@/domain/accounts/permissions';
import { rulePreset } from '@/domain/dashboards/first-day';
import { reminderTemplateIds } from '@/domain/vocabulary';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/rules.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'New reminder rule' };

/**
 * A new reminder rule (issue #13), admins (`configure`) only: the rule editor, empty but for sensible defaults
 * ("1 day before the start", attendees and external guests, 60-minute late-send window, active). Creating it
 * first shows how many pending reminders of upcoming events it would add (components/rules/RuleForm.tsx). Other
 * roles see why they cannot (POST /api/rules refuses them too). `?preset=day-before|two-hours|room-opens` (the
 * first-day checklist's links, domain/dashboards/first-day.ts RULE_PRESETS) fills in one of the three most common
 * rules instead; nothing is created until the admin saves it.
 */
export default async function NewRulePage({ searchParams }: { searchParams: Promise<{ preset?: string | string[] }> }) {
  const session = await requireStaff();
  const { preset: asked } = await searchParams;
  const preset = rulePreset(typeof asked === 'string' ? asked : null);
  const mayConfigure = can(session.user.role, 'configure');
  return (
    <>
      <p className="breadcrumb">
        <Link href="/rules">← Reminder rules</Link>
      </p>
      <div className="page-head">
        <h1>New reminder rule</h1>
        <p className="muted">{session.tenant.name} · applies to every booking of every event</p>
      </div>
      {mayConfigure ? (
        <section className="card rule-card">
          <RuleForm
            rule={{
              id: null,
              name: preset?.name ?? '',
              anchor: preset?.anchor ?? 'start',
              offset: preset?.offset ?? '-P1D',
              audience: ['attendee', 'external'],
              channel: 'email',
              template: preset?.template ?? reminderTemplateIds[0],
              lateSendWindowSeconds: preset?.lateSendWindowSeconds ?? 3600,
              active: true,
              onlyUnconfirmed: false,
              version: 0,
            }}
            templateTitles={templateTitles}
          />
        </section>
      ) : (
        <section className="card">
          <p className="notice notice-warn">Your role ({session.user.role}) can read reminder rules; only an admin can create them.</p>
        </section>
      )}
    </>
  );
}
