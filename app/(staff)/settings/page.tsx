import type { Metadata } from 'next';
import { getDb } from '@/db/client';
import { PartnershipLimitForm } from '@/components/settings/GuestPartnerships';
import { OrgSettingsForm } from '@/components/settings/OrgSettingsForm';
import { providerLabels, settingsLabels } from '@/components/settings/settings-labels';
import { PartnershipSteps, ProposePartnership } from '@/components/settings/PartnershipAgreements';
import { SenderStatusPanel } from '@/components/settings/SenderStatusPanel';
import { TestMessagePanel } from '@/components/settings/TestMessagePanel';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { messageLocales } from '@/domain/locales';
import { can } from '@/domain/accounts/permissions';
import { zoneNames } from '@/domain/zones';
import { readOrgSettings } from '@/server/organisations/org-settings';
import { readAgreements, readGuestOrganisations } from '@/server/organisations/partnerships';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/partnerships.css';
import '@/app/styles/settings.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Settings' };

/**
 * The organisation settings (issue #13): name, default time zone and language, sender name and address, reply-to,
 * email provider — admins change them (domain/accounts/permissions.ts `configure`), everyone else reads them — and "send a
 * test message" (admins). Below, the guest partnerships (moved here from the Staff page): the organisations that
 * may book our people as guests (with whom they may write to in our name, issue #12) and those whose people we may
 * book, each agreed by both sides: pending ones to accept or decline, active ones to end, and a form to propose one.
 */
export default async function SettingsPage() {
  const { tenant, user } = await requireStaff();
  const admin = can(user.role, 'configure');
  const settings = await readOrgSettings(getDb(), tenant.id);
  const agreements = await readAgreements(getDb(), tenant.id);
  const limits = new Map((await readGuestOrganisations(getDb(), tenant.id)).map((g) => [g.slug, g.description]));
  const live = agreements.filter((a) => a.status === 'active' || a.status === 'pending');
  const asGuest = live.filter((a) => a.side === 'guest');
  const asHost = live.filter((a) => a.side === 'host');
  const past = agreements.filter((a) => a.status === 'declined' || a.status === 'ended');
  const localeLabel = messageLocales.find((l) => l.tag === settings.locale)?.label;
  return (
    <>
      <div className="page-head">
        <h1>Settings</h1>
        <p className="muted">
          {settings.name} · short name <code>{settings.slug}</code>
          {admin ? '' : ' · only admins change these'}
        </p>
      </div>
      {admin ? (
        <OrgSettingsForm settings={settings} zones={[...zoneNames]} />
      ) : (
        <section className="card settings-readonly" aria-labelledby="settings-readonly-title">
          <h2 id="settings-readonly-title">Organisation</h2>
          <p className="notice notice-warn">Your role ({user.role}) can read the settings; only an admin can change them.</p>
          <dl className="settings-list">
            <dt>{settingsLabels.name}</dt>
            <dd>{settings.name}</dd>
            <dt>{settingsLabels.timeZone}</dt>
            <dd>{settings.timeZone}</dd>
            <dt>{settingsLabels.locale}</dt>
            <dd>
              {settings.locale}
              {localeLabel ? ` (${localeLabel})` : ''}
            </dd>
            <dt>{settingsLabels.senderName}</dt>
            <dd>{settings.senderName ?? <span className="muted">{settings.name} (the organisation name)</span>}</dd>
            <dt>{settingsLabels.senderEmail}</dt>
            <dd>{settings.senderEmail}</dd>
            <dt>{settingsLabels.replyTo}</dt>
            <dd>{settings.replyTo ?? <span className="muted">none</span>}</dd>
            <dt>{settingsLabels.emailProvider}</dt>
            <dd>{providerLabels[settings.emailProvider]}</dd>
            <dt>{settingsLabels.smsSegmentLimit}</dt>
            <dd>{settings.smsSegmentLimit}</dd>
            <dt>{settingsLabels.unconfirmedAlertThreshold}</dt>
            <dd>{settings.unconfirmedAlertThreshold ?? 'no warning'}</dd>
          </dl>
        </section>
      )}
      {settings.sender ? (
        <section className="card" aria-labelledby="sender-title">
          <h2 id="sender-title">Where mail goes out from</h2>
          <SenderStatusPanel status={settings.sender} senderEmail={settings.senderEmail} zone={tenant.timeZone} canResend={admin} />
        </section>
      ) : null}
      <section className="card" aria-labelledby="provider-title">
        <h2 id="provider-title">Email provider</h2>
        <p className="small">
          Mail goes through the {providerLabels[settings.emailProvider]}. Its credentials live in the worker’s environment, never in this page: <code>SMTP_URL</code> for
          SMTP, <code>HTTP_EMAIL_API_URL</code> and <code>HTTP_EMAIL_API_KEY</code> for the HTTP email API. This page cannot see which of them the workers have — a
          test message tells you.
        </p>
        {admin ? <TestMessagePanel defaultTo={user.email} provider={settings.emailProvider} staff={settings.staffAddresses} /> : null}
        <p className="small muted">
          Last changed <ZonedTime instant={settings.updatedAt} zone={tenant.timeZone} />
          {settings.version > 1 && settings.updatedBy ? ` by ${settings.updatedBy}` : ''}.
        </p>
      </section>

      <section className="partnerships" aria-labelledby="partnerships-title">
        <h2 id="partnerships-title">Guest partnerships</h2>
        <p className="muted">
          A partner organisation may book {tenant.name}’s people as guests of its events — or {tenant.name} may book theirs — once both sides agree. Messages a
          partner sends to a guest go out in {tenant.name}’s name only for the people allowed here; every one is listed in <a href="/deliveries">Deliveries</a> and
          the <a href="/audit">Audit log</a>.
        </p>
        <h3 className="partnerships-subtitle">Organisations that may book our people as guests</h3>
        {asGuest.length === 0 ? <p className="muted small">None.</p> : null}
        <ul className="partnership-list">
          {asGuest.map((a) => (
            <li key={a.key} className="card partnership" data-partner={a.otherName} data-status={a.status}>
              <h3>
                {partnerShown(a)} {a.status === 'pending' ? <span className="tag">pending</span> : null}
              </h3>
              <p className="small muted" data-testid="partnership-state">
                {capitalise(a.description)} · since <ZonedTime instant={a.statusChangedAt} zone={tenant.timeZone} />
              </p>
              {a.limit ? <PartnershipLimitForm partnership={a.limit} canEdit={admin} /> : null}
              {admin ? <PartnershipSteps agreement={a} /> : null}
            </li>
          ))}
        </ul>
        <h3 className="partnerships-subtitle">Organisations whose people we may book</h3>
        {asHost.length === 0 ? <p className="muted small">None.</p> : null}
        <ul className="partnership-list partnership-host-list">
          {asHost.map((a) => (
            <li key={a.key} className="card partnership" data-partner={a.otherName} data-status={a.status}>
              <p>
                <strong>{partnerShown(a)}</strong>
                {a.status === 'active' ? `: messages go out in their name to ${limits.get(a.otherSlug) ?? 'the people they allow'}; to anyone else in your own name.` : null}
                {a.status === 'pending' ? <span className="tag">pending</span> : null}
              </p>
              <p className="small muted" data-testid="partnership-state">
                {capitalise(a.description)} · since <ZonedTime instant={a.statusChangedAt} zone={tenant.timeZone} />
              </p>
              {admin ? <PartnershipSteps agreement={a} /> : null}
            </li>
          ))}
        </ul>
        {admin ? <ProposePartnership /> : <p className="small muted">Only admins propose, accept, decline or end partnerships.</p>}
        {past.length > 0 ? (
          <details className="partnership-past">
            <summary>Declined and ended ({past.length})</summary>
            <ul>
              {past.map((a) => (
                <li key={a.key}>
                  {partnerShown(a)} ({a.side === 'guest' ? 'they would book our people' : 'we would book theirs'}): {a.status} <ZonedTime instant={a.statusChangedAt} zone={tenant.timeZone} />
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </section>
    </>
  );
}

/** The other organisation as this side may see it: its name, or “the slug we typed” while our proposal is not accepted. */
function partnerShown(a: { otherTenantId: string | null; otherName: string; otherSlug: string }): string {
  return a.otherTenantId === null ? `“${a.otherSlug}”` : a.otherName;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
