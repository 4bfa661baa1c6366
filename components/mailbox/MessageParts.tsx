/** The pieces the mailbox's message views (MessageView, SmsView, WebhookView) share or show; server-rendered, no state. */
import type { CaughtMessageView } from '@/dev/queries/mailbox';
import type { IcsKeyProperty } from '@/domain/calendar/ics-key-lines';
import type { CaughtMailParts } from '@/dev/caught-mail';
import { formatBytes } from '@/components/ui/format';

/** Says that links acting for the recipient are hidden from this viewer (dev/caught-mail.ts). */
export function MaskedNotice({ message }: { message: CaughtMessageView }) {
  if (!message.credentialsHidden) return null;
  return (
    <p className="notice masked-notice" data-testid="masked-notice">
      Links that act for the recipient (sign-in, password, preferences, unsubscribe) are hidden as{' '}
      <span aria-hidden="true">•••</span> dots: only {message.envelopeTo.join(', ') || 'the recipient'}, signed in to Punctual, sees them.
    </p>
  );
}

/** How the calendar box names each key line (the line itself is shown verbatim beside it). */
const icsLabels: Record<IcsKeyProperty, string> = {
  METHOD: 'Method',
  UID: 'UID',
  SEQUENCE: 'Sequence',
  DTSTART: 'Starts',
  DTEND: 'Ends',
  STATUS: 'Status',
  SUMMARY: 'Summary',
  LOCATION: 'Location',
  URL: 'Online room',
};

/** The calendar invitation's key lines (METHOD, UID, SEQUENCE, DTSTART with its TZID, …), verbatim, labelled. */
export function CalendarBox({ messageId, calendar }: { messageId: string; calendar: NonNullable<CaughtMailParts['calendar']> }) {
  return (
    <section className="message-part message-calendar" aria-labelledby="calendar-title">
      <h2 id="calendar-title">Calendar invitation</h2>
      <div className="ics-box">
        <p className="ics-source muted small">
          Key lines of{' '}
          <a href={`/api/mailbox/${messageId}/attachments/${calendar.index}`}>{calendar.filename ?? `the calendar part (part ${calendar.index + 1})`}</a>
        </p>
        <dl className="ics-lines">
          {calendar.lines.map((l) => (
            <div key={l.name} data-ics={l.name}>
              <dt>{icsLabels[l.name]}</dt>
              <dd>
                <code>{l.line}</code>
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}

/** The email's attachments: name (a download link), MIME type and size; what went wrong when unreadable. */
export function AttachmentList({ messageId, parts }: { messageId: string; parts: CaughtMailParts | 'unreadable' | null }) {
  const list = parts && parts !== 'unreadable' ? parts.attachments : [];
  return (
    <section className="message-part message-attachments" aria-labelledby="attachments-title">
      <h2 id="attachments-title">
        Attachments <span className="count">{list.length}</span>
      </h2>
      {parts === 'unreadable' ? (
        <p className="muted">The raw source could not be read as an email, so its attachments cannot be listed.</p>
      ) : list.length === 0 ? (
        <p className="muted">This message has no attachments.</p>
      ) : (
        <ul className="attachment-list">
          {list.map((a) => (
            <li key={a.index} data-attachment={a.filename ?? ''}>
              <a href={`/api/mailbox/${messageId}/attachments/${a.index}`} download={a.downloadName} className="attachment-name">
                {a.filename ?? a.downloadName}
              </a>
              <span className="attachment-meta muted small">
                {a.filename ? null : 'no file name · '}
                <code>{a.contentType}</code> · {formatBytes(a.size)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Preformatted text in a box that scrolls when tall: focusable and named (a keyboard user can scroll it;
 * WCAG 2.1.1, axe `scrollable-region-focusable`).
 */
export function ScrollingPre({ className, label, children }: { className: string; label: string; children: string }) {
  return (
    <pre className={className} tabIndex={0} role="region" aria-label={label}>
      {children}
    </pre>
  );
}

/** Name/value pairs in a collapsible table (open when there are few), titled `title`. */
export function HeadersTable({ headers, title = 'Headers' }: { headers: [string, string][]; title?: string }) {
  return (
    <details className="message-headers" open={headers.length <= 12}>
      <summary>
        {title} ({headers.length})
      </summary>
      {headers.length === 0 ? (
        <p className="muted">Nothing stored.</p>
      ) : (
        <table className="data-table headers-table">
          <tbody>
            {headers.map(([k, v], i) => (
              <tr key={`${k}-${i}`}>
                <th scope="row">{k}</th>
                <td>
                  <code>{v}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
