import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/db/client';
import { AlertSettingsForm } from '@/components/alerts/AlertSettingsForm';
import { EmptyState } from '@/components/ui/EmptyState';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { TimesInText } from '@/components/ui/TimesInText';
import { alertConditionLabels } from '@/domain/alerts/format';
import { HEARTBEAT_STALE_MS } from '@/domain/alerts/alerts';
import { can } from '@/domain/accounts/permissions';
import { alertsOverview, type ConditionView } from '@/server/alerts/overview';
import { readAlertSettings } from '@/server/alerts/settings';
import { appClock } from '@/server/platform/clock';
import { requireStaff } from '@/app/_http/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Alerts' };

const transitionLabels: Record<string, string> = { started: 'Started', cleared: 'Cleared', test: 'Test' };
const statusTone: Record<string, string> = { sent: 'badge-ok', pending: 'badge-waiting', sending: 'badge-progress', retrying: 'badge-retry', failed: 'badge-bad' };

/**
 * Alerts (issue #10 §6): where this organisation's alerts go — email to chosen staff, a Slack-compatible webhook —
 * and the two thresholds (admins edit; staff and viewers read), then each watched condition's state (active since /
 * cleared / why a start was held back / when the last alert went) and the recent alert messages with their status.
 */
export default async function AlertsPage() {
  const session = await requireStaff();
  const { tenant, user } = session;
  const mayConfigure = can(user.role, 'configure');
  const clock = appClock();
  await clock.ready;
  const now = clock.now();
  const db = getDb();
  const zone = tenant.timeZone;
  const [settings, overview] = await Promise.all([readAlertSettings(db, tenant.id, { withUrl: mayConfigure }), alertsOverview(db, tenant.id, now, zone)]);
  const recipients = overview.staff.filter((s) => settings.emailRecipients.includes(s.id));
  const lastSweep = overview.heartbeats[0]?.lastSweepAt ?? null;
  return (
    <>
      <div className="page-head">
        <h1>Alerts</h1>
        <p className="muted">
          {tenant.name} · who is told when something needs a person · times in {zone}
          {settings.version === 0 ? ' · not set up yet: nothing is evaluated or sent' : null}
        </p>
      </div>
      {mayConfigure ? (
        <AlertSettingsForm settings={settings} staff={overview.staff} />
      ) : (
        <section className="card alert-readonly" aria-labelledby="alert-routes-title">
          <p className="notice notice-warn">Your role ({user.role}) can read the alert settings; only an admin can change them.</p>
          <h2 id="alert-routes-title">Who is told</h2>
          <dl className="facts">
            <div>
              <dt>Email</dt>
              <dd>{recipients.length ? recipients.map((r) => r.name || r.email).join(', ') : <span className="muted">nobody</span>}</dd>
            </div>
            <div>
              <dt>Slack webhook</dt>
              <dd className="wrap-anywhere">{settings.slackWebhookMasked ?? <span className="muted">none</span>}</dd>
            </div>
            <div>
              <dt>Dispatch lag p95 over</dt>
              <dd>{settings.lagP95Ms / 1000} s</dd>
            </div>
            <div>
              <dt>Oldest due reminder over</dt>
              <dd>{settings.oldestDueSeconds / 60} min</dd>
            </div>
          </dl>
        </section>
      )}

      <section className="card" aria-labelledby="conditions-title" data-testid="alert-conditions">
        <h2 id="conditions-title">What is watched</h2>
        <p className="muted small">
          One message when a condition starts (a burst of dead letters or unknown outcomes is grouped until a minute passes without a new one), one
          when it clears, at most one start per condition per hour. Worker heartbeat:{' '}
          {lastSweep ? (
            <>
              last minute sweep <ZonedTime instant={lastSweep.toISOString()} zone={zone} variant="clock" />
              {now.getTime() - lastSweep.getTime() > HEARTBEAT_STALE_MS ? ' (late)' : ''}
            </>
          ) : (
            'no worker has recorded a sweep yet'
          )}
          .
        </p>
        <ul className="alert-conditions">
          {overview.conditions.map((c) => (
            <ConditionRow key={c.condition} c={c} zone={zone} hasRecipients={recipients.length > 0 || !!settings.slackWebhookMasked} />
          ))}
        </ul>
      </section>

      <section className="card" aria-labelledby="messages-title">
        <h2 id="messages-title">Recent alert messages</h2>
        {overview.messages.length === 0 ? (
          <EmptyState title="No alert messages yet">Messages appear here when a condition starts or clears, and for each test alert.</EmptyState>
        ) : (
          <div className="table-scroll">
            <table className="data-table small alert-messages stack-on-phone">
              <caption className="visually-hidden">The newest 30 alert messages</caption>
              <thead>
                <tr>
                  <th scope="col">Planned</th>
                  <th scope="col">Alert</th>
                  <th scope="col">To</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {overview.messages.map((m) => (
                  <tr key={m.id} data-condition={m.condition} data-transition={m.transition} data-route={m.route} data-status={m.status}>
                    <td className="nowrap" data-label="Planned">
                      <ZonedTime instant={m.createdAt.toISOString()} zone={zone} />
                    </td>
                    <td data-label="Alert">
                      <strong>{m.transition === 'test' ? 'Test alert' : `${alertConditionLabels[m.condition]} · ${transitionLabels[m.transition] ?? m.transition}`}</strong>
                      <div className="muted wrap-anywhere">{m.subject.replace(/^\[Punctual\] [^:]*: /, '')}</div>
                    </td>
                    <td className="wrap-anywhere" data-label="To">
                      {m.route === 'email' ? m.address : 'Slack'}
                    </td>
                    <td data-label="Status">
                      <span className={`badge ${statusTone[m.status] ?? 'badge-muted'}`}>{m.status}</span>
                      {m.sentAt ? (
                        <div className="muted">
                          <ZonedTime instant={m.sentAt.toISOString()} zone={zone} variant="clock" />
                        </div>
                      ) : null}
                      {m.lastError && m.status !== 'sent' ? (
                        <div className="muted wrap-anywhere">
                          <TimesInText text={m.lastError} zone={zone} />
                        </div>
                      ) : null}
                      {m.attempts > 1 ? <div className="muted">{m.attempts} attempts</div> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

/** One condition; a start not sent names its hold, or "no recipient" only when no staff email and no Slack URL is set. */
function ConditionRow({ c, zone, hasRecipients }: { c: ConditionView; zone: string; hasRecipients: boolean }) {
  const s = c.state;
  const tone = s.active ? (s.startNotified ? 'is-active' : 'is-held') : 'is-ok';
  return (
    <li className={`alert-condition ${tone}`} data-condition={c.condition} data-active={s.active ? 'true' : 'false'}>
      <div className="alert-condition-head">
        <strong>{alertConditionLabels[c.condition]}</strong>
        <span className={`badge ${s.active ? 'badge-bad' : 'badge-ok'}`}>{s.active ? 'active' : 'ok'}</span>
      </div>
      {s.active ? (
        <>
          <p className="wrap-anywhere">{s.detail ? <TimesInText text={s.detail} zone={zone} /> : null}</p>
          <p className="small muted">
            Active since {s.startedAt ? <ZonedTime instant={s.startedAt.toISOString()} zone={zone} /> : '—'} · episode {s.episode}
            {' · '}
            {s.startNotified ? 'alert sent' : !hasRecipients ? 'no alert sent: no recipient is set up' : c.held ? `alert held: ${c.held}` : 'alert goes out at the next check (within a minute)'}
            {c.condition === 'provider_auth' && s.active ? ' · alerts about your own email provider go to Slack and this page only' : ''}
          </p>
          {c.condition === 'dead_letters' || c.condition === 'unknown_outcomes' || c.condition === 'provider_auth' ? (
            <p className="small">
              <Link href="/attention">Open Needs attention →</Link>
            </p>
          ) : null}
        </>
      ) : (
        <p className="small muted">
          {s.clearedAt ? (
            <>
              Cleared <ZonedTime instant={s.clearedAt.toISOString()} zone={zone} />
              {s.detail ? (
                <span className="wrap-anywhere">
                  {' (was: '}
                  <TimesInText text={s.detail} zone={zone} />)
                </span>
              ) : null}
            </>
          ) : c.evaluatedAt ? (
            'Never triggered.'
          ) : (
            'Not evaluated yet.'
          )}
        </p>
      )}
      {s.lastStartAlertAt ? (
        <p className="small muted">
          Last alert sent <ZonedTime instant={s.lastStartAlertAt.toISOString()} zone={zone} />
        </p>
      ) : null}
    </li>
  );
}
