'use client';

import { useId, useState } from 'react';
import type { StaffDraft, StaffTextError } from '@/domain/messages/staff-text';
import { SmsSegmentCount } from './SmsSegmentCount';
import { SendTestToMe } from './SendTestToMe';
import { useTextPreview } from './useTextPreview';

/** One booking the participant chooser offers (server/messages/text-preview.ts previewChoices). */
export interface ParticipantChoice {
  bookingId: string;
  /** "Jonas Berger — Glaze Night, Thu 11 Mar 2031" */
  label: string;
}

/**
 * The live preview of the draft in the fields (./useTextPreview.ts): whose data fills it (a chooser of a few real
 * participants of the organisation, or the sample), the subject, the email at desktop (600 px) and phone (375 px)
 * widths in sandboxed frames, its text part, and the SMS with its segment count. Admins can send it to themselves.
 */
export function TextPreview({
  url,
  draft,
  choices,
  onErrors,
  canSendTest,
}: {
  url: string;
  draft: StaffDraft;
  choices: ParticipantChoice[];
  onErrors: (errors: StaffTextError[]) => void;
  canSendTest: boolean;
}) {
  const id = useId();
  const [bookingId, setBookingId] = useState(choices[0]?.bookingId ?? '');
  const { preview, stale, failure, loading } = useTextPreview(url, draft, bookingId, onErrors);
  return (
    <section className="card text-preview" aria-labelledby={`${id}-title`} aria-busy={loading} data-stale={stale || undefined}>
      <h2 id={`${id}-title`} className="section-title">
        Preview
      </h2>
      <div className="field">
        <label htmlFor={`${id}-who`}>Preview for</label>
        <select id={`${id}-who`} value={bookingId} onChange={(e) => setBookingId(e.target.value)}>
          {choices.map((c) => (
            <option key={c.bookingId} value={c.bookingId}>
              {c.label}
            </option>
          ))}
          <option value="">Sample participant and event</option>
        </select>
      </div>
      <p className="small muted" role="status" data-testid="preview-status">
        {failure
          ? `The preview cannot be shown: ${failure}`
          : stale
            ? preview
              ? 'The text has errors (see the fields): this is the last preview that worked.'
              : 'The text has errors (see the fields): the preview shows once they are fixed.'
            : loading
              ? 'Updating the preview…'
              : preview
                ? preview.participant
                  ? `As ${preview.participant.contactName} would get it for ${preview.participant.eventTitle}.`
                  : 'With sample data.'
                : ''}
      </p>
      {preview ? (
        <>
          <p className="text-preview-subject">
            <span className="muted small">Subject</span> <strong data-testid="preview-subject">{preview.subject}</strong>
          </p>
          <div className="template-frames text-preview-frames">
            <iframe title="Email preview, desktop (600 px)" srcDoc={preview.html} sandbox="" style={{ width: 600, height: 640 }} />
            <iframe title="Email preview, phone (375 px)" srcDoc={preview.html} sandbox="" style={{ width: 375, height: 640 }} />
          </div>
          <details>
            <summary>Plain text</summary>
            <pre className="plain-text">{preview.text}</pre>
          </details>
          <div className="template-sms">
            <h3>SMS</h3>
            <pre className="plain-text sms-text" data-testid="preview-sms">
              {preview.sms}
            </pre>
            <SmsSegmentCount text={preview.sms} />
          </div>
        </>
      ) : null}
      {canSendTest ? <SendTestToMe url={url} draft={draft} bookingId={bookingId} /> : null}
    </section>
  );
}
