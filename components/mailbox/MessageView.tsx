import type { CaughtMessageView } from '@/dev/queries/mailbox';
import type { IcsKeyProperty } from '@/domain/calendar/ics-key-lines';
import { countSmsSegments } from '@/domain/sending/sms-segments';
import type { CaughtMailParts } from '@/dev/caught-mail';
import { formatBytes } from '@/components/ui/format';
import { VerifiedBadge } from './MailboxTable';
import { ZonedTime } from '@/components/ui/ZonedTime';

function headerValue(value: unknown): string {
  if (value == null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(headerValue).join(', ');
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    // mailparser's address objects carry a ready-made `text`; structured headers carry `value` + `params`.
    if (typeof v.text === 'string') return v.text;
    if (typeof v.value === 'string') {
      const params = v.params && typeof v.params === 'object' ? Object.entries(v.params as object) : [];
      return [v.value, ...params.map(([k, p]) => `${k}=${String(p)}`)].join('; ');
    }
    return JSON.stringify(value);
  }
  return String(value);
}

/**
 * Header name/value pairs from whatever shape the catcher stored: a list of `{ key, line }` header lines,
 * a list of `[name, value]` pairs, or an object of name → value (strings, address objects, arrays).
 */
function headerEntries(headers: unknown): [string, string][] {
  if (Array.isArray(headers)) {
    return headers.flatMap((h): [string, string][] => {
      if (Array.isArray(h) && h.length >= 2) return [[String(h[0]), headerValue(h[1])]];
      if (h && typeof h === 'object' && 'key' in h) {
        const { key, line, value } = h as { key: unknown; line?: unknown; value?: unknown };
        const text = typeof line === 'string' ? line.replace(/^[^:]*:\s*/, '') : headerValue(value);
        return [[String(key), text]];
      }
      return [];
    });
  }
  if (headers && typeof headers === 'object') {
    return Object.entries(headers as Record<string, unknown>).map(([k, v]) => [k, headerValue(v)]);
  }
  return [];
}

/** Says that links acting for the recipient are hidden from this viewer (dev/caught-mail.ts). */
function MaskedNotice({ message }: { message: CaughtMessageView }) {
  if (!message.credentialsHidden) return null;
  return (
    <p className="notice masked-notice" data-testid="masked-notice">
      Links that act for the recipient (sign-in, password, preferences, unsubscribe) are hidden as{' '}
      <span aria-hidden="true">•••</span> dots: only {message.envelopeTo.join(', ') || 'the recipient'}, signed in to Punctual, sees them.
    </p>
  );
}

/**
 * One caught message: envelope and Message-ID, a link to the raw source, the calendar invitation's key lines
 * and the attachments (each a download), the HTML part in a fully sandboxed iframe (no scripts, no same-origin
 * access), the text part verbatim and all headers. `zone` is the zone received time is shown in; `parts` are
 * an email's attachments and calendar read from its raw source (dev/caught-mail.ts), `'unreadable'` when
 * that source could not be parsed, null for other channels.
 */
export function MessageView({ message, zone, parts = null }: { message: CaughtMessageView; zone: string; parts?: CaughtMailParts | 'unreadable' | null }) {
  if (message.channel === 'sms') return <SmsView message={message} zone={zone} />;
  if (message.channel === 'webhook') return <WebhookView message={message} zone={zone} />;
  const headers = headerEntries(message.headers);
  return (
    <div className="message-view">
      <h1 className="message-subject">{message.subject || '(no subject)'}</h1>
      <MaskedNotice message={message} />
      <dl className="facts message-facts">
        <div>
          <dt>Received</dt>
          <dd>
            <ZonedTime instant={message.receivedAt} zone={zone} variant="full" />
          </dd>
        </div>
        <div>
          <dt>Envelope from</dt>
          <dd>{message.envelopeFrom || <span className="muted">(none)</span>}</dd>
        </div>
        <div>
          <dt>Envelope to</dt>
          <dd>{message.envelopeTo.join(', ') || <span className="muted">(none)</span>}</dd>
        </div>
        <div>
          <dt>Message-ID</dt>
          <dd>
            <code className="message-id">{message.messageId || '(none)'}</code>
          </dd>
        </div>
        <div>
          <dt>Source</dt>
          <dd>
            <a href={`/api/mailbox/${message.id}/raw`} className="message-raw-link" type="text/plain">
              View raw source
            </a>
          </dd>
        </div>
      </dl>

      {parts && parts !== 'unreadable' && parts.calendar ? <CalendarBox messageId={message.id} calendar={parts.calendar} /> : null}
      <AttachmentList messageId={message.id} parts={parts} />

      <section className="message-part">
        <h2>HTML part</h2>
        {message.html ? (
          <iframe
            className="message-html"
            title="HTML part"
            sandbox=""
            referrerPolicy="no-referrer"
            srcDoc={message.html}
          />
        ) : (
          <p className="muted">This message has no HTML part.</p>
        )}
      </section>

      <section className="message-part">
        <h2>Text part</h2>
        {message.text ? (
          <ScrollingPre className="message-text" label="Text part">
            {message.text}
          </ScrollingPre>
        ) : (
          <p className="muted">This message has no text part.</p>
        )}
      </section>

      <HeadersTable headers={headers} />
    </div>
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
};

/** The calendar invitation's key lines (METHOD, UID, SEQUENCE, DTSTART with its TZID, …), verbatim, labelled. */
function CalendarBox({ messageId, calendar }: { messageId: string; calendar: NonNullable<CaughtMailParts['calendar']> }) {
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
function AttachmentList({ messageId, parts }: { messageId: string; parts: CaughtMailParts | 'unreadable' | null }) {
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
function ScrollingPre({ className, label, children }: { className: string; label: string; children: string }) {
  return (
    <pre className={className} tabIndex={0} role="region" aria-label={label}>
      {children}
    </pre>
  );
}

/** Name/value pairs in a collapsible table (open when there are few), titled `title`. */
function HeadersTable({ headers, title = 'Headers' }: { headers: [string, string][]; title?: string }) {
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

/**
 * One SMS caught by the built-in SMS API: sender, recipient, sid, segment count and encoding
 * (domain/sending/sms-segments.ts), the text verbatim and the form fields as posted.
 */
function SmsView({ message, zone }: { message: CaughtMessageView; zone: string }) {
  const text = message.text ?? '';
  const c = countSmsSegments(text);
  return (
    <div className="message-view" data-channel="sms">
      <h1 className="message-subject">SMS to {message.envelopeTo.join(', ') || '(nobody)'}</h1>
      <MaskedNotice message={message} />
      <dl className="facts message-facts">
        <div>
          <dt>Received</dt>
          <dd>
            <ZonedTime instant={message.receivedAt} zone={zone} variant="full" />
          </dd>
        </div>
        <div>
          <dt>From</dt>
          <dd>{message.envelopeFrom || <span className="muted">(none)</span>}</dd>
        </div>
        <div>
          <dt>To</dt>
          <dd>{message.envelopeTo.join(', ') || <span className="muted">(none)</span>}</dd>
        </div>
        <div>
          <dt>Message SID</dt>
          <dd>
            <code className="message-id">{message.messageId || '(none)'}</code>
          </dd>
        </div>
        <div>
          <dt>Segments</dt>
          <dd data-segments>
            {c.segments} {c.segments === 1 ? 'segment' : 'segments'} · {c.encoding} · {text.length} characters, {c.units} {c.encoding === 'GSM-7' ? 'septets' : 'UTF-16 units'}
          </dd>
        </div>
      </dl>
      <section className="message-part">
        <h2>Text</h2>
        {text ? (
          <ScrollingPre className="message-text" label="SMS text">
            {text}
          </ScrollingPre>
        ) : (
          <p className="muted">This message has no text.</p>
        )}
      </section>
      <HeadersTable headers={headerEntries(message.headers)} title="Form fields" />
    </div>
  );
}

/**
 * One webhook delivery caught by the built-in receiver: payload type, webhook-id and timestamp, whether the
 * signature verified (and what the check said), the payload as pretty JSON in its own scrolling box, and the
 * request headers.
 */
function WebhookView({ message, zone }: { message: CaughtMessageView; zone: string }) {
  const stored = message.headers && typeof message.headers === 'object' && !Array.isArray(message.headers) ? (message.headers as Record<string, unknown>) : {};
  const verified = stored.verified === true;
  const verification = typeof stored.verification === 'string' ? stored.verification : null;
  const ts = Number.parseInt(typeof stored['webhook-timestamp'] === 'string' ? stored['webhook-timestamp'] : '', 10);
  const headers = headerEntries(Object.fromEntries(Object.entries(stored).filter(([k]) => k !== 'verified' && k !== 'verification')));
  return (
    <div className="message-view" data-channel="webhook">
      <h1 className="message-subject">{message.subject || '(no type)'}</h1>
      <MaskedNotice message={message} />
      <dl className="facts message-facts">
        <div>
          <dt>Received</dt>
          <dd>
            <ZonedTime instant={message.receivedAt} zone={zone} variant="full" />
          </dd>
        </div>
        <div>
          <dt>Endpoint</dt>
          <dd>
            <code>{message.envelopeTo.join(', ') || '(none)'}</code>
          </dd>
        </div>
        <div>
          <dt>webhook-id</dt>
          <dd>
            <code className="message-id">{message.messageId || '(none)'}</code>
          </dd>
        </div>
        <div>
          <dt>webhook-timestamp</dt>
          <dd>{Number.isFinite(ts) ? <ZonedTime instant={new Date(ts * 1000).toISOString()} zone={zone} variant="clock" /> : <span className="muted">(none)</span>}</dd>
        </div>
        <div>
          <dt>Verified</dt>
          <dd className="status-with-reason" data-verified={verified ? 'yes' : 'no'}>
            <VerifiedBadge verified={verified} />
            {verification ? <span className="status-reason">{verification}</span> : null}
          </dd>
        </div>
      </dl>
      <section className="message-part">
        <h2>Payload</h2>
        {message.text ? (
          <ScrollingPre className="message-text message-json" label="Payload JSON">
            {message.text}
          </ScrollingPre>
        ) : (
          <p className="muted">The delivery had no body.</p>
        )}
      </section>
      <HeadersTable headers={headers} title="Request headers" />
    </div>
  );
}
