'use client';

import Link from 'next/link';
import { bookingRoles, reminderTemplateIds, type TemplateId } from '@/domain/vocabulary';
import { ConflictPanel } from '@/components/events/ConflictPanel';
import { FormFeedback } from '@/components/ui/FormFeedback';
import { MAX_WINDOW_MINUTES, roleLabels, type RuleFormValue } from './rule-fields';
import { RuleImpactPanel } from './RuleImpactPanel';
import { RuleWhenFields } from './RuleWhenFields';
import { useRuleForm } from './useRuleForm';

export type { RuleFormValue } from './rule-fields';

/**
 * The reminder-rule editor (admins), for a new rule (`rule.id` null, /rules/new) and an existing one: name, anchor,
 * the offset as "amount + unit + before/after" (or, for an offset that mixes units, its ISO-8601 text), audience,
 * channel, template, late-send window in minutes and active. Under the form the rule is read back live with
 * `describeRule`.
 *
 * Issue #13: saving a new rule, or a change of timing, audience, channel or active, first asks the server what it
 * would do (POST /api/rules/impact, read-only) and shows "N pending reminders" with two choices — "Save and
 * re-plan N pending reminders" / "Save — new bookings only" (deactivating: "Save and cancel its N pending
 * reminders" / "Save — let them go out"). Creates with POST /api/rules (Idempotency-Key), saves with PUT
 * /api/rules/:id, then returns to /rules, which says what was applied. A refusal (400 naming the field, 403, a
 * stale version's ConflictPanel) is shown beside the form. State and submit logic: useRuleForm.
 */
export function RuleForm({ rule, templateTitles }: { rule: RuleFormValue; templateTitles: Record<TemplateId, string> }) {
  const form = useRuleForm(rule, templateTitles);
  const { id, isNew, conflict, notice, error, busy, impact, errorId, mark, sentence } = form;
  const { name, audience, template, windowMinutes, active, onlyUnconfirmed } = form.fields;
  const { setName, setAudience, setTemplate, setWindowMinutes, setActive, setOnlyUnconfirmed } = form.set;

  return (
    <form className="form rule-form" onSubmit={form.onSubmit} noValidate aria-label={isNew ? 'New rule' : `Edit rule ${rule.name}`}>
      {conflict ? <ConflictPanel message={conflict.message} changes={conflict.changes} onApply={form.applyMine} onDiscard={form.discardMine} /> : null}
      <p className="notice notice-warn">
        {isNew ? 'A new rule' : 'A change of timing, audience or active'} shows how many pending reminders of upcoming events it affects before it is saved: re-plan them now, or apply it to new
        bookings only.
      </p>

      <label className="field">
        <span>Name</span>
        <input name="name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} {...mark('name')} />
      </label>

      <RuleWhenFields form={form} />

      <fieldset className="rule-fieldset" {...(error?.field === 'audience' ? { 'aria-describedby': errorId } : {})}>
        <legend>Audience</legend>
        <div className="rule-audience">
          {bookingRoles.map((r) => (
            <label key={r} className="rule-check">
              <input
                type="checkbox"
                name="audience"
                value={r}
                checked={audience.includes(r)}
                onChange={(e) => setAudience((a) => (e.target.checked ? [...a, r] : a.filter((x) => x !== r)))}
              />{' '}
              {roleLabels[r]}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="form-grid">
        <div className="field">
          <span className="field-label">Channels</span>
          <p className="field-hint" id={`${id}-channel-hint`}>
            Each participant&apos;s preferences choose email and/or SMS (email unless they chose otherwise).
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-template`}>Template</label>
          <select id={`${id}-template`} name="template" value={template} onChange={(e) => setTemplate(e.target.value as TemplateId)} {...mark('template')}>
            {reminderTemplateIds.map((t) => (
              <option key={t} value={t}>
                {templateTitles[t]}
              </option>
            ))}
          </select>
          <p className="field-hint">
            <Link href="/templates">Preview the templates</Link>
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-window`}>Late-send window (minutes)</label>
          <input
            id={`${id}-window`}
            name="lateSendWindowMinutes"
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_WINDOW_MINUTES}
            step={1}
            required
            value={windowMinutes}
            onChange={(e) => setWindowMinutes(e.target.value)}
            aria-describedby={error?.field === 'lateSendWindowSeconds' ? `${errorId} ${id}-window-hint` : `${id}-window-hint`}
            aria-invalid={error?.field === 'lateSendWindowSeconds' ? true : undefined}
          />
          <p className="field-hint" id={`${id}-window-hint`}>
            A reminder that cannot go out within this many minutes of its due time (after an outage, say) is not sent late; it ends expired.
          </p>
        </div>
      </div>

      <label className="rule-check">
        <input type="checkbox" name="onlyUnconfirmed" checked={onlyUnconfirmed} onChange={(e) => setOnlyUnconfirmed(e.target.checked)} /> Only people who have not confirmed yet
        (a confirmation cancels their waiting reminder from this rule)
      </label>

      <label className="rule-check">
        <input type="checkbox" name="active" checked={active} onChange={(e) => setActive(e.target.checked)} /> Active — plan reminders from this rule
      </label>

      <div className="rule-sentence" aria-live="polite">
        <span className="rule-sentence-label">Reads as</span>
        <p data-testid="rule-sentence">{sentence ?? <span className="muted">— fix the fields above to see the sentence —</span>}</p>
        {!active ? <p className="small muted">Inactive: no reminders are planned from this rule.</p> : null}
      </div>

      <FormFeedback error={error} notice={notice} errorId={errorId} />

      <RuleImpactPanel form={form} />

      <div className="actions">
        <button type="submit" className={impact ? 'btn' : 'btn btn-primary'} disabled={busy || !!impact}>
          {busy ? 'Checking…' : isNew ? 'Create rule' : 'Save rule'}
        </button>
        <Link href="/rules" className="btn">
          Cancel
        </Link>
      </div>
    </form>
  );
}
