'use client';

import { formatChangeTime } from '@/domain/platform/edit-conflict';
import { TimesInText } from '@/components/ui/TimesInText';
import type { NotificationSettingsState } from './useNotificationSettings';

/**
 * The notification settings' "Webhook endpoint" card: when it was switched off (by the receiver's 410 or a person)
 * and why, with "Switch it on again"; the endpoint URL and its on/off switch; the signing secret (in full once
 * after it is made, else behind "Show"), and "Rotate secret". `zone` is the zone times are shown in.
 */
export function WebhookSettings({ form, zone }: { form: NotificationSettingsState; zone: string }) {
  const { id, stored, fields, set, busy, mark, switchedOff, secret, freshSecret, setRotating, switchOnAgain } = form;
  return (
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
            <button type="button" className="btn btn-primary" disabled={busy || !String(fields.webhookUrl).trim()} onClick={switchOnAgain}>
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
  );
}
