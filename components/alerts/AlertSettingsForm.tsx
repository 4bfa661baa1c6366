'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { describeChanges, mergeEdits, onTopNotice, type FieldChange } from '@/domain/platform/edit-conflict';
import type { AlertSettingsView, TestAlertResult } from '@/server/alerts/settings';
import { ApiError, apiCall } from '@/components/ui/api';
import { ConflictPanel, staleSave } from '@/components/events/ConflictPanel';
import { FormFeedback } from '@/components/ui/FormFeedback';

/** A staff member who can be chosen as a recipient. */
interface StaffOption {
  id: string;
  name: string;
  email: string;
  role: string;
}

/** The editable fields, flat (recipients as one key per staff member). */
type Fields = { recipients: string[]; slackWebhookUrl: string; lagSeconds: string; oldestDueMinutes: string };

function fieldsOf(s: AlertSettingsView): Fields {
  return {
    recipients: [...s.emailRecipients].sort(),
    slackWebhookUrl: s.slackWebhookUrl ?? '',
    lagSeconds: String(s.lagP95Ms / 1000),
    oldestDueMinutes: String(s.oldestDueSeconds / 60),
  };
}

const fieldLabels: Record<string, string> = {
  emailRecipients: 'Email recipients',
  slackWebhookUrl: 'Slack webhook URL',
  lagP95Ms: 'Dispatch lag threshold',
  oldestDueSeconds: 'Oldest due reminder threshold',
  version: 'Version',
};

/**
 * The alert settings editor (admins): which staff get alert emails (one checkbox each), the Slack-compatible
 * incoming webhook URL, the dispatch-lag p95 threshold (seconds) and the oldest-due threshold (minutes). Saves the
 * whole form with PUT /api/alert-settings and the version it was opened at; a stale save shows the ConflictPanel
 * (what changed, apply or discard) and writes nothing. "Send test alert" sends one test message on each SAVED route
 * and lists the results; "Check now" evaluates the conditions at once (POST /api/alert-settings/check).
 */
export function AlertSettingsForm({ settings, staff }: { settings: AlertSettingsView; staff: StaffOption[] }) {
  const router = useRouter();
  const id = useId();
  const [base, setBase] = useState<{ fields: Fields; version: number }>({ fields: fieldsOf(settings), version: settings.version });
  const [fields, setFields] = useState<Fields>(fieldsOf(settings));
  const [conflict, setConflict] = useState<{ message: string; latest: AlertSettingsView; changes: FieldChange[] } | null>(null);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<null | 'save' | 'test' | 'check'>(null);
  const [tests, setTests] = useState<TestAlertResult[] | null>(null);
  useEffect(() => setError(null), [fields]);

  const nameOf = (sid: string) => staff.find((s) => s.id === sid)?.email ?? sid;
  const changeFields: { key: keyof Fields & string; label: string; format?: (v: Fields[keyof Fields]) => string }[] = [
    { key: 'recipients', label: 'Email recipients', format: (v) => ((v as string[]).length ? (v as string[]).map(nameOf).join(', ') : 'nobody') },
    { key: 'slackWebhookUrl', label: 'Slack webhook URL' },
    { key: 'lagSeconds', label: 'Dispatch lag threshold (s)' },
    { key: 'oldestDueMinutes', label: 'Oldest due threshold (min)' },
  ];

  function adopt(next: Fields, latest: AlertSettingsView, message: string | null) {
    setBase({ fields: fieldsOf(latest), version: latest.version });
    setFields(next);
    setConflict(null);
    setNotice(message);
  }

  async function save() {
    setBusy('save');
    setError(null);
    setNotice(null);
    setTests(null);
    try {
      const num = (v: string, times: number) => (v.trim() === '' || !Number.isFinite(Number(v)) ? null : Math.round(Number(v) * times));
      const r = await apiCall<AlertSettingsView>('/api/alert-settings', 'PUT', {
        emailRecipients: fields.recipients,
        slackWebhookUrl: fields.slackWebhookUrl,
        lagP95Ms: num(fields.lagSeconds, 1000),
        oldestDueSeconds: num(fields.oldestDueMinutes, 60),
        version: base.version,
      });
      adopt(fieldsOf(r), r, 'Saved.');
      router.refresh();
    } catch (err) {
      const stale = staleSave<AlertSettingsView>(err);
      if (stale) {
        setConflict({ message: stale.message, latest: stale.current, changes: describeChanges(base.fields, fieldsOf(stale.current), changeFields) });
      } else {
        setError({ message: err instanceof Error ? err.message : String(err), field: err instanceof ApiError ? err.field : undefined });
      }
    } finally {
      setBusy(null);
    }
  }

  async function sendTest() {
    setBusy('test');
    setError(null);
    setNotice(null);
    setTests(null);
    try {
      const r = await apiCall<{ results: TestAlertResult[] }>('/api/alert-settings/test', 'POST', {});
      setTests(r.results);
      router.refresh();
    } catch (err) {
      setError({ message: err instanceof Error ? err.message : String(err), field: err instanceof ApiError ? err.field : undefined });
    } finally {
      setBusy(null);
    }
  }

  async function checkNow() {
    setBusy('check');
    setError(null);
    setNotice(null);
    try {
      const r = await apiCall<{ planned: number }>('/api/alert-settings/check', 'POST', {});
      setNotice(r.planned === 0 ? 'Checked: no alert to send right now.' : `Checked: ${r.planned} alert ${r.planned === 1 ? 'message' : 'messages'} sent or on the way.`);
      router.refresh();
    } catch (err) {
      setError({ message: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(null);
    }
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void save();
  }

  const errorId = `${id}-error`;
  const mark = (field: string) => (error?.field === field ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {});
  const dirty = JSON.stringify(fields) !== JSON.stringify(base.fields);
  const toggle = (sid: string, on: boolean) => setFields((f) => ({ ...f, recipients: on ? [...new Set([...f.recipients, sid])].sort() : f.recipients.filter((x) => x !== sid) }));

  return (
    <form className="form alert-form" onSubmit={onSubmit} noValidate aria-label="Alert settings">
      {conflict ? (
        <ConflictPanel
          message={conflict.message}
          changes={conflict.changes}
          onApply={() => {
            const r = mergeEdits(base.fields, fields, fieldsOf(conflict.latest));
            adopt(r.merged, conflict.latest, onTopNotice([]));
          }}
          onDiscard={() => adopt(fieldsOf(conflict.latest), conflict.latest, 'The form now shows the latest version.')}
        />
      ) : null}

      <section className="card" aria-labelledby={`${id}-who`}>
        <h2 id={`${id}-who`}>Who is told</h2>
        <fieldset className="alert-recipients">
          <legend>Email these staff members</legend>
          {staff.length === 0 ? <p className="muted small">No staff accounts yet.</p> : null}
          <ul>
            {staff.map((s) => (
              <li key={s.id}>
                <label className="alert-recipient">
                  <input type="checkbox" name="emailRecipients" value={s.id} checked={fields.recipients.includes(s.id)} onChange={(e) => toggle(s.id, e.target.checked)} />
                  <span>
                    <strong>{s.name || s.email}</strong> <span className="muted wrap-anywhere">{s.email}</span> <span className="tag">{s.role}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
          <p className="field-hint">Sent through your organisation&apos;s own email provider — except an alert that this very provider refuses our credentials, which goes to Slack and this page only.</p>
        </fieldset>
        <div className="form-grid">
          <label className="field field-wide">
            <span>Slack webhook URL</span>
            <input
              name="slackWebhookUrl"
              type="url"
              inputMode="url"
              placeholder="https://hooks.slack.com/services/…"
              value={fields.slackWebhookUrl}
              onChange={(e) => setFields((f) => ({ ...f, slackWebhookUrl: e.target.value }))}
              aria-describedby={`${id}-slack-hint`}
              autoComplete="off"
              {...mark('slackWebhookUrl')}
            />
            <span className="field-hint" id={`${id}-slack-hint`}>
              A Slack (or Mattermost, Rocket.Chat) incoming webhook: each alert is posted as a message. Leave empty for none.
            </span>
          </label>
        </div>
      </section>

      <section className="card" aria-labelledby={`${id}-when`}>
        <h2 id={`${id}-when`}>Thresholds</h2>
        <div className="form-grid">
          <label className="field">
            <span>Dispatch lag p95 over (seconds)</span>
            <input
              name="lagSeconds"
              type="number"
              inputMode="decimal"
              min={1}
              step={1}
              required
              value={fields.lagSeconds}
              onChange={(e) => setFields((f) => ({ ...f, lagSeconds: e.target.value }))}
              aria-describedby={`${id}-lag-hint`}
              {...mark('lagP95Ms')}
            />
            <span className="field-hint" id={`${id}-lag-hint`}>
              Due instant → first provider call, 95th percentile over the last 5 minutes.
            </span>
          </label>
          <label className="field">
            <span>Oldest due reminder waiting over (minutes)</span>
            <input
              name="oldestDueMinutes"
              type="number"
              inputMode="decimal"
              min={1}
              step={1}
              required
              value={fields.oldestDueMinutes}
              onChange={(e) => setFields((f) => ({ ...f, oldestDueMinutes: e.target.value }))}
              aria-describedby={`${id}-due-hint`}
              {...mark('oldestDueSeconds')}
            />
            <span className="field-hint" id={`${id}-due-hint`}>
              A reminder past its due instant, not yet sent and not expired.
            </span>
          </label>
        </div>
        <p className="muted small">
          Always watched as well: new dead letters, new unknown outcomes, a provider refusing our credentials, and the worker not running its minute
          sweep for 3 minutes.
        </p>
      </section>

      <FormFeedback error={error} notice={notice} labels={fieldLabels} unlabelled="plain" errorId={errorId} />
      {tests ? (
        <div className="notice alert-test-results" role="status" data-testid="test-alert-results">
          <strong>Test alert:</strong>
          <ul>
            {tests.map((t) => (
              <li key={`${t.route}:${t.to}`} data-status={t.status}>
                {t.route === 'email' ? 'Email to ' : 'Slack: '}
                <span className="wrap-anywhere">{t.to}</span> — {t.status === 'sent' ? 'sent' : t.status === 'skipped' ? 'handed to the worker' : t.status}
                {t.reason && t.status !== 'sent' ? <span className="small"> ({t.reason})</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="actions sticky-actions">
        <button type="submit" className="btn btn-primary" disabled={busy !== null}>
          {busy === 'save' ? 'Saving…' : 'Save alert settings'}
        </button>
        <button type="button" className="btn" onClick={() => void sendTest()} disabled={busy !== null || base.version === 0} title={dirty ? 'Sends to the saved settings' : undefined}>
          {busy === 'test' ? 'Sending…' : 'Send test alert'}
        </button>
        <button type="button" className="btn" onClick={() => void checkNow()} disabled={busy !== null || base.version === 0}>
          {busy === 'check' ? 'Checking…' : 'Check now'}
        </button>
        <span className="muted small">
          Version {base.version || 'not saved yet'}
          {dirty && base.version > 0 ? ' · test and check use the saved settings' : ''}
        </span>
      </div>
    </form>
  );
}
