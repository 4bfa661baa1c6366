'use client';

import { smsSenderHint } from '@/domain/organisations/sms-sender';
import type { NotificationSettingsView } from '@/server/notifications/notification-settings';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { ConflictPanel } from '@/components/events/ConflictPanel';
import { fieldLabels } from './notification-fields';
import { PolicyMatrix } from './PolicyMatrix';
import { useNotificationSettings } from './useNotificationSettings';
import { WebhookSettings } from './WebhookSettings';
import { FormFeedback } from '@/components/ui/FormFeedback';

/**
 * The notification settings editor (admins): the policy as a matrix — rows the five domain event types, columns
 * attendee / external guest / host checkboxes and the template — read back live as sentences (describePolicy);
 * the webhook endpoint (URL, on/off switch, signing secret shown once after it is made or rotated, and — when the
 * receiver's 410 or a person switched it off — "Switched off on <time>: <reason>" with a button to switch it on
 * again); the SMS sender. Saves the whole form with PUT /api/notification-settings and the version it was opened
 * at; a stale save shows the ConflictPanel with what changed, and nothing is written.
 * State and submit logic: useNotificationSettings; the parts: PolicyMatrix, WebhookSettings.
 */
export function NotificationSettingsForm({ settings, zone }: { settings: NotificationSettingsView; zone: string }) {
  const form = useNotificationSettings(settings);
  const { id, base, fields, set, policy, sentences, conflict, error, notice, busy, rotating, setRotating, errorId, mark } = form;

  return (
    <>
      <form className="form notification-form" onSubmit={form.onSubmit} noValidate aria-label="Notification settings">
        {conflict ? <ConflictPanel message={conflict.message} changes={conflict.changes} onApply={form.applyMine} onDiscard={form.discardMine} /> : null}

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

        <WebhookSettings form={form} zone={zone} />

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

        <FormFeedback error={error} notice={notice} labels={fieldLabels} unlabelled="plain" errorId={errorId} />
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
        onConfirm={form.rotateSecret}
      >
        <p className="dialog-consequence">From now on every delivery is signed with the new secret; your receiver rejects them until it has it.</p>
      </ConfirmDialog>
    </>
  );
}
