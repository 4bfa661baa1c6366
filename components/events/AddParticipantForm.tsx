'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { messageLocales } from '@/domain/locales';
import { ApiError, apiCall, newIdempotencyKey } from '@/components/ui/api';
import { FormFeedback } from '@/components/ui/FormFeedback';
import { ZoneInput } from '@/components/ui/ZoneInput';

const FIELD_LABEL: Record<string, string> = { locale: 'Language', 'contact.locale': 'Language', name: 'Name', email: 'Email', 'contact.email': 'Email', role: 'Role', timeZone: 'Time zone', 'contact.timeZone': 'Time zone', phone: 'Mobile number', 'contact.phone': 'Mobile number', guestTenant: 'Guest organisation' };

/**
 * Books a participant onto the event (their reminders are planned at once). External guests need their own
 * organisation (another tenant), whose identity and suppression list remind them. Each booking is sent with
 * an idempotency key made when the form opens and renewed after each success: a double click books once.
 */
export function AddParticipantForm({ eventId, guestTenants, zones }: { eventId: string; guestTenants: { slug: string; name: string }[]; zones: string[] }) {
  const [role, setRole] = useState('attendee');
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Remounts the zone field after a booking (a controlled input is not cleared by form.reset()).
  const [formKey, setFormKey] = useState(0);
  const queryClient = useQueryClient();
  const key = useRef<string | null>(null);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formEl = e.currentTarget;
    const f = new FormData(formEl);
    setBusy(true);
    setError(null);
    setNotice(null);
    key.current ??= newIdempotencyKey();
    try {
      const booked = await apiCall<{ id: string; sendsAs?: string; kept?: string }>(`/api/events/${eventId}/bookings`, 'POST', {
        name: f.get('name'),
        email: f.get('email'),
        role: f.get('role'),
        timeZone: f.get('timeZone') || null,
        locale: f.get('locale') || null,
        phone: f.get('phone') || null,
        guestTenant: f.get('role') === 'external' ? f.get('guestTenant') : null,
      }, { idempotencyKey: key.current });
      key.current = newIdempotencyKey();
      // An external guest's messages go out in their organisation's name only where its partnership allows (issue #12).
      // A person already in the contacts keeps their details: the answer says which typed ones were not applied.
      setNotice(
        `${f.get('name')} is booked; their reminders are planned${booked.sendsAs ? ` and go out ${booked.sendsAs}` : ''}.` +
          (booked.kept ? ` Already in your contacts with other details — ${booked.kept}.` : ''),
      );
      formEl.reset();
      setFormKey((k) => k + 1);
      setRole('attendee');
      await queryClient.invalidateQueries({ queryKey: ['event-timeline', eventId] });
    } catch (err) {
      if (err instanceof ApiError && err.keyReused) key.current = newIdempotencyKey();
      setError(err instanceof ApiError ? { message: err.message, field: err.field } : { message: String(err) });
    } finally {
      setBusy(false);
    }
  }
  const invalid = (field: string) => (error?.field === field || error?.field === `contact.${field}` ? true : undefined);
  return (
    <form className="card form add-participant" onSubmit={onSubmit} aria-labelledby="add-participant-title">
      <h2 id="add-participant-title">Add a participant</h2>
      <div className="form-grid">
        <label className="field">
          <span>Name</span>
          <input name="name" required maxLength={200} aria-invalid={invalid('name')} />
        </label>
        <label className="field">
          <span>Email</span>
          <input name="email" type="email" required aria-invalid={invalid('email')} />
        </label>
        <label className="field">
          <span>Mobile number (optional, for SMS)</span>
          <input name="phone" type="tel" inputMode="tel" autoComplete="off" placeholder="+31 6 12345678" aria-invalid={invalid('phone')} aria-describedby="phone-hint" />
          <span id="phone-hint" className="field-hint">
            In international form. SMS go out only if they choose SMS in their preferences.
          </span>
        </label>
        <label className="field">
          <span>Role</span>
          <select name="role" value={role} onChange={(e) => setRole(e.target.value)}>
            <option value="attendee">Attendee</option>
            <option value="external">External guest</option>
            <option value="host">Host</option>
          </select>
        </label>
        <label className="field">
          <span>Their time zone (optional)</span>
          <ZoneInput key={formKey} name="timeZone" zones={zones} placeholder="e.g. America/New_York or a city" invalid={invalid('timeZone')} />
        </label>
        <label className="field">
          <span>Language of their messages</span>
          <select name="locale" defaultValue="" aria-invalid={invalid('locale')} aria-describedby="locale-hint">
            <option value="">As before (new: English, US)</option>
            {messageLocales.map((l) => (
              <option key={l.tag} value={l.tag} lang={l.tag}>
                {l.label}
              </option>
            ))}
          </select>
          <span id="locale-hint" className="field-hint">
            Dates and times in their messages follow this language.
          </span>
        </label>
        {role === 'external' ? (
          <label className="field">
            <span>Guest organisation</span>
            <select name="guestTenant" required aria-invalid={invalid('guestTenant')}>
              {guestTenants.map((t) => (
                <option key={t.slug} value={t.slug}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      <FormFeedback error={error} notice={notice} labels={FIELD_LABEL} />
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Booking…' : 'Add participant'}
        </button>
      </div>
    </form>
  );
}
