'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { describeChanges, formatChangeTime, mergeEdits, type FieldChange } from '@/domain/platform/edit-conflict';
import { describePolicy, notificationTemplates, type NotificationPolicy } from '@/domain/notifications/notification-policy';
import { smsSenderHint } from '@/domain/organisations/sms-sender';
import { bookingRoles, domainEventTypes, essentialTypes, type BookingRole, type DomainEventType } from '@/domain/vocabulary';
import type { NotificationSettingsView } from '@/server/notifications/notification-settings';
import { notificationTemplateLabel } from '@/components/rules/template-labels';
import { ApiError, apiCall } from '@/components/ui/api';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { ConflictPanel, staleSave } from '@/components/events/ConflictPanel';
import { TimesInText } from '@/components/ui/TimesInText';

/** The domain event types in staff words (the matrix's rows). */
const eventTypeLabels: Record<DomainEventType, string> = {
  booking_confirmed: 'A booking is confirmed',
  booking_cancelled: 'A booking is cancelled',
  event_rescheduled: 'An event is rescheduled',
  event_cancelled: 'An event is cancelled',
  participant_added_as_host: 'Someone is added as host',
};
/** The matrix's columns. */
const roleColumnLabels: Record<BookingRole, string> = { attendee: 'Attendee', external: 'External guest', host: 'Host' };

/** The editable fields, flat: one key per matrix cell (`<type>.<role>`, `<type>.template`), plus sender and endpoint. */
type Fields = Record<string, string | boolean>;

function fieldsOf(s: Pick<NotificationSettingsView, 'policy' | 'smsSender' | 'webhookUrl' | 'webhookEnabled'>): Fields {
  const f: Fields = {};
  for (const t of domainEventTypes) {
    for (const r of bookingRoles) f[`${t}.${r}`] = s.policy[t][r];
    f[`${t}.template`] = s.policy[t].template;
  }
  f.smsSender = s.smsSender ?? '';
  f.webhookUrl = s.webhookUrl ?? '';
  f.webhookEnabled = s.webhookEnabled;
  return f;
}

function policyOf(f: Fields): NotificationPolicy {
  return Object.fromEntries(
    domainEventTypes.map((t) => [t, { attendee: f[`${t}.attendee`] === true, external: f[`${t}.external`] === true, host: f[`${t}.host`] === true, template: String(f[`${t}.template`]) }]),
  ) as NotificationPolicy;
}

const changeFields: { key: string; label: string; format?: (v: unknown) => string }[] = [
  ...domainEventTypes.flatMap((t) => [
    ...bookingRoles.map((r) => ({ key: `${t}.${r}`, label: `${eventTypeLabels[t]} — ${roleColumnLabels[r].toLowerCase()}`, format: (v: unknown) => (v ? 'notified' : 'not notified') })),
    { key: `${t}.template`, label: `${eventTypeLabels[t]} — template`, format: (v: unknown) => notificationTemplateLabel(String(v)) },
  ]),
  { key: 'smsSender', label: 'SMS sender' },
  { key: 'webhookUrl', label: 'Webhook endpoint URL' },
  { key: 'webhookEnabled', label: 'Webhook endpoint', format: (v) => (v ? 'on' : 'off') },
];

const fieldLabels: Record<string, string> = { smsSender: 'SMS sender', webhookUrl: 'Endpoint URL', webhookEnabled: 'Webhook endpoint', version: 'Version' };

/**
 * The notification settings editor (admins): the policy as a matrix — rows the five domain event types, columns
 * attendee / external guest / host checkboxes and the template — read back live as sentences (describePolicy);
 * the webhook endpoint (URL, on/off switch, signing secret shown once after it is made or rotated, and — when the
 * receiver's 410 or a person switched it off — "Switched off on <time>: <reason>" with a button to switch it on
 * again); the SMS sender. Saves the whole form with PUT /api/notification-settings and the version it was opened
 * at; a stale save shows the ConflictPanel with what changed, and nothing is written.
 */
export function NotificationSettingsForm({ settings, zone }: { settings: NotificationSettingsView; zone: string }) {
  const router = useRouter();
  const id = useId();
  const [stored, setStored] = useState(settings);
  const [base, setBase] = useState<{ fields: Fields; version: number }>({ fields: fieldsOf(settings), version: settings.version });
  const [fields, setFields] = useState<Fields>(fieldsOf(settings));
  const [conflict, setConflict] = useState<{ message: string; latest: NotificationSettingsView; changes: FieldChange[] } | null>(null);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [freshSecret, setFreshSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [rotating, setRotating] = useState(false);
  useEffect(() => setError(null), [fields]);

  const set = (key: string, value: string | boolean) => setFields((f) => ({ ...f, [key]: value }));
  const policy = policyOf(fields);
  const sentences = describePolicy(policy, notificationTemplateLabel);

  function adopt(next: Fields, latest: NotificationSettingsView, message: string | null) {
    setStored(latest);
    setBase({ fields: fieldsOf(latest), version: latest.version });
    setFields(next);
    setConflict(null);
    setNotice(message);
  }

  async function save(over: Fields = {}) {
    const f: Fields = { ...fields, ...over };
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const r = await apiCall<{ settings: NotificationSettingsView; secretCreated: boolean }>('/api/notification-settings', 'PUT', {
        policy: policyOf(f),
        smsSender: String(f.smsSender),
        webhookUrl: String(f.webhookUrl),
        webhookEnabled: f.webhookEnabled === true,
        version: base.version,
      });
      adopt(fieldsOf(r.settings), r.settings, r.secretCreated ? 'Saved. A signing secret was made for the endpoint: copy it into your receiver now.' : 'Saved.');
      if (r.secretCreated) setFreshSecret(r.settings.webhookSecret ?? null);
      router.refresh();
    } catch (err) {
      const stale = staleSave<NotificationSettingsView>(err);
      if (stale) {
        setFields(f);
        setConflict({ message: stale.message, latest: stale.current, changes: describeChanges(base.fields, fieldsOf(stale.current), changeFields) });
      } else {
        const field = err instanceof ApiError ? err.field : undefined;
        setError({ message: err instanceof Error ? err.message : String(err), field });
      }
    } finally {
      setBusy(false);
    }
  }

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void save();
  }

  const errorId = `${id}-error`;
  const mark = (field: string) => (error?.field === field ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {});
  const switchedOff = !stored.webhookEnabled && stored.webhookDisabledAt;
  const secret = freshSecret ?? stored.webhookSecret ?? null;

  return (
    <>
      <form className="form notification-form" onSubmit={onSubmit} noValidate aria-label="Notification settings">
        {conflict ? (
          <ConflictPanel
            message={conflict.message}
            changes={conflict.changes}
            onApply={() => {
              const r = mergeEdits(base.fields, fields, fieldsOf(conflict.latest));
              const kept = r.overlapping.map((k) => changeFields.find((c) => c.key === k)?.label ?? k);
              adopt(r.merged, conflict.latest, `Your changes are now on top of the latest version${kept.length ? ` (yours replaced theirs for: ${kept.join('; ')})` : ''}. Check them and save again.`);
            }}
            onDiscard={() => adopt(fieldsOf(conflict.latest), conflict.latest, 'The form now shows the latest version.')}
          />
        ) : null}

        <section className="card" aria-labelledby={`${id}-policy`}>
          <h2 id={`${id}-policy`}>Who hears about what</h2>
          <p className="muted small">
            Each person hears on the channels they chose in their preferences (email, SMS); the webhook below gets every notification. External
            guests are notified by their own organisation.
          </p>
          <PolicyMatrix policy={policy} editable onChange={set} />
          <div className="rule-sentence" aria-live="polite">
            <span className="rule-sentence-label">Reads as</span>
            <ul className="policy-sentences" data-testid="policy-sentences">
              {sentences.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ul>
          </div>
        </section>

        <section className="card" aria-labelledby={`${id}-hook`}>
          <h2 id={`${id}-hook`}>Webhook endpoint</h2>
          {switchedOff ? (
            <div className="webhook-off" role="status" data-testid="webhook-off">
              <p>
                <strong>
                  Switched off on {formatChangeTime(new Date(stored.webhookDisabledAt!), zone)}: {stored.webhookDisabledReason ? <TimesInText text={stored.webhookDisabledReason} zone={zone} /> : 'no reason recorded'}
                </strong>
              </p>
              <p className="small">No notifications are posted to it while it is off. Fix the receiver first, then switch it on again.</p>
              <div className="actions">
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={busy || !String(fields.webhookUrl).trim()}
                  onClick={() => {
                    set('webhookEnabled', true);
                    void save({ webhookEnabled: true });
                  }}
                >
                  Switch it on again
                </button>
              </div>
            </div>
          ) : null}
          <div className="form-grid">
            <label className="field field-wide">
              <span>Endpoint URL</span>
              <input
                name="webhookUrl"
                type="url"
                inputMode="url"
                placeholder="https://hooks.example.com/punctual"
                value={String(fields.webhookUrl)}
                onChange={(e) => set('webhookUrl', e.target.value)}
                aria-describedby={`${id}-url-hint`}
                {...mark('webhookUrl')}
              />
              <span className="field-hint" id={`${id}-url-hint`}>
                Every notification is POSTed here as JSON, signed per Standard Webhooks (headers webhook-id, webhook-timestamp, webhook-signature).
              </span>
            </label>
          </div>
          <label className="switch">
            <input type="checkbox" role="switch" name="webhookEnabled" checked={fields.webhookEnabled === true} onChange={(e) => set('webhookEnabled', e.target.checked)} {...mark('webhookEnabled')} />{' '}
            Post notifications to this endpoint
          </label>
          <div className="webhook-secret">
            <h3>Signing secret</h3>
            {secret ? (
              freshSecret ? (
                <>
                  <p className="notice notice-warn">Copy this secret into your receiver now; for safety it is shown in full only here and to admins.</p>
                  <code className="secret" data-testid="webhook-secret">
                    {secret}
                  </code>
                </>
              ) : (
                <details>
                  <summary>Show the signing secret</summary>
                  <code className="secret" data-testid="webhook-secret">
                    {secret}
                  </code>
                </details>
              )
            ) : (
              <p className="muted small">{stored.hasWebhookSecret ? 'Set.' : 'Made when you save an endpoint URL.'}</p>
            )}
            {stored.hasWebhookSecret ? (
              <button type="button" className="btn" onClick={() => setRotating(true)} disabled={busy}>
                Rotate secret
              </button>
            ) : null}
          </div>
        </section>

        <section className="card" aria-labelledby={`${id}-sms`}>
          <h2 id={`${id}-sms`}>SMS</h2>
          <label className="field sms-sender">
            <span>SMS sender</span>
            <input name="smsSender" value={String(fields.smsSender)} onChange={(e) => set('smsSender', e.target.value)} aria-describedby={`${id}-sms-hint`} autoComplete="off" {...mark('smsSender')} />
            <span className="field-hint" id={`${id}-sms-hint`}>
              {smsSenderHint}
            </span>
          </label>
        </section>

        {error ? (
          <p className="form-error" role="alert" id={errorId}>
            {error.field && fieldLabels[error.field] ? `${fieldLabels[error.field]}: ${error.message.replace(/^[\w.]+: /, '')}` : error.message}
          </p>
        ) : null}
        {notice ? (
          <p className="notice" role="status">
            {notice}
          </p>
        ) : null}
        <div className="actions sticky-actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving…' : 'Save notification settings'}
          </button>
          <span className="muted small">Version {base.version || 'not saved yet'}</span>
        </div>
      </form>
      {/* Outside the form: a dialog's own form must not submit (and so save) the settings form around it. */}
      <ConfirmDialog
        open={rotating}
        title="Make a new signing secret?"
        confirmLabel="Rotate secret"
        tone="danger"
        onClose={() => setRotating(false)}
        onConfirm={async () => {
          try {
            const r = await apiCall<NotificationSettingsView>('/api/notification-settings/rotate-secret', 'POST', { version: base.version });
            adopt({ ...fields, ...pick(fieldsOf(r), ['webhookUrl', 'webhookEnabled']) }, r, 'A new signing secret was made: copy it into your receiver now. The old one no longer signs anything.');
            setFreshSecret(r.webhookSecret ?? null);
            router.refresh();
          } catch (err) {
            const stale = staleSave<NotificationSettingsView>(err);
            if (stale) {
              setConflict({ message: stale.message, latest: stale.current, changes: describeChanges(base.fields, fieldsOf(stale.current), changeFields) });
              return;
            }
            throw err;
          }
        }}
      >
        <p className="dialog-consequence">From now on every delivery is signed with the new secret; your receiver rejects them until it has it.</p>
      </ConfirmDialog>
    </>
  );
}

function pick(f: Fields, keys: string[]): Fields {
  return Object.fromEntries(keys.map((k) => [k, f[k]]));
}

/**
 * The policy matrix: one row per domain event type (in staff words; the essential one marked), a checkbox per
 * role and the template. Read-only (`editable` false) it shows "notified" / "—" and the template's name.
 */
export function PolicyMatrix({ policy, editable, onChange }: { policy: NotificationPolicy; editable: boolean; onChange?: (key: string, value: string | boolean) => void }) {
  return (
    <table className="policy-matrix">
      <caption className="visually-hidden">Who is notified of each change, and with which template</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          {bookingRoles.map((r) => (
            <th scope="col" key={r}>
              {roleColumnLabels[r]}
            </th>
          ))}
          <th scope="col">Template</th>
        </tr>
      </thead>
      <tbody>
        {domainEventTypes.map((t) => (
          <tr key={t} data-event-type={t}>
            <th scope="row">
              {eventTypeLabels[t]}
              {essentialTypes.includes(t) ? <span className="tag" title="Sent even to people who opted out of booking updates">essential</span> : null}
            </th>
            {bookingRoles.map((r) => (
              <td key={r} data-label={roleColumnLabels[r]}>
                {editable ? (
                  <input
                    type="checkbox"
                    checked={policy[t][r]}
                    aria-label={`${eventTypeLabels[t]}: notify the ${roleColumnLabels[r].toLowerCase()}`}
                    onChange={(e) => onChange?.(`${t}.${r}`, e.target.checked)}
                  />
                ) : policy[t][r] ? (
                  <span>
                    ✓<span className="visually-hidden"> notified</span>
                  </span>
                ) : (
                  <span className="muted">
                    —<span className="visually-hidden"> not notified</span>
                  </span>
                )}
              </td>
            ))}
            <td data-label="Template">
              {editable ? (
                <select aria-label={`${eventTypeLabels[t]}: template`} value={policy[t].template} onChange={(e) => onChange?.(`${t}.template`, e.target.value)}>
                  {notificationTemplates[t].map((id) => (
                    <option key={id} value={id}>
                      {notificationTemplateLabel(id)}
                    </option>
                  ))}
                </select>
              ) : (
                notificationTemplateLabel(policy[t].template)
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
