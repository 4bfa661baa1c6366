'use client';

import { useId, useState, type FormEvent } from 'react';
import { describeOwnPreferences, notSavedFieldOption, quietHoursFromForm } from '@/domain/notifications/preference-form';
import type { ChannelPreferences } from '@/domain/notifications/preferences';
import { personalChannels, preferenceCategories } from '@/domain/vocabulary';
import { pageText, type PageLanguage } from '@/emails/messages/page-text';
import type { ContactPreferencesView } from '@/server/notifications/contact-preferences';
import { FormFeedback } from '@/components/ui/FormFeedback';

type Status = { kind: 'saved' | 'stale' | 'error'; message: string; field?: string } | null;

/**
 * The person's own preference form (no sign-in), every word in their language (`page`: emails/messages/page-language.ts,
 * the catalog's `pages` messages): per category the channels they take, quiet hours in their zone (else the
 * organisation's — it says which), the number on file masked, and the version in a hidden field. It is a plain HTML
 * form posting to /api/preferences/<token>; with script it posts JSON instead and shows the answer in place — a stale
 * save shows `pages.stale` ("These preferences were changed since you opened this page — here is what they are now.")
 * with the current values in the form. A refusal names the field in the page's words (`pages.notSaved`), never the
 * server's English message.
 */
export function PublicPreferencesForm({ token, view: initialView, initial, page }: { token: string; view: ContactPreferencesView; initial: Status; page: PageLanguage }) {
  const t = (key: Parameters<typeof pageText>[1], values?: Record<string, string | number>) => pageText(page, key, values);
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
      setStatus({ kind: 'error', message: t('notSaved', { field: notSavedFieldOption(q.field) }), field: q.field });
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
        setStatus({ kind: 'saved', message: t(data.changed ? 'saved' : 'savedUnchanged') });
      } else if (res.status === 409 && data?.current) {
        show(data.current);
        setStatus({ kind: 'stale', message: t('stale') });
      } else if (res.status >= 400 && res.status < 500) {
        setStatus({ kind: 'error', message: t('notSaved', { field: notSavedFieldOption(data?.field) }), field: data?.field });
      } else {
        setStatus({ kind: 'error', message: t('serverError') });
      }
    } catch {
      setStatus({ kind: 'error', message: t('offline') });
    } finally {
      setBusy(false);
    }
  }

  const q = quietHoursFromForm(quietStart, quietEnd);
  const sentences = describeOwnPreferences((key, values) => t(key, values), { prefs, quietHours: q.ok ? q.quietHours : null, zone: view.zone, hasPhone: view.hasPhone });
  const errorId = `${id}-error`;
  const invalid = (...f: string[]) => (status?.kind === 'error' && status.field && f.includes(status.field) ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {});

  return (
    <form className="form" method="post" action={action} onSubmit={onSubmit} noValidate aria-label={t('preferencesTitle')}>
      <input type="hidden" name="version" value={view.version} />
      {status?.kind === 'stale' ? (
        <p className="conflict-panel" role="alert" data-testid="stale-message">
          {status.message}
        </p>
      ) : null}
      <div className="prefs-grid">
        {preferenceCategories.map((cat) => (
          <fieldset key={cat} className="prefs-category">
            <legend>{t('categoryTitle', { category: cat })}</legend>
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
                {t('channel', { channel: c })}
              </label>
            ))}
          </fieldset>
        ))}
      </div>
      <p className="small" data-testid="phone-on-file">
        {view.phoneMasked ? t('phoneOnFile', { phone: view.phoneMasked }) : t('noPhone', { tenantName: view.tenantName })}
      </p>
      <fieldset className="prefs-category">
        <legend>{t('quietHours')}</legend>
        <div className="prefs-quiet">
          <label className="field">
            <span>{t('quietFrom')}</span>
            <input name="quietStart" type="time" value={quietStart} onChange={(e) => setQuietStart(e.target.value)} {...invalid('quietHours.start', 'quietHours')} />
          </label>
          <label className="field">
            <span>{t('quietTo')}</span>
            <input name="quietEnd" type="time" value={quietEnd} onChange={(e) => setQuietEnd(e.target.value)} {...invalid('quietHours.end', 'quietHours')} />
          </label>
        </div>
        <p className="field-hint">{t('quietHint', { zone: view.zone, source: view.zoneSource })}</p>
      </fieldset>
      <div className="prefs-readback" aria-live="polite">
        <span className="prefs-readback-label">{t('inShort')}</span>
        <ul data-testid="preference-sentences">
          {sentences.map((s) => (
            <li key={s}>{s}</li>
          ))}
        </ul>
      </div>
      <FormFeedback error={status?.kind === 'error' ? { message: status.message } : null} notice={status?.kind === 'saved' ? status.message : null} errorId={errorId} />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? t('saving') : t('save')}
        </button>
      </div>
    </form>
  );
}
