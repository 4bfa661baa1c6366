'use client';

import type { AnnouncementPreview } from '@/server/messages/announcement-preview';
import { FormFeedback } from '@/components/ui/FormFeedback';

/**
 * What one real recipient gets: choose whom (the audience's people), then the email as it renders (in a sandboxed
 * frame: no script, no links followed) with its subject, and the SMS text. Until the words check out, the first
 * problem with them, naming the field.
 */
export function AnnouncementPreviewPanel({
  preview,
  problem,
  labels,
  previewFor,
  onPreviewFor,
}: {
  preview: AnnouncementPreview | null;
  problem: { message: string; field?: string } | null;
  labels: Record<string, string>;
  previewFor: string | null;
  onPreviewFor: (bookingId: string | null) => void;
}) {
  const people = preview?.recipients ?? [];
  const shown = preview?.preview ?? null;
  return (
    <section className="card announce-preview" aria-labelledby="announce-preview-title">
      <h2 id="announce-preview-title">Preview</h2>
      {people.length > 0 ? (
        <label className="field">
          <span>As received by</span>
          <select value={previewFor ?? shown?.bookingId ?? ''} onChange={(e) => onPreviewFor(e.target.value || null)}>
            {people.map((p) => (
              <option key={p.bookingId} value={p.bookingId}>
                {p.optedOut ? `${p.name || 'No name'} (opted out: will not get it)` : `${p.name || 'No name'} (${p.channels.map((c) => (c === 'sms' ? 'SMS' : 'email')).join(', ')})`}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <p className="muted">Nobody in this audience yet: choose who above.</p>
      )}
      {problem ? <FormFeedback error={problem} labels={labels} unlabelled="plain" /> : null}
      {shown ? (
        <>
          <p className="announce-subject">
            <span className="muted">Subject:</span> <strong className="wrap-anywhere" data-testid="preview-subject">{shown.subject}</strong>
          </p>
          <iframe className="announce-frame" title={`Email to ${shown.name || 'this participant'}`} sandbox="" srcDoc={shown.html} />
          <h3>SMS</h3>
          <p className="announce-sms wrap-anywhere" data-testid="preview-sms">
            {shown.sms}
          </p>
        </>
      ) : !problem && people.length > 0 ? (
        <p className="muted">Write a subject and a text to see the message.</p>
      ) : null}
    </section>
  );
}
