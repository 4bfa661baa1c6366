'use client';

import { useId, useState } from 'react';
import type { AnnouncementView } from '@/server/messages/announcements';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { FormFeedback } from '@/components/ui/FormFeedback';
import { AnnouncementPreviewPanel } from './AnnouncementPreviewPanel';
import { countLines, whenSentence } from './announcement-words';
import { useAnnouncementForm } from './useAnnouncementForm';

const roleLabels: Record<string, string> = { attendee: 'Attendees', external: 'Guests from partner organisations', host: 'Hosts' };
const statusLabels: Record<string, string> = { confirmed: 'Booked (confirmed)', cancelled: 'Cancelled bookings' };
const channelLabels: Record<string, string> = { email: 'Email', sms: 'SMS' };

/** Labels of the server's field names, for error lines ("Subject: write a subject"). */
function fieldLabels(language: string): Record<string, string> {
  return {
    'audience.roles': 'Who',
    'audience.statuses': 'Booking status',
    'audience.channels': 'Channels',
    [`texts.${language}.subject`]: 'Subject',
    [`texts.${language}.body`]: 'Text',
    [`texts.${language}.sms`]: 'SMS text',
    texts: 'Language',
    sendAt: 'Send at',
  };
}

/**
 * "Message participants": who (roles, booking status, channels) with a live count per channel, the words (subject,
 * Markdown text, optional SMS text) in one language, a preview of what one real recipient gets, and send now or at a
 * time in the organisation's zone — after a confirmation that says how many people get it by which channel.
 */
export function AnnouncementComposer({ eventId, languages, defaultLanguage, zone, onSent }: { eventId: string; languages: { tag: string; name: string }[]; defaultLanguage: string; zone: string; onSent: (a: AnnouncementView) => void }) {
  const id = useId();
  const f = useAnnouncementForm(eventId, defaultLanguage, onSent);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<{ message: string; field?: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const v = f.fields;
  const labels = fieldLabels(v.language);
  // Nothing written yet is not a problem to shout about: the preview just asks for the words.
  const problem = f.previewError ?? (f.nothingWritten ? null : (f.preview?.textProblem ?? null));
  const written = Object.keys(v.texts);
  const nameOf = (tag: string) => languages.find((l) => l.tag === tag)?.name ?? tag;
  const invalid = (field: string) => (error?.field === field ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {});

  const checks = (name: 'roles' | 'statuses' | 'channels', legend: string, options: Record<string, string>) => (
    <fieldset className="announce-checks" {...invalid(`audience.${name}`)}>
      <legend>{legend}</legend>
      {Object.entries(options).map(([value, label]) => (
        <label key={value} className="prefs-check">
          <input type="checkbox" name={name} value={value} checked={v[name].includes(value)} onChange={(e) => f.toggle(name, value, e.target.checked)} /> {label}
        </label>
      ))}
    </fieldset>
  );

  return (
    <div className="announce-layout">
      <form
        className="form card announce-form"
        aria-labelledby={`${id}-title`}
        noValidate
        onSubmit={async (e) => {
          e.preventDefault();
          setNotice(null);
          if (v.when === 'later' && !v.sendAt) return setError({ message: 'Send at: choose a date and time, or send now.', field: 'sendAt' });
          // Checked on the words as they are now (the live preview waits for a pause in typing).
          const now = await f.checkNow();
          if (now) return setError(now);
          setError(null);
          setConfirming(true);
        }}
      >
        <h2 id={`${id}-title`}>Write to the people of this event</h2>
        <div className="announce-audience">
          {checks('roles', 'Who', roleLabels)}
          {checks('statuses', 'Booking status', statusLabels)}
          {checks('channels', 'Channels', channelLabels)}
        </div>
        <div role="status" data-testid="announce-count">
          {f.preview ? <CountList count={f.preview.count} /> : <p className="muted">Counting recipients…</p>}
        </div>
        <fieldset className="announce-when" aria-describedby={`${id}-lang-hint`} {...invalid('texts')}>
          <legend>Languages</legend>
          <div className="announce-langs">
            {written.map((tag) => (
              <span key={tag} className="announce-lang">
                <button type="button" className="btn btn-small" aria-pressed={tag === v.language} onClick={() => f.set('language', tag)}>
                  {nameOf(tag)}
                </button>
                {written.length > 1 ? (
                  <button type="button" className="btn btn-small" aria-label={`Remove the ${nameOf(tag)} text`} onClick={() => f.removeLanguage(tag)}>
                    ×
                  </button>
                ) : null}
              </span>
            ))}
          </div>
          <label className="field">
            <span>Add a language</span>
            <select value="" onChange={(e) => e.target.value && f.addLanguage(e.target.value)}>
              <option value="">Choose…</option>
              {languages
                .filter((l) => !written.includes(l.tag))
                .map((l) => (
                  <option key={l.tag} value={l.tag}>
                    {l.name}
                  </option>
                ))}
            </select>
          </label>
          <p className="muted small" id={`${id}-lang-hint`}>
            One text goes to everyone, with the greeting, dates and footer in its language. With several, each person gets the one in their language, else the
            organisation's, else English, else the first.
          </p>
        </fieldset>
        <label className="field">
          <span>Subject</span>
          <input name="subject" lang={v.language} value={f.text.subject} maxLength={200} onChange={(e) => f.setText('subject', e.target.value)} {...invalid(`texts.${v.language}.subject`)} />
        </label>
        <label className="field">
          <span>Text</span>
          <textarea name="body" lang={v.language} rows={8} value={f.text.body} aria-describedby={`${id}-body-hint`} onChange={(e) => f.setText('body', e.target.value)} {...invalid(`texts.${v.language}.body`)} />
        </label>
        <p className="muted small announce-hint" id={`${id}-body-hint`}>
          **bold**, *italic*, [link text](https://…) and lines starting with “- ”. Variables: {'{eventTitle}'}, {'{when}'}, {'{tenantName}'}.
        </p>
        <label className="field">
          <span>SMS text (optional)</span>
          <textarea name="sms" lang={v.language} rows={2} value={f.text.sms} aria-describedby={`${id}-sms-hint`} onChange={(e) => f.setText('sms', e.target.value)} {...invalid(`texts.${v.language}.sms`)} />
        </label>
        <p className="muted small announce-hint" id={`${id}-sms-hint`}>
          Without it, people who take messages by SMS get the subject.
        </p>
        <fieldset className="announce-when">
          <legend>When</legend>
          <label className="prefs-check">
            <input type="radio" name="when" checked={v.when === 'now'} onChange={() => f.set('when', 'now')} /> Send now
          </label>
          <label className="prefs-check">
            <input type="radio" name="when" checked={v.when === 'later'} onChange={() => f.set('when', 'later')} /> Send at…
          </label>
          {v.when === 'later' ? (
            <label className="field">
              <span>Date and time ({zone})</span>
              <input type="datetime-local" value={v.sendAt} onChange={(e) => f.set('sendAt', e.target.value)} {...invalid('sendAt')} />
            </label>
          ) : null}
        </fieldset>
        <FormFeedback error={error} notice={notice} labels={labels} errorId={`${id}-error`} />
        <button type="submit" className="btn btn-primary">
          {v.when === 'now' ? 'Send now…' : 'Schedule…'}
        </button>
      </form>
      <AnnouncementPreviewPanel preview={f.preview} problem={problem} labels={labels} previewFor={f.previewFor} onPreviewFor={f.setPreviewFor} />
      <ConfirmDialog
        open={confirming}
        title={v.when === 'now' ? 'Send this announcement now?' : 'Schedule this announcement?'}
        confirmLabel={v.when === 'now' ? 'Send now' : 'Schedule'}
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          const a = await f.send();
          setNotice(a.status === 'scheduled' && v.when === 'later' ? `Scheduled: it goes out ${whenSentence(a.sendAt, zone)}. You can cancel it until then.` : 'Sent: the messages are on their way. Follow them in the list below.');
        }}
      >
        <div data-testid="announce-confirm">{f.preview ? <CountList count={f.preview.count} /> : <p className="muted">Counting recipients…</p>}</div>
        {v.when === 'later' && v.sendAt ? <p>It goes out at {v.sendAt.replace('T', ' ')} ({zone}).</p> : null}
      </ConfirmDialog>
    </div>
  );
}

/** The audience count, one "label: number" line each (domain words in announcement-words.ts). */
function CountList({ count }: { count: Parameters<typeof countLines>[0] }) {
  return (
    <dl className="announce-count">
      {countLines(count).map((l) => (
        <div key={l.testId} data-testid={l.testId}>
          <dt>{l.label}</dt>
          <dd>{l.value}</dd>
        </div>
      ))}
    </dl>
  );
}
