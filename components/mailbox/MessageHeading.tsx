import type { ReactNode } from 'react';
import type { CaughtMessageView } from '@/dev/queries/mailbox';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { MaskedNotice } from './MessageParts';

/**
 * The head of every caught-message view (MessageView, SmsView, WebhookView): `title` as the page's heading, the
 * masked-links notice, and the facts list — when it was received (in `zone`), the channel's addressing rows
 * (`addressing`, e.g. {@link AddressFacts}), the provider's id of the message under `idLabel` (Message-ID,
 * Message SID, webhook-id; "(none)" when it has none), then the channel's own rows (`children`). Each row is a
 * `<div>` holding one `<dt>` and its `<dd>`. Server-rendered, no state.
 */
export function MessageHeading({
  message,
  zone,
  title,
  addressing,
  idLabel,
  children,
}: {
  message: CaughtMessageView;
  zone: string;
  title: ReactNode;
  addressing: ReactNode;
  idLabel: string;
  children: ReactNode;
}) {
  return (
    <>
      <h1 className="message-subject">{title}</h1>
      <MaskedNotice message={message} />
      <dl className="facts message-facts">
        <div>
          <dt>Received</dt>
          <dd>
            <ZonedTime instant={message.receivedAt} zone={zone} variant="full" />
          </dd>
        </div>
        {addressing}
        <div>
          <dt>{idLabel}</dt>
          <dd>
            <code className="message-id">{message.messageId || '(none)'}</code>
          </dd>
        </div>
        {children}
      </dl>
    </>
  );
}

/** The envelope sender and recipients as two facts rows named `fromLabel` and `toLabel` ("(none)", muted, when empty). */
export function AddressFacts({ message, fromLabel, toLabel }: { message: CaughtMessageView; fromLabel: string; toLabel: string }) {
  return (
    <>
      <div>
        <dt>{fromLabel}</dt>
        <dd>{message.envelopeFrom || <span className="muted">(none)</span>}</dd>
      </div>
      <div>
        <dt>{toLabel}</dt>
        <dd>{message.envelopeTo.join(', ') || <span className="muted">(none)</span>}</dd>
      </div>
    </>
  );
}
