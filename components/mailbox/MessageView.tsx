import type { CaughtMessageView } from '@/dev/queries/mailbox';
import type { CaughtMailParts } from '@/dev/caught-mail';
import { headerEntries } from './header-entries';
import { AddressFacts, MessageHeading } from './MessageHeading';
import { AttachmentList, CalendarBox, HeadersTable, ScrollingPre } from './MessageParts';
import { SmsView } from './SmsView';
import { WebhookView } from './WebhookView';

export { headerEntries } from './header-entries';

/**
 * One caught message: envelope and Message-ID, a link to the raw source, the calendar invitation's key lines
 * and the attachments (each a download), the HTML part in a fully sandboxed iframe (no scripts, no same-origin
 * access), the text part verbatim and all headers. `zone` is the zone received time is shown in; `parts` are
 * an email's attachments and calendar read from its raw source (dev/caught-mail.ts), `'unreadable'` when
 * that source could not be parsed, null for other channels. A server component with no state (so no hook): the
 * SMS and webhook views are SmsView and WebhookView, the heading all three share MessageHeading, the other shared
 * pieces MessageParts, header parsing header-entries.ts.
 */
export function MessageView({ message, zone, parts = null }: { message: CaughtMessageView; zone: string; parts?: CaughtMailParts | 'unreadable' | null }) {
  if (message.channel === 'sms') return <SmsView message={message} zone={zone} />;
  if (message.channel === 'webhook') return <WebhookView message={message} zone={zone} />;
  const headers = headerEntries(message.headers);
  return (
    <div className="message-view">
      <MessageHeading message={message} zone={zone} title={message.subject || '(no subject)'} idLabel="Message-ID" addressing={<AddressFacts message={message} fromLabel="Envelope from" toLabel="Envelope to" />}>
        <div>
          <dt>Source</dt>
          <dd>
            <a href={`/api/mailbox/${message.id}/raw`} className="message-raw-link" type="text/plain">
              View raw source
            </a>
          </dd>
        </div>
      </MessageHeading>

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
