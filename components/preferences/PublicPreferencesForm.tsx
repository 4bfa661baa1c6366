'use client';

import { useId, useState, type FormEvent } from 'react';
import { describeContactPreferences, quietHoursFromForm, quietHoursZoneText } from '@/domain/notifications/preference-form';
import type { ChannelPreferences } from '@/domain/notifications/preferences';
import { personalChannels, preferenceCategories, type PersonalChannel, type PreferenceCategory } from '@/domain/vocabulary';
import type { ContactPreferencesView } from '@/server/notifications/contact-preferences';
import { FormFeedback } from '@/components/ui/FormFeedback';

const categoryLabels: Record<PreferenceCategory, string> = {
  reminders: 'Reminders before your events',
  booking_updates: 'Updates about your bookings',
  announcements: 'Announcements from the organiser about your events',
};
const channelLabels: Record<PersonalChannel, string> = { email: 'Email', sms: 'Text message (SMS)' };
const fieldLabels: Record<string, string> = {
  'preferences.reminders': 'Reminders',
  'preferences.booking_updates': 'Booking updates',
  'preferences.announcements': 'Announcements',
  'quietHours.start': 'Quiet hours from',
  'quietHours.end': 'Quiet hours to',
  quietHours: 'Quiet hours',
};

type Status = { kind: 'saved' | 'stale' | 'error'; message: string; field?: string } | null;

/**
 * The person's own preference form (no sign-in): per category the channels they take, quiet hours in their zone
 * (else the organisation's — it says which), the number on file masked, and the version in a hidden field. It is
 * a plain HTML form posting to /api/preferences/<token>; with script it posts JSON instead and shows the answer
 * in place — a stale save shows "These preferences were changed since you opened this page — here is what they
 * are now." with the current values in the form.
 */
export function PublicPreferencesForm({ token, view: initialView, initial }: { token: string; view: ContactPreferencesView; initial: Status }) {
  const id = useId();
  const [view, setView] = useState(initialView);
  const [prefs, setPrefs] = useState<ChannelPreferences>(initialView.preferences);
  const [quietStart, setQuietStart] = useState(initialView.quietHours?.start ?? '');
  const [quietEnd, setQuietEnd] = useState(initialView.quietHours?.end ?? '');
  const [status, setStatus] = useState<Status>(initial);
  const [busy, setBusy] = useState(false);
  const action = `/api/preferences/${encodeURIComponent(token)}`;

  function show(v: ContactPreferencesView) {
    setView(v);
    setPrefs(v.preferences);
    setQuietStart(v.quietHours?.start ?? '');
    setQuietEnd(v.quietHours?.end ?? '');
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const q = quietHoursFromForm(quietStart, quietEnd);
    if (!q.ok) {
      setStatus({ kind: 'error', message: q.message, field: q.field });
      return;
    }
    setBusy(true);
    setStatus(null);
    try {
      const res = await fetch(action, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ preferences: prefs, quietHours: q.quietHours, version: view.version }),
        cache: 'no-store',
      });
      const data = (await res.json().catch(() => null)) as { error?: string; field?: string; current?: ContactPreferencesView; preferences?: ContactPreferencesView; changed?: boolean } | null;
      if (res.ok && data?.preferences) {
        show(data.preferences);
        setStatus({ kind: 'saved', message: data.changed ? 'Saved. Your preferences apply from now on.' : 'Saved — nothing had changed.' });
      } else if (res.status === 409 && data?.current) {
        show(data.current);
        setStatus({ kind: 'stale', message: data.error ?? 'These preferences were changed since you opened this page — here is what they are now.' });
      } else {
        setStatus({ kind: 'error', message: data?.error ?? `The server answered ${res.status}. Please try again.`, field: data?.field });
      }
    } catch {
      setStatus({ kind: 'error', message: 'Could not reach the server — check your connection and try again.' });
    } finally {
      setBusy(false);
    }
  }

  const q = quietHoursFromForm(quietStart, quietEnd);
  const sentences = describeContactPreferences({ prefs, quietHours: q.ok ? q.quietHours : null, zone: view.zone, hasPhone: view.hasPhone });
  const errorId = `${id}-error`;
  const invalid = (...f: string[]) => (status?.kind === 'error' && status.field && f.includes(status.field) ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {});

  return (
    <form className="form" method="post" action={action} onSubmit={onSubmit} noValidate aria-label="Your message preferences">
      <input type="hidden" name="version" value={view.version} />
      {status?.kind === 'stale' ? (
        <p className="conflict-panel" role="alert" data-testid="stale-message">
          {status.message}
        </p>
      ) : null}
      <div className="prefs-grid">
        {preferenceCategories.map((cat) => (
          <fieldset key={cat} className="prefs-category">
            <legend>{categoryLabels[cat]}</legend>
            {personalChannels.map((c) => (
              <label key={c} className="prefs-check">
                <input
                  type="checkbox"
                  name={cat}
                  value={c}
                  checked={prefs[cat].includes(c)}
                  onChange={(e) => setPrefs((p) => ({ ...p, [cat]: personalChannels.filter((x) => (x === c ? e.target.checked : p[cat].includes(x))) }))}
                  {...invalid(`preferences.${cat}`)}
                />{' '}
                {channelLabels[c]}
              </label>
            ))}
          </fieldset>
        ))}
      </div>
      <p className="small" data-testid="phone-on-file">
        {view.phoneMasked
          ? `Text messages go to the number we have for you: ${view.phoneMasked}.`
          : `We have no mobile number for you, so nothing can go by text message; ask ${view.tenantName} to add one.`}
      </p>
      <fieldset className="prefs-category">
        <legend>Quiet hours</legend>
        <div className="prefs-quiet">
          <label className="field">
            <span>From</span>
            <input name="quietStart" type="time" value={quietStart} onChange={(e) => setQuietStart(e.target.value)} {...invalid('quietHours.start', 'quietHours')} />
          </label>
          <label className="field">
            <span>To</span>
            <input name="quietEnd" type="time" value={quietEnd} onChange={(e) => setQuietEnd(e.target.value)} {...invalid('quietHours.end', 'quietHours')} />
          </label>
        </div>
        <p className="field-hint">
          Times {quietHoursZoneText({ zone: view.zone, source: view.zoneSource }, 'you')}. Reminders and updates due then wait until they end, when they still can.
          Leave both empty for none.
        </p>
      </fieldset>
      <div className="prefs-readback" aria-live="polite">
        <span className="prefs-readback-label">In short</span>
        <ul data-testid="preference-sentences">
          {sentences.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      </div>
      <FormFeedback
        error={status?.kind === 'error' ? status : null}
        notice={status?.kind === 'saved' ? status.message : null}
        labels={fieldLabels}
        unlabelled="plain"
        errorId={errorId}
      />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save my preferences'}
        </button>
      </div>
    </form>
  );
}
