'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { describeChanges, mergeEdits, onTopNotice, type FieldChange } from '@/domain/platform/edit-conflict';
import { messageLocales } from '@/domain/locales';
import { zoneNames } from '@/domain/zones';
import type { EditParticipantResult, ParticipantView } from '@/server/scheduling/participants';
import { ApiError, apiCall } from '@/components/ui/api';
import { ConflictPanel, staleSave } from './ConflictPanel';
import { useDialogLoad } from '@/components/ui/useDialogLoad';
import { FormFeedback } from '@/components/ui/FormFeedback';
import { ZoneInput } from '@/components/ui/ZoneInput';
import { formatInZone } from '@/components/ui/format';

/** The form's fields (what the conflict panel compares and the merge combines). */
interface Fields {
  name: string;
  email: string;
  phone: string;
  timeZone: string;
  locale: string;
}

function fieldsOf(p: ParticipantView): Fields {
  return { name: p.name, email: p.email, phone: p.phone ?? '', timeZone: p.timeZone ?? '', locale: p.locale };
}

const localeLabel = (tag: unknown) => messageLocales.find((l) => l.tag === tag)?.label ?? (typeof tag === 'string' && tag ? tag : '—');
const changeFields: { key: keyof Fields & string; label: string; format?: (v: unknown) => string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'email', label: 'Email' },
  { key: 'phone', label: 'Mobile number' },
  { key: 'timeZone', label: 'Time zone' },
  { key: 'locale', label: 'Language', format: localeLabel },
];
const fieldLabels: Record<string, string> = { name: 'Name', email: 'Email', phone: 'Mobile number', timeZone: 'Time zone', locale: 'Language', version: 'Version' };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What a save did, in one sentence for the notice under the form. */
function savedNotice(r: EditParticipantResult): string {
  if (!r.changed) return 'Nothing changed.';
  const parts: string[] = [];
  if (r.remindersRetimed) parts.push(`${plural(r.remindersRetimed, 'waiting reminder')} moved for their quiet hours in the new zone`);
  if (r.remindersPlanned) parts.push(`${plural(r.remindersPlanned, 'reminder')} newly planned`);
  if (r.remindersHandedOver && (r.changes.timeZone || r.changes.phone)) parts.push(`${plural(r.remindersHandedOver, 'reminder')} already on its way left as it was`);
  return `Saved.${parts.length ? ` ${parts.join('; ')}.` : ''}`;
}

/**
 * "Edit participant": name, email, mobile number, time zone and language of the person booked (staff, admins).
 * Loads GET /api/bookings/:id/participant when opened and saves with PUT and the contact's version it loaded.
 * The details belong to the person (one contact for all their bookings): when they are booked on other events,
 * the dialog lists them and says the change applies there too. A zone or number change re-plans their waiting
 * reminders on the server; the notice says what moved. A stale save shows the ConflictPanel: "Apply my changes
 * to the latest version" merges the fields this person changed onto the latest details (domain/platform/edit-conflict.ts).
 */
export function EditParticipantDialog({ bookingId, name, eventId, onClose }: { bookingId: string; name: string; eventId: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  const queryClient = useQueryClient();
  const [loaded, setLoaded] = useState<ParticipantView | null>(null);
  /** What the form was opened with (after "apply", the latest details) and its version: the base of every diff. */
  const [base, setBase] = useState<{ fields: Fields; version: number } | null>(null);
  /** The inputs' starting values; a new `formKey` re-mounts the inputs with them. */
  const [defaults, setDefaults] = useState<Fields | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [conflict, setConflict] = useState<{ message: string; latest: ParticipantView; changes: FieldChange[] } | null>(null);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const loadError = useDialogLoad<ParticipantView>(ref, `/api/bookings/${encodeURIComponent(bookingId)}/participant`, (p) => {
    setLoaded(p);
    setBase({ fields: fieldsOf(p), version: p.version });
    setDefaults(fieldsOf(p));
  });

  function current(): Fields | null {
    if (!formRef.current) return null;
    const f = new FormData(formRef.current);
    const text = (k: keyof Fields) => String(f.get(k) ?? '');
    return { name: text('name'), email: text('email'), phone: text('phone'), timeZone: text('timeZone'), locale: text('locale') };
  }

  function adopt(next: Fields, latest: ParticipantView, message: string | null) {
    setLoaded(latest);
    setBase({ fields: fieldsOf(latest), version: latest.version });
    setDefaults(next);
    setFormKey((k) => k + 1);
    setConflict(null);
    setError(null);
    setNotice(message);
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const mine = current();
    if (!mine || !base) return;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const r = await apiCall<EditParticipantResult>(`/api/bookings/${encodeURIComponent(bookingId)}/participant`, 'PUT', { ...mine, version: base.version });
      adopt(fieldsOf(r.participant), r.participant, savedNotice(r));
      await queryClient.invalidateQueries({ queryKey: ['event-timeline', eventId] });
    } catch (err) {
      const stale = staleSave<ParticipantView>(err);
      if (stale) setConflict({ message: stale.message, latest: stale.current, changes: describeChanges(base.fields, fieldsOf(stale.current), changeFields) });
      else setError({ message: err instanceof Error ? err.message : String(err), field: err instanceof ApiError ? err.field : undefined });
    } finally {
      setBusy(false);
    }
  }

  const invalid = (field: keyof Fields) => (error?.field === field ? true : undefined);
  const errorId = `${id}-error`;
  const described = (field: keyof Fields, hint?: string) => [hint, error?.field === field ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  const others = loaded?.otherBookings;
  const shownLocales = defaults && !messageLocales.some((l) => l.tag === defaults.locale) ? [{ tag: defaults.locale, label: `${defaults.locale} (as stored)` }, ...messageLocales] : messageLocales;

  return (
    <dialog ref={ref} className="dialog dialog-wide participant-edit-dialog" aria-labelledby={`${id}-t`} onClose={onClose}>
      <form ref={formRef} className="form" onSubmit={onSubmit} noValidate>
        <h2 id={`${id}-t`}>Edit {name}</h2>
        <FormFeedback error={loadError ? { message: loadError } : null} />
        {!loaded || !defaults ? (
          !loadError ? <p className="muted">Loading…</p> : null
        ) : (
          <>
            {conflict ? (
              <ConflictPanel
                message={conflict.message}
                changes={conflict.changes}
                onApply={() => {
                  const mine = current() ?? base!.fields;
                  const r = mergeEdits(base!.fields, mine, fieldsOf(conflict.latest));
                  const kept = r.overlapping.map((k) => changeFields.find((c) => c.key === k)?.label ?? k);
                  adopt(r.merged, conflict.latest, onTopNotice(kept));
                }}
                onDiscard={() => adopt(fieldsOf(conflict.latest), conflict.latest, 'The form now shows the latest version.')}
              />
            ) : null}
            <p className="participant-shared" data-testid="participant-shared" data-other-bookings={others?.total ?? 0}>
              {others && others.total > 0 ? (
                <>
                  These are the person’s own details, shared by all their bookings: a change here also applies on{' '}
                  {plural(others.total, 'other event')} —{' '}
                  {others.items.map((o, i) => (
                    <span key={o.eventId}>
                      {i > 0 ? ', ' : ''}
                      <a href={`/events/${o.eventId}`}>{o.title}</a> <span className="muted">({formatInZone(o.startsAt, o.timeZone)})</span>
                    </span>
                  ))}
                  {others.total > others.items.length ? ` and ${others.total - others.items.length} more` : ''}.
                </>
              ) : (
                <>These are the person’s own details; they are booked on this event only.</>
              )}
            </p>
            <div className="form-grid" key={formKey}>
              <label className="field">
                <span>Name</span>
                <input name="name" defaultValue={defaults.name} maxLength={200} autoComplete="off" aria-invalid={invalid('name')} aria-describedby={described('name')} />
              </label>
              <label className="field">
                <span>Email</span>
                <input name="email" type="email" defaultValue={defaults.email} required autoComplete="off" aria-invalid={invalid('email')} aria-describedby={described('email')} />
              </label>
              <label className="field">
                <span>Mobile number (optional, for SMS)</span>
                <input name="phone" type="tel" inputMode="tel" autoComplete="off" placeholder="+31 6 12345678" defaultValue={defaults.phone} aria-invalid={invalid('phone')} aria-describedby={described('phone', `${id}-phone-hint`)} />
                <span id={`${id}-phone-hint`} className="field-hint">
                  In international form. Empty: no number.
                </span>
              </label>
              <label className="field">
                <span>Their time zone (optional)</span>
                <ZoneInput
                  name="timeZone"
                  zones={zoneNames}
                  listId={`${id}-zones`}
                  defaultValue={defaults.timeZone}
                  placeholder="e.g. America/New_York or a city"
                  invalid={invalid('timeZone')}
                  hint={`Their quiet hours are read in it; empty: the organisation’s (${loaded.tenantTimeZone}). The event is in ${loaded.eventTimeZone}.`}
                />
              </label>
              <label className="field">
                <span>Language of their messages</span>
                <select name="locale" defaultValue={defaults.locale} aria-invalid={invalid('locale')} aria-describedby={described('locale')}>
                  {shownLocales.map((l) => (
                    <option key={l.tag} value={l.tag} lang={l.tag}>
                      {l.label}
                    </option>
                  ))}
                </select>
              </label>
            </div>
            <p className="dialog-consequence" data-testid="participant-edit-consequence">
              {loaded.pendingReminders === 0
                ? 'No reminders are waiting for them on this event.'
                : `${plural(loaded.pendingReminders, 'reminder')} waiting for them on this event.`}{' '}
              A new time zone or mobile number re-plans their waiting reminders here{others && others.total > 0 ? ' and on their other events' : ''}. Messages
              already on their way are not changed; name, address and language apply to every message sent from now on.
            </p>
            <div id={errorId}>
              <FormFeedback error={error} notice={notice} labels={fieldLabels} />
            </div>
          </>
        )}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={() => ref.current?.close()} disabled={busy}>
            Close
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || !loaded}>
            {busy ? 'Saving…' : 'Save participant'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
