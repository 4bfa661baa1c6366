'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { describeChanges, mergeEdits, onTopNotice, type FieldChange } from '@/domain/platform/edit-conflict';
import { dateInZone, describeContactPreferences, quietHoursFromForm, quietHoursZoneText } from '@/domain/notifications/preference-form';
import { categoryPhrase, type ChannelPreferences } from '@/domain/notifications/preferences';
import { personalChannels, preferenceCategories, type PersonalChannel, type PreferenceCategory } from '@/domain/vocabulary';
import type { ContactPreferencesView } from '@/server/notifications/contact-preferences';
import { ApiError, apiCall } from '@/components/ui/api';
import { ConflictPanel, staleSave } from './ConflictPanel';
import { useDialogLoad } from '@/components/ui/useDialogLoad';
import { FormFeedback } from '@/components/ui/FormFeedback';

const categoryLabels: Record<PreferenceCategory, string> = { reminders: 'Reminders', booking_updates: 'Booking updates', announcements: 'Announcements' };
const channelLabels: Record<PersonalChannel, string> = { email: 'Email', sms: 'SMS' };

/** The form's fields (what the conflict panel compares and the merge combines). */
interface Fields {
  phone: string;
  reminders: PersonalChannel[];
  booking_updates: PersonalChannel[];
  announcements: PersonalChannel[];
  quietStart: string;
  quietEnd: string;
}

function fieldsOf(p: ContactPreferencesView): Fields {
  return {
    phone: p.phone ?? '',
    reminders: p.preferences.reminders,
    booking_updates: p.preferences.booking_updates,
    announcements: p.preferences.announcements,
    quietStart: p.quietHours?.start ?? '',
    quietEnd: p.quietHours?.end ?? '',
  };
}

const channelsText = (v: unknown) => (Array.isArray(v) && v.length ? v.map((c) => channelLabels[c as PersonalChannel] ?? String(c)).join(', ') : 'none');
const changeFields: { key: keyof Fields; label: string; format?: (v: unknown) => string }[] = [
  { key: 'phone', label: 'Mobile number' },
  { key: 'reminders', label: 'Reminders', format: channelsText },
  { key: 'booking_updates', label: 'Booking updates', format: channelsText },
  { key: 'announcements', label: 'Announcements', format: channelsText },
  { key: 'quietStart', label: 'Quiet hours from' },
  { key: 'quietEnd', label: 'Quiet hours to' },
];
const fieldLabels: Record<string, string> = {
  phone: 'Mobile number',
  'preferences.reminders': 'Reminders',
  'preferences.booking_updates': 'Booking updates',
  'preferences.announcements': 'Announcements',
  'quietHours.start': 'Quiet hours from',
  'quietHours.end': 'Quiet hours to',
  quietHours: 'Quiet hours',
};

/**
 * "Preferences" of one participant (staff): mobile number, per category (Reminders, Booking updates, Announcements) the
 * channels they take (Email / SMS), quiet hours from/to in their zone (else the organisation's — the form says
 * which), read back as sentences. Loads GET /api/contacts/:id/preferences when opened and saves with PUT and
 * the version it loaded; a stale save shows the ConflictPanel. `readOnly` (viewers): the same, without saving.
 *
 * A category the person left with the one-click unsubscribe link in a message (issue #10 §5) reads back
 * "Unsubscribed from booking updates by the recipient on Tue 3 Aug 2027 (one-click link)." Ticking a channel
 * there again shows who unsubscribed and when, that only they can subscribe again (their preferences link), and
 * a checkbox "They asked us to send these again" that sends `confirmRecipientConsent: true`; without it the
 * server refuses the save (409 naming the category), shown beside the form.
 */
function PreferencesDialog({ contactId, name, eventId, readOnly, onClose }: { contactId: string; name: string; eventId: string; readOnly: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const queryClient = useQueryClient();
  const [loaded, setLoaded] = useState<ContactPreferencesView | null>(null);
  const [base, setBase] = useState<{ fields: Fields; version: number } | null>(null);
  const [fields, setFields] = useState<Fields | null>(null);
  const [conflict, setConflict] = useState<{ message: string; latest: ContactPreferencesView; changes: FieldChange[] } | null>(null);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [consent, setConsent] = useState(false);

  const loadError = useDialogLoad<ContactPreferencesView>(ref, `/api/contacts/${encodeURIComponent(contactId)}/preferences`, (p) => {
    setLoaded(p);
    setBase({ fields: fieldsOf(p), version: p.version });
    setFields(fieldsOf(p));
  });
  useEffect(() => setError(null), [fields]);

  function adopt(next: Fields, latest: ContactPreferencesView, message: string | null) {
    setLoaded(latest);
    setBase({ fields: fieldsOf(latest), version: latest.version });
    setFields(next);
    setConflict(null);
    setNotice(message);
    setConsent(false);
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!fields || !base || readOnly) return;
    setNotice(null);
    const q = quietHoursFromForm(fields.quietStart, fields.quietEnd);
    if (!q.ok) {
      setError({ message: q.message, field: q.field });
      return;
    }
    setBusy(true);
    try {
      const r = await apiCall<{ preferences: ContactPreferencesView; changed: boolean; remindersCancelled: number; remindersPlanned: number }>(
        `/api/contacts/${encodeURIComponent(contactId)}/preferences`,
        'PUT',
        {
          phone: fields.phone,
          preferences: { reminders: fields.reminders, booking_updates: fields.booking_updates, announcements: fields.announcements },
          quietHours: q.quietHours,
          version: base.version,
          ...(consent && reenabling.length > 0 ? { confirmRecipientConsent: true } : {}),
        },
      );
      const follow = !r.changed
        ? 'Nothing changed.'
        : `Saved.${r.remindersPlanned ? ` ${r.remindersPlanned} reminder${r.remindersPlanned === 1 ? '' : 's'} newly planned.` : ''} Messages on a channel they no longer take stop when they fall due.`;
      adopt(fieldsOf(r.preferences), r.preferences, follow);
      await queryClient.invalidateQueries({ queryKey: ['event-timeline', eventId] });
    } catch (err) {
      const stale = staleSave<ContactPreferencesView>(err);
      if (stale) {
        setConflict({ message: stale.message, latest: stale.current, changes: describeChanges(base.fields, fieldsOf(stale.current), changeFields) });
      } else {
        setError({ message: err instanceof Error ? err.message : String(err), field: err instanceof ApiError ? err.field : undefined });
      }
    } finally {
      setBusy(false);
    }
  }

  const toggle = (cat: PreferenceCategory, c: PersonalChannel, on: boolean) =>
    setFields((f) => (f ? { ...f, [cat]: personalChannels.filter((x) => (x === c ? on : f[cat].includes(x))) } : f));

  // Categories the person left with a one-click link that the form now ticks again: theirs to re-enable.
  const markers = loaded?.unsubscribed ?? {};
  const reenabling = fields ? preferenceCategories.filter((c) => markers[c] && fields[c].length > 0) : [];
  const q = fields ? quietHoursFromForm(fields.quietStart, fields.quietEnd) : null;
  const sentences =
    fields && loaded
      ? describeContactPreferences({
          prefs: { reminders: fields.reminders, booking_updates: fields.booking_updates, announcements: fields.announcements } satisfies ChannelPreferences,
          quietHours: q?.ok ? q.quietHours : null,
          zone: loaded.zone,
          hasPhone: fields.phone.trim() !== '',
          unsubscribed: markers,
        })
      : [];
  const errorId = `${id}-error`;
  const mark = (...names: string[]) => (error?.field && names.includes(error.field) ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {});

  return (
    <dialog ref={ref} className="dialog preferences-dialog" aria-labelledby={`${id}-t`} onClose={onClose}>
      <form className="form" onSubmit={onSubmit} noValidate>
        <h2 id={`${id}-t`}>Preferences of {name}</h2>
        <FormFeedback error={loadError ? { message: loadError } : null} />
        {!fields || !loaded ? (
          !loadError ? <p className="muted">Loading…</p> : null
        ) : (
          <>
            {conflict ? (
              <ConflictPanel
                message={conflict.message}
                changes={conflict.changes}
                onApply={() => {
                  const r = mergeEdits(base!.fields, fields, fieldsOf(conflict.latest));
                  const kept = r.overlapping.map((k) => changeFields.find((c) => c.key === k)?.label ?? k);
                  adopt(r.merged, conflict.latest, onTopNotice(kept));
                }}
                onDiscard={() => adopt(fieldsOf(conflict.latest), conflict.latest, 'The form now shows the latest version.')}
              />
            ) : null}
            {readOnly ? <p className="notice notice-warn">Your role can read these preferences; staff and admins can change them.</p> : null}
            <fieldset className="prefs-fieldset" disabled={readOnly}>
              <label className="field">
                <span>Mobile number</span>
                <input name="phone" type="tel" inputMode="tel" autoComplete="off" placeholder="+31 6 12345678" value={fields.phone} onChange={(e) => setFields({ ...fields, phone: e.target.value })} {...mark('phone')} />
                <span className="field-hint">In international form; needed for SMS. Empty: no number.</span>
              </label>
              <div className="prefs-grid" role="group" aria-label="Channels per kind of message">
                {preferenceCategories.map((cat) => (
                  <fieldset key={cat} className="prefs-category" {...(error?.field === `preferences.${cat}` ? { 'aria-describedby': errorId } : {})}>
                    <legend>{categoryLabels[cat]}</legend>
                    {personalChannels.map((c) => (
                      <label key={c} className="prefs-check">
                        <input type="checkbox" name={cat} value={c} checked={fields[cat].includes(c)} onChange={(e) => toggle(cat, c, e.target.checked)} aria-label={`${categoryLabels[cat]} by ${channelLabels[c]}`} />{' '}
                        {channelLabels[c]}
                      </label>
                    ))}
                  </fieldset>
                ))}
              </div>
              {reenabling.length > 0 ? (
                <div className="notice notice-warn prefs-consent" data-testid="resubscribe-consent">
                  <p>
                    {name} unsubscribed from{' '}
                    {reenabling.map((c, i) => (
                      <span key={c}>
                        {i > 0 ? ' and ' : ''}
                        {categoryPhrase(c)} on {dateInZone(markers[c]!, loaded.zone)}
                      </span>
                    ))}{' '}
                    with the one-click link in a message. Only they can subscribe again, with the preferences link in their messages — unless they asked you to.
                  </p>
                  <label className="prefs-check">
                    <input type="checkbox" name="confirmRecipientConsent" checked={consent} onChange={(e) => setConsent(e.target.checked)} /> They asked us to send these again
                  </label>
                </div>
              ) : null}
              <fieldset className="prefs-category">
                <legend>Quiet hours</legend>
                <div className="prefs-quiet">
                  <label className="field">
                    <span>From</span>
                    <input name="quietStart" type="time" value={fields.quietStart} onChange={(e) => setFields({ ...fields, quietStart: e.target.value })} {...mark('quietHours.start', 'quietHours')} />
                  </label>
                  <label className="field">
                    <span>To</span>
                    <input name="quietEnd" type="time" value={fields.quietEnd} onChange={(e) => setFields({ ...fields, quietEnd: e.target.value })} {...mark('quietHours.end', 'quietHours')} />
                  </label>
                </div>
                <p className="field-hint" data-testid="quiet-zone">
                  Times {quietHoursZoneText({ zone: loaded.zone, source: loaded.zoneSource }, 'participant')}. Leave both empty for none.
                </p>
              </fieldset>
            </fieldset>
            <div className="prefs-readback" aria-live="polite">
              <span className="prefs-readback-label">Reads as</span>
              <ul data-testid="preference-sentences">
                {sentences.map((s) => (
                  <li key={s}>{s}</li>
                ))}
              </ul>
            </div>
            <FormFeedback error={error} notice={notice} labels={fieldLabels} unlabelled="plain" errorId={errorId} />
          </>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={() => ref.current?.close()}>
            Close
          </button>
          {!readOnly ? (
            <button type="submit" className="btn btn-primary" disabled={busy || !fields}>
              {busy ? 'Saving…' : 'Save preferences'}
            </button>
          ) : null}
        </div>
      </form>
    </dialog>
  );
}

/** The "Preferences" button of a participant, opening {@link PreferencesDialog}. */
export function PreferencesButton({ contactId, name, eventId, readOnly }: { contactId: string; name: string; eventId: string; readOnly: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-small" onClick={() => setOpen(true)} aria-label={`Preferences — ${name}`}>
        Preferences
      </button>
      {open ? <PreferencesDialog contactId={contactId} name={name} eventId={eventId} readOnly={readOnly} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
