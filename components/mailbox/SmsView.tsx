import type { CaughtMessageView } from '@/dev/queries/mailbox';
import { countSmsSegments } from '@/domain/sending/sms-segments';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { headerEntries } from './header-entries';
import { HeadersTable, MaskedNotice, ScrollingPre } from './MessageParts';

/**
 * One SMS caught by the built-in SMS API: sender, recipient, sid, segment count and encoding
 * (domain/sending/sms-segments.ts), the text verbatim and the form fields as posted.
 */
export function SmsView({ message, zone }: { message: CaughtMessageView; zone: string }) {
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
