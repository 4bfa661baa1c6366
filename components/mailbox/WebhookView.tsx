import type { CaughtMessageView } from '@/dev/queries/mailbox';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { headerEntries } from './header-entries';
import { VerifiedBadge } from './MailboxTable';
import { MessageHeading } from './MessageHeading';
import { HeadersTable, ScrollingPre } from './MessageParts';

/**
 * One webhook delivery caught by the built-in receiver: payload type, webhook-id and timestamp, whether the
 * signature verified (and what the check said), the payload as pretty JSON in its own scrolling box, and the
 * request headers.
 */
export function WebhookView({ message, zone }: { message: CaughtMessageView; zone: string }) {
  const stored = message.headers && typeof message.headers === 'object' && !Array.isArray(message.headers) ? (message.headers as Record<string, unknown>) : {};
  const verified = stored.verified === true;
  const verification = typeof stored.verification === 'string' ? stored.verification : null;
  const ts = Number.parseInt(typeof stored['webhook-timestamp'] === 'string' ? stored['webhook-timestamp'] : '', 10);
  const headers = headerEntries(Object.fromEntries(Object.entries(stored).filter(([k]) => k !== 'verified' && k !== 'verification')));
  return (
    <div className="message-view" data-channel="webhook">
      <MessageHeading
        message={message}
        zone={zone}
        title={message.subject || '(no type)'}
        idLabel="webhook-id"
        addressing={
          <div>
            <dt>Endpoint</dt>
            <dd>
              <code>{message.envelopeTo.join(', ') || '(none)'}</code>
            </dd>
          </div>
        }
      >
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
      </MessageHeading>
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
