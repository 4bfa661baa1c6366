'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { BookingView } from '@/db/queries/scheduling/event-views';
import { defaultNudgeTemplate, nudgeTemplateAvailability } from '@/domain/sending/nudge-templates';
import type { TemplateId } from '@/domain/vocabulary';
import { templateTitles } from '@/components/rules/template-labels';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { ApiError, apiCall, newIdempotencyKey } from '@/components/ui/api';
import { FormFeedback } from '@/components/ui/FormFeedback';

/** Template a nudge to this role uses unless staff pick another (domain/sending/nudge-templates.ts, shared with bulk nudges). */
export { defaultNudgeTemplate };

type Preview = { subject: string; html: string; text: string; to: string; from: string; suppressed: { reason: string; source: string; since: string | null } | null;
  optedOut: { reason: string; unsubscribedAt: string | null; zone: string } | null;
};

/**
 * "Remind participant": a modal with channel, template choice and a live preview of the exact message,
 * rendered by the server from the current event data. An idempotency key is made when the dialog opens, so
 * a double click or a retried request sends once; the server also refuses a second nudge within a minute.
 * Only templates that can render for this participant and event are offered (domain/sending/nudge-templates.ts: no
 * room-opening without an online room, host-reminder for hosts only); the ones left out are named with why.
 * `onSent` gets the API's answer once the nudge is queued (the page's notice follows it: components/events/useNudgeNotice.ts).
 * After sending it refreshes every query under ['event-timeline', eventId] (the event page's timeline; the today
 * view keeps its participant list under that key too).
 */
export function NudgeDialog({
  booking,
  eventId,
  hasRoom,
  onClose,
  onSent,
}: {
  /** The participant: their booking id, role and contact (the event page's booking, or the today view's participant). */
  booking: Pick<BookingView, 'id' | 'role' | 'contact'>;
  eventId: string;
  hasRoom: boolean;
  onClose: () => void;
  onSent?: (sent: { reminderId: string }) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [key] = useState(newIdempotencyKey);
  const [template, setTemplate] = useState<TemplateId>(defaultNudgeTemplate(booking.role));
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const queryClient = useQueryClient();
  const id = useId();
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  useEffect(() => {
    let stale = false;
    setPreview(null);
    setPreviewError(null);
    apiCall<Preview>(`/api/bookings/${booking.id}/preview?template=${template}`, 'GET')
      .then((p) => !stale && setPreview(p))
      .catch((e: Error) => !stale && setPreviewError(e.message));
    return () => {
      stale = true;
    };
  }, [booking.id, template]);
  const name = booking.contact?.name || booking.contact?.email || 'this participant';
  const availability = nudgeTemplateAvailability({ role: booking.role, hasRoom });
  const offered = availability.filter((a) => a.ok).map((a) => a.template);
  const notOffered = availability.filter((a) => !a.ok);
  return (
    <dialog ref={ref} className="dialog dialog-wide" aria-labelledby={`${id}-t`} onClose={onClose}>
      <form
        className="form"
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            const sent = await apiCall<{ reminderId: string }>(`/api/bookings/${booking.id}/nudge`, 'POST', { template, idempotencyKey: key });
            setDone(true);
            onSent?.(sent);
            // The nudge is queued: the dialog closes now, and the timeline refreshes behind it (waiting for that
            // refetch kept the dialog open for seconds on a busy server, though nothing was left to decide).
            ref.current?.close();
            void queryClient.invalidateQueries({ queryKey: ['event-timeline', eventId] });
          } catch (err) {
            setError(err instanceof ApiError ? err.message : String(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <h2 id={`${id}-t`}>Remind {name} now</h2>
        {preview?.suppressed || preview?.optedOut ? null : (
          <p className="dialog-consequence">
            One email goes to <strong>{booking.contact?.email}</strong> right away. It does not replace or mark sent any planned reminder, and
            appears in this participant&apos;s timeline. At most one manual reminder per participant per minute.
          </p>
        )}
        <div className="form-grid">
          <label className="field">
            <span>Channel</span>
            <select name="channel" defaultValue="email" disabled>
              <option value="email">Email</option>
            </select>
          </label>
          <label className="field">
            <span>Template</span>
            <select name="template" value={template} onChange={(e) => setTemplate(e.target.value as TemplateId)} aria-describedby={notOffered.length ? `${id}-not-offered` : undefined}>
              {offered.map((t) => (
                <option key={t} value={t}>
                  {templateTitles[t]}
                </option>
              ))}
            </select>
            {notOffered.length ? (
              <span id={`${id}-not-offered`} className="field-hint" data-testid="templates-not-offered">
                Not offered here: {notOffered.map((a) => `${templateTitles[a.template]} — ${a.reason}`).join('; ')}.
              </span>
            ) : null}
          </label>
        </div>
        <div aria-live="polite">
          {previewError ? (
            <p className="form-error">Preview unavailable: {previewError}</p>
          ) : preview ? (
            <>
              {preview.suppressed ? (
                <p className="notice notice-warn" role="alert">
                  {preview.to} is on the suppression list ({preview.suppressed.reason}; {preview.suppressed.source}), so nothing would be sent.
                  Remove it on the Suppressions page first if the person asked to get mail again.
                </p>
              ) : null}
              {preview.optedOut ? (
                <p className="notice notice-warn" role="alert" data-opted-out={preview.optedOut.unsubscribedAt ? 'link' : 'preferences'}>
                  {preview.optedOut.unsubscribedAt ? (
                    <>
                      {name} unsubscribed from reminders on <ZonedTime instant={preview.optedOut.unsubscribedAt} zone={preview.optedOut.zone} /> with the
                      link in a message, so nothing would be sent.
                    </>
                  ) : (
                    <>{name} opted out of reminders by email in their preferences, so nothing would be sent.</>
                  )}{' '}
                  Only the person can subscribe again, or staff with their consent in the contact&apos;s preferences.
                </p>
              ) : null}
              <p className="small">
                <strong>Subject:</strong> {preview.subject} <span className="muted">· from {preview.from}</span>
              </p>
              <iframe className="dialog-preview" title={`Preview of the ${templateTitles[template]} email`} sandbox="" srcDoc={preview.html} />
            </>
          ) : (
            <p className="muted small">Rendering preview…</p>
          )}
        </div>
        <FormFeedback error={error ? { message: error } : null} />
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={() => ref.current?.close()} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || done || !!previewError || !!preview?.suppressed || !!preview?.optedOut}>
            {busy ? 'Sending…' : 'Send reminder now'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
