import type { CaughtMessageView } from '@/dev/queries/mailbox';
import { countSmsSegments } from '@/domain/sending/sms-segments';
import { headerEntries } from './header-entries';
import { AddressFacts, MessageHeading } from './MessageHeading';
import { HeadersTable, ScrollingPre } from './MessageParts';

/**
 * One SMS caught by the built-in SMS API: sender, recipient, sid, segment count and encoding
 * (domain/sending/sms-segments.ts), the text verbatim and the form fields as posted.
 */
export function SmsView({ message, zone }: { message: CaughtMessageView; zone: string }) {
  const text = message.text ?? '';
  const c = countSmsSegments(text);
  return (
    <div className="message-view" data-channel="sms">
      <MessageHeading message={message} zone={zone} title={<>SMS to {message.envelopeTo.join(', ') || '(nobody)'}</>} idLabel="Message SID" addressing={<AddressFacts message={message} fromLabel="From" toLabel="To" />}>
        <div>
          <dt>Segments</dt>
          <dd data-segments>
            {c.segments} {c.segments === 1 ? 'segment' : 'segments'} · {c.encoding} · {text.length} characters, {c.units} {c.encoding === 'GSM-7' ? 'septets' : 'UTF-16 units'}
          </dd>
        </div>
      </MessageHeading>
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
