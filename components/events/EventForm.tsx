'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import { describeChanges, mergeEdits, onTopNotice, type FieldChange } from '@/domain/platform/edit-conflict';
import { ApiError, apiCall, newIdempotencyKey } from '@/components/ui/api';
import { ConflictPanel, staleSave } from './ConflictPanel';
import { FormFeedback } from '@/components/ui/FormFeedback';
import { ZoneInput } from '@/components/ui/ZoneInput';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { TimingRange, type EventTiming } from './TimingRange';
import { EventNoteField } from './EventNoteField';
import { CHANGE_FIELDS, LABELS, pickForm, requestBody, timingOf, type EventFormValues, type LatestEvent } from './event-form-fields';
import { endKeepingLength } from '@/domain/scheduling/keep-length';
import { detailChangesOf } from '@/domain/scheduling/event-details-change';
import { NotifyDetailsChoice } from './NotifyDetailsChoice';

/**
 * Create or edit an event. Times are typed as wall-clock time in the chosen IANA zone (default: the tenant's).
 * Moving the start moves the end with it (the same length), as calendar apps do; the end can then be changed on its
 * own. Editing a timing field is a reschedule: a confirmation shows the old and the new time (each in its event
 * zone, the viewer's zone on hover) and says how many planned reminders will be re-planned for the new time
 * before anything is saved.
 *
 * Edit mode sends the event's row `version` the form was opened with (invariant 11). When someone else saved
 * the event meanwhile, the server answers 409 with the current event: the form keeps the person's edits and
 * shows what changed (`ConflictPanel`); "Apply my changes to the latest version" takes the latest event,
 * puts the fields this person changed on top (domain/platform/edit-conflict.ts `mergeEdits`) and adopts the latest
 * version — then they save again.
 *
 * Creating sends an idempotency key made when the form opens: a double click creates one event.
 *
 * Edit mode with people booked: while the title, location, online room link or description differs from what the form
 * was opened with, the form asks whether to tell them (`NotifyDetailsChoice`); the choice is sent as `notify` only when
 * the person made one (else the server's default applies).
 */
export function EventForm({
  mode,
  eventId,
  initial,
  version,
  zones,
  pendingReminders = 0,
  bookedPeople = 0,
  noteLanguages,
}: {
  mode: 'create' | 'edit';
  eventId?: string;
  initial: EventFormValues;
  /** Edit: the event's row version these values were read at. */
  version?: number;
  zones: string[];
  /** Edit: reminders still waiting to go out (they are re-planned if the timing changes). */
  pendingReminders?: number;
  /** Edit: confirmed bookings of the event (the people a details change can be told to). */
  bookedPeople?: number;
  /** The languages a note for participants can be written in (Punctual's message languages), besides "all languages". */
  noteLanguages: readonly string[];
}) {
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  /** What the form was opened with (after "apply", the latest event) and its version: the base of every diff. */
  const [base, setBase] = useState<{ values: EventFormValues; version?: number }>({ values: pickForm(initial), version });
  /** The inputs' starting values; a new `formKey` re-mounts the inputs with them. */
  const [defaults, setDefaults] = useState<EventFormValues>(pickForm(initial));
  const [formKey, setFormKey] = useState(0);
  const [allDay, setAllDay] = useState(initial.allDay);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState<{ body: Record<string, unknown>; from: EventTiming | null; to: EventTiming | null } | null>(null);
  const [conflict, setConflict] = useState<{ message: string; latest: LatestEvent; changes: FieldChange[] } | null>(null);
  const key = useRef<string | null>(null);
  /** The form's values as typed so far (for the details-change choice), and the person's choice (null: the default). */
  const [live, setLive] = useState<EventFormValues>(pickForm(initial));
  const [notifyChoice, setNotifyChoice] = useState<boolean | null>(null);
  const detailChanges = mode === 'edit' ? detailChangesOf(base.values, live) : [];
  // Moving the start moves the end with it, keeping the event's length (domain/scheduling/keep-length.ts).
  const startWas = useRef<string>('');
  const endInput = useRef<HTMLInputElement>(null);
  function onStartChange(next: string, initial: string) {
    const end = endInput.current;
    const was = startWas.current || initial;
    const moved = end && was ? endKeepingLength(was, next, end.value) : null;
    if (end && moved) end.value = moved;
    startWas.current = next;
  }

  function values(form: HTMLFormElement): EventFormValues {
    const f = new FormData(form);
    const text = (k: string) => String(f.get(k) ?? '');
    return { title: text('title'), description: text('description'), location: text('location'), roomUrl: text('roomUrl'), timeZone: text('timeZone'), allDay, start: text('start'), end: text('end'), eventNote: text('eventNote') };
  }

  async function save(values: Record<string, unknown>) {
    // The details-change choice, only when the person made one and it is still about a change in the form.
    const notify = mode === 'edit' && notifyChoice !== null && detailChangesOf(base.values, values as unknown as EventFormValues).length > 0 ? { notify: notifyChoice } : {};
    const body = { ...requestBody(values as unknown as EventFormValues), ...notify };
    key.current ??= newIdempotencyKey();
    const r =
      mode === 'create'
        ? await apiCall<{ id: string; rescheduled?: boolean; scheduleVersion?: number; detailsNotified?: boolean }>('/api/events', 'POST', body, { idempotencyKey: key.current })
        : await apiCall<{ id: string; rescheduled?: boolean; scheduleVersion?: number; detailsNotified?: boolean }>(`/api/events/${eventId}`, 'PUT', { ...body, version: base.version });
    const saved = (mode === 'create' ? 'created' : r.rescheduled ? `rescheduled&v=${r.scheduleVersion}` : 'updated') + (r.detailsNotified ? '&told=1' : '');
    router.push(`/events/${r.id}?saved=${saved}`);
    router.refresh();
  }

  /** A refusal: a stale save opens the conflict panel (the form keeps its values); anything else is shown below. */
  function refused(err: unknown) {
    const stale = staleSave<LatestEvent>(err);
    if (stale) {
      const latest = stale.current;
      setConflict({ message: stale.message, latest, changes: describeChanges(base.values, pickForm(latest), CHANGE_FIELDS) });
      setError(null);
      setNotice(null);
      return;
    }
    setError(err instanceof ApiError ? { message: err.message, field: err.field } : { message: String(err) });
  }

  function adopt(next: EventFormValues, latest: LatestEvent, message: string | null) {
    setBase({ values: pickForm(latest), version: latest.version });
    setDefaults(next);
    setLive(next);
    setNotifyChoice(null);
    setAllDay(next.allDay);
    setFormKey((k) => k + 1);
    setConflict(null);
    setError(null);
    setNotice(message);
    router.refresh(); // the page head (title, schedule version) shows the latest too; the form keeps its state
  }

  function applyMine() {
    if (!conflict || !formRef.current) return;
    const latest = pickForm(conflict.latest);
    const r = mergeEdits(base.values, values(formRef.current), latest);
    const kept = r.overlapping.map((k) => CHANGE_FIELDS.find((f) => f.key === k)?.label ?? k);
    adopt(
      r.merged,
      conflict.latest,
      onTopNotice(kept, 'the form'),
    );
  }

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const body = values(e.currentTarget);
    const opened = base.values;
    const timingChanged = mode === 'edit' && ((['start', 'end', 'timeZone'] as const).some((k) => body[k] !== opened[k]) || allDay !== opened.allDay);
    const to = timingChanged ? timingOf({ ...body, allDay }) : null;
    if (timingChanged && to) {
      setConfirm({ body: body as unknown as Record<string, unknown>, from: timingOf(opened), to });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await save(body as unknown as Record<string, unknown>);
    } catch (err) {
      if (err instanceof ApiError && err.keyReused) key.current = newIdempotencyKey();
      refused(err);
      setBusy(false);
    }
  }

  const invalid = (field: string) => (error?.field === field ? true : undefined);
  return (
    <>
      {conflict ? (
        <ConflictPanel
          message={conflict.message}
          changes={conflict.changes}
          blocked={conflict.latest.status === 'cancelled' ? 'The event has been cancelled, so it can no longer be edited.' : null}
          onApply={applyMine}
          onDiscard={() => adopt(pickForm(conflict.latest), conflict.latest, 'The form now shows the latest version.')}
        />
      ) : null}
      <form
        key={formKey}
        ref={formRef}
        className="card form event-form"
        onSubmit={onSubmit}
        onChange={(e) => {
          if (mode === 'edit' && (e.target as HTMLElement).getAttribute('name') !== 'notify') setLive(values(e.currentTarget));
        }}
        noValidate
      >
        <div className="form-grid">
          <label className="field field-wide">
            <span>Title</span>
            <input name="title" defaultValue={defaults.title} required maxLength={200} aria-invalid={invalid('title')} />
          </label>
          <label className="field">
            <span>Time zone</span>
            <ZoneInput
              name="timeZone"
              zones={zones}
              defaultValue={defaults.timeZone}
              required
              invalid={invalid('timeZone')}
              hint="IANA name, e.g. Europe/Amsterdam, or a city. Times below are in this zone."
            />
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
              defaultValue={allDay ? defaults.start.slice(0, 10) : defaults.start.length === 10 ? `${defaults.start}T09:00` : defaults.start}
              required
              aria-invalid={invalid('start')}
              onChange={(e) => onStartChange(e.currentTarget.value, e.currentTarget.defaultValue)}
            />
          </label>
          <label className="field">
            <span>{allDay ? 'Last day' : 'Ends (local time)'}</span>
            <input
              key={`end-${allDay}`}
              ref={endInput}
              name="end"
              type={allDay ? 'date' : 'datetime-local'}
              defaultValue={allDay ? defaults.end.slice(0, 10) : defaults.end.length === 10 ? `${defaults.end}T10:00` : defaults.end}
              required
              aria-invalid={invalid('end')}
            />
          </label>
          <label className="field">
            <span>Location (optional)</span>
            <input name="location" defaultValue={defaults.location} maxLength={2000} />
          </label>
          <label className="field">
            <span>Online room URL (optional)</span>
            <input name="roomUrl" type="url" defaultValue={defaults.roomUrl} placeholder="https://…" aria-invalid={invalid('roomUrl')} />
          </label>
          <label className="field field-wide">
            <span>Description (optional)</span>
            <textarea name="description" rows={3} defaultValue={defaults.description} maxLength={2000} />
          </label>
          <EventNoteField defaultValue={defaults.eventNote} languages={noteLanguages} invalid={invalid('eventNote')} />
          <NotifyDetailsChoice changes={detailChanges} booked={bookedPeople} choice={notifyChoice} onChoice={setNotifyChoice} />
        </div>
        <FormFeedback error={error} notice={notice} labels={LABELS} />
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
            await save(confirm!.body);
          } catch (err) {
            // A stale save closes the dialog and opens the conflict panel; other refusals stay in the dialog.
            if (staleSave(err)) return refused(err);
            if (err instanceof ApiError) setError({ message: err.message, field: err.field });
            throw err;
          }
        }}
      >
        {confirm?.to ? (
          <dl className="reschedule-change" data-testid="reschedule-change">
            {confirm.from ? (
              <div data-when="old">
                <dt>Was</dt>
                <dd>
                  <TimingRange timing={confirm.from} showZone={confirm.from.timeZone !== confirm.to.timeZone} />
                </dd>
              </div>
            ) : null}
            <div data-when="new">
              <dt>Now</dt>
              <dd>
                <TimingRange timing={confirm.to} showZone={!!confirm.from && confirm.from.timeZone !== confirm.to.timeZone} />
              </dd>
            </div>
          </dl>
        ) : null}
        <p className="dialog-consequence">
          {pendingReminders === 0
            ? 'No planned reminders are waiting; reminders for the new time are planned for every participant.'
            : `${pendingReminders} reminder${pendingReminders === 1 ? '' : 's'} will be re-planned for the new time.`}{' '}
          The schedule version goes up by one; reminders of the old version are marked superseded, and messages already sent stay as
          they are. Participants are told of the new time (and their calendar entry updated) as the notification policy says.
        </p>
      </ConfirmDialog>
    </>
  );
}
