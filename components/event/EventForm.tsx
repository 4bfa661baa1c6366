'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import type { EventTimingForm } from '../../domain/event-form';
import { ApiError, apiCall, newIdempotencyKey } from '../client/api';
import { FormFeedback, ZoneOptions } from '../client/FormFeedback';
import { ConfirmDialog } from '../client/ConfirmDialog';

export interface EventFormValues extends EventTimingForm {
  title: string;
  description: string;
  location: string;
  roomUrl: string;
}

const LABELS: Record<string, string> = { title: 'Title', start: 'Starts', end: 'Ends', timeZone: 'Time zone', roomUrl: 'Online room URL', description: 'Description', location: 'Location' };

/**
 * Create or edit an event. Times are typed as wall-clock time in the chosen IANA zone (default: the tenant's).
 * Editing a timing field is a reschedule: a confirmation says how many planned reminders will be re-planned
 * for the new time before anything is saved. Creating sends an idempotency key made when the form opens: a
 * double click creates one event.
 */
export function EventForm({
  mode,
  eventId,
  initial,
  zones,
  pendingReminders = 0,
}: {
  mode: 'create' | 'edit';
  eventId?: string;
  initial: EventFormValues;
  zones: string[];
  /** Edit: reminders still waiting to go out (they are re-planned if the timing changes). */
  pendingReminders?: number;
}) {
  const router = useRouter();
  const [allDay, setAllDay] = useState(initial.allDay);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState<Record<string, unknown> | null>(null);
  const key = useRef<string | null>(null);

  function values(form: HTMLFormElement): Record<string, unknown> {
    const f = new FormData(form);
    return {
      title: f.get('title'),
      description: f.get('description'),
      location: f.get('location'),
      roomUrl: f.get('roomUrl'),
      timeZone: f.get('timeZone'),
      allDay,
      start: f.get('start'),
      end: f.get('end'),
    };
  }

  async function save(body: Record<string, unknown>) {
    key.current ??= newIdempotencyKey();
    const r =
      mode === 'create'
        ? await apiCall<{ id: string; rescheduled?: boolean; scheduleVersion?: number }>('/api/events', 'POST', body, { idempotencyKey: key.current })
        : await apiCall<{ id: string; rescheduled?: boolean; scheduleVersion?: number }>(`/api/events/${eventId}`, 'PUT', body);
    const saved = mode === 'create' ? 'created' : r.rescheduled ? `rescheduled&v=${r.scheduleVersion}` : 'updated';
    router.push(`/events/${r.id}?saved=${saved}`);
    router.refresh();
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const body = values(e.currentTarget);
    const timingChanged = mode === 'edit' && (['start', 'end', 'timeZone'] as const).some((k) => body[k] !== initial[k]) || (mode === 'edit' && allDay !== initial.allDay);
    if (timingChanged) {
      setConfirm(body);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await save(body);
    } catch (err) {
      if (err instanceof ApiError && err.keyReused) key.current = newIdempotencyKey();
      setError(err instanceof ApiError ? { message: err.message, field: err.field } : { message: String(err) });
      setBusy(false);
    }
  }

  const invalid = (field: string) => (error?.field === field ? true : undefined);
  return (
    <>
      <form className="card form event-form" onSubmit={onSubmit} noValidate>
        <div className="form-grid">
          <label className="field field-wide">
            <span>Title</span>
            <input name="title" defaultValue={initial.title} required maxLength={200} aria-invalid={invalid('title')} />
          </label>
          <label className="field">
            <span>Time zone</span>
            <input name="timeZone" list="iana-zones" defaultValue={initial.timeZone} required aria-invalid={invalid('timeZone')} aria-describedby="tz-hint" />
            <span id="tz-hint" className="field-hint">
              IANA name, e.g. Europe/Amsterdam. Times below are in this zone.
            </span>
          </label>
          <label className="field field-check">
            <input type="checkbox" name="allDay" checked={allDay} onChange={(e) => setAllDay(e.target.checked)} />
            <span>All-day event</span>
          </label>
          <label className="field">
            <span>{allDay ? 'First day' : 'Starts (local time)'}</span>
            <input
              key={`start-${allDay}`}
              name="start"
              type={allDay ? 'date' : 'datetime-local'}
              defaultValue={allDay ? initial.start.slice(0, 10) : initial.start.length === 10 ? `${initial.start}T09:00` : initial.start}
              required
              aria-invalid={invalid('start')}
            />
          </label>
          <label className="field">
            <span>{allDay ? 'Last day' : 'Ends (local time)'}</span>
            <input
              key={`end-${allDay}`}
              name="end"
              type={allDay ? 'date' : 'datetime-local'}
              defaultValue={allDay ? initial.end.slice(0, 10) : initial.end.length === 10 ? `${initial.end}T10:00` : initial.end}
              required
              aria-invalid={invalid('end')}
            />
          </label>
          <label className="field">
            <span>Location (optional)</span>
            <input name="location" defaultValue={initial.location} maxLength={2000} />
          </label>
          <label className="field">
            <span>Online room URL (optional)</span>
            <input name="roomUrl" type="url" defaultValue={initial.roomUrl} placeholder="https://…" aria-invalid={invalid('roomUrl')} />
          </label>
          <label className="field field-wide">
            <span>Description (optional)</span>
            <textarea name="description" rows={3} defaultValue={initial.description} maxLength={2000} />
          </label>
        </div>
        <ZoneOptions zones={zones} />
        <FormFeedback error={error} labels={LABELS} />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving…' : mode === 'create' ? 'Create event' : 'Save changes'}
          </button>
          <button type="button" className="btn" onClick={() => router.back()}>
            Cancel
          </button>
        </div>
      </form>
      <ConfirmDialog
        open={confirm !== null}
        title="Reschedule this event?"
        confirmLabel="Reschedule"
        onClose={() => setConfirm(null)}
        onConfirm={async () => {
          try {
            await save(confirm!);
          } catch (err) {
            if (err instanceof ApiError) setError({ message: err.message, field: err.field });
            throw err;
          }
        }}
      >
        <p className="dialog-consequence">
          {pendingReminders === 0
            ? 'No planned reminders are waiting; reminders for the new time are planned for every participant.'
            : `${pendingReminders} reminder${pendingReminders === 1 ? '' : 's'} will be re-planned for the new time.`}{' '}
          The schedule version goes up by one; reminders of the old version are marked superseded, and messages already sent stay as
          they are.
        </p>
      </ConfirmDialog>
    </>
  );
}
