import type { Metadata } from 'next';
import { getDb } from '@/db/client';
import { NotificationSettingsForm } from '@/components/settings/NotificationSettingsForm';
import { PolicyMatrix } from '@/components/settings/PolicyMatrix';
import { notificationTemplateLabel } from '@/components/rules/template-labels';
import { TimesInText } from '@/components/ui/TimesInText';
import { formatChangeTime } from '@/domain/platform/edit-conflict';
import { describePolicy } from '@/domain/notifications/notification-policy';
import { can } from '@/domain/accounts/permissions';
import { readNotificationSettings } from '@/server/notifications/notification-settings';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/rules.css';
import '@/app/styles/notifications.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Notifications' };

/**
 * The tenant's notification settings (issue #9 §2, §4, §5): who hears about bookings being confirmed or
 * cancelled, events rescheduled or cancelled and hosts being added, with which template; the webhook endpoint
 * and the SMS sender. Admins (`configure`) edit them; staff and viewers read the same settings, without the
 * signing secret.
 */
export default async function NotificationsPage() {
  const session = await requireStaff();
  const mayConfigure = can(session.user.role, 'configure');
  const settings = await readNotificationSettings(getDb(), session.tenant.id, { withSecret: mayConfigure });
  const zone = session.tenant.timeZone;
  return (
    <>
      <div className="page-head">
        <h1>Notifications</h1>
        <p className="muted">
          {session.tenant.name} · messages about changes to bookings and events, beside the reminders
          {settings.version === 0 ? ' · not set up yet: nobody is notified' : null}
        </p>
      </div>
      {mayConfigure ? (
        <NotificationSettingsForm settings={settings} zone={zone} />
      ) : (
        <div className="notification-form settings-readonly">
          <p className="notice notice-warn">Your role ({session.user.role}) can read the notification settings; only an admin can change them.</p>
          <section className="card">
            <h2>Who hears about what</h2>
            <PolicyMatrix policy={settings.policy} editable={false} />
            <div className="rule-sentence">
              <span className="rule-sentence-label">Reads as</span>
              <ul className="policy-sentences" data-testid="policy-sentences">
                {describePolicy(settings.policy, notificationTemplateLabel).map((s) => (
                  <li key={s}>{s}</li>
                ))}
              </ul>
            </div>
          </section>
          <section className="card">
            <h2>Webhook endpoint</h2>
            {!settings.webhookEnabled && settings.webhookDisabledAt ? (
              <div className="webhook-off" role="status" data-testid="webhook-off">
                <p>
                  <strong>
                    Switched off on {formatChangeTime(new Date(settings.webhookDisabledAt), zone)}: {settings.webhookDisabledReason ? <TimesInText text={settings.webhookDisabledReason} zone={zone} /> : 'no reason recorded'}
                  </strong>
                </p>
                <p className="small">An admin can switch it on again.</p>
              </div>
            ) : null}
            <dl>
              <dt>Endpoint URL</dt>
              <dd>{settings.webhookUrl ?? <span className="muted">none</span>}</dd>
              <dt>Posting</dt>
              <dd>{settings.webhookEnabled ? 'on' : 'off'}</dd>
              <dt>Signing secret</dt>
              <dd>{settings.hasWebhookSecret ? 'set (shown to admins only)' : 'none'}</dd>
            </dl>
          </section>
          <section className="card">
            <h2>SMS</h2>
            <dl>
              <dt>SMS sender</dt>
              <dd>{settings.smsSender ?? <span className="muted">the default sender</span>}</dd>
            </dl>
          </section>
        </div>
      )}
    </>
  );
}
