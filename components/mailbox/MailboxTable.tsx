import Link from 'next/link';
import type { CaughtChannel, CaughtMessageListItem } from '@/dev/queries/mailbox';
import { countSmsSegments } from '@/domain/sending/sms-segments';
import { ZonedTime } from '@/components/ui/ZonedTime';

/** "1 segment · GSM-7" / "3 segments · UCS-2" for an SMS text (domain/sending/sms-segments.ts, 3GPP TS 23.038/23.040). */
function segmentsLabel(text: string): string {
  const c = countSmsSegments(text);
  return `${c.segments} ${c.segments === 1 ? 'segment' : 'segments'} · ${c.encoding}`;
}

/** What a Punctual message key says a message is: a booking notification, a nudge, a rule reminder (or null). */
function messageKind(key: string | null): 'notification' | 'nudge' | 'reminder' | null {
  if (!key) return null;
  return key.startsWith('ntf:') ? 'notification' : key.startsWith('nudge:') ? 'nudge' : 'reminder';
}

/**
 * The caught-mail list (newest first, as given): received time in `zone`, recipients, subject; a booking
 * notification is tagged as one. Each row carries `data-message-kind` (see {@link messageKind}).
 */
export function MailboxTable({ messages, zone }: { messages: CaughtMessageListItem[]; zone: string }) {
  return (
    <table className="data-table mailbox-table stack-on-phone">
      <thead>
        <tr>
          <th scope="col">Received</th>
          <th scope="col">To</th>
          <th scope="col">Subject</th>
        </tr>
      </thead>
      <tbody>
        {messages.map((m) => (
          <tr key={m.id} data-message-id={m.id} data-message-kind={messageKind(m.punctualKey) ?? undefined}>
            <td data-label="Received" className="nowrap">
              <ZonedTime instant={m.receivedAt} zone={zone} variant="full" />
            </td>
            <td data-label="To">{m.envelopeTo.join(', ') || <span className="muted">(no recipients)</span>}</td>
            <td data-label="Subject">
              <Link href={`/mailbox/${m.id}`} className="row-title">
                {m.subject || '(no subject)'}
              </Link>
              {messageKind(m.punctualKey) === 'notification' ? <span className="tag">booking update</span> : null}
              {!m.hasHtml ? <span className="tag">text only</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Caught SMS (newest first, as given): received time in `zone`, sender → recipient, the text, segments and encoding. */
export function SmsTable({ messages, zone }: { messages: CaughtMessageListItem[]; zone: string }) {
  return (
    <table className="data-table sms-table stack-on-phone">
      <thead>
        <tr>
          <th scope="col">Received</th>
          <th scope="col">From → To</th>
          <th scope="col">Text</th>
          <th scope="col">Segments</th>
        </tr>
      </thead>
      <tbody>
        {messages.map((m) => (
          <tr key={m.id} data-message-id={m.id}>
            <td data-label="Received" className="nowrap">
              <ZonedTime instant={m.receivedAt} zone={zone} variant="full" />
            </td>
            <td data-label="From → To" className="nowrap">
              {m.envelopeFrom ?? '?'} → {m.envelopeTo.join(', ')}
            </td>
            <td data-label="Text" className="sms-text-cell">
              <Link href={`/mailbox/${m.id}`} className="sms-text">
                {m.text || '(empty)'}
              </Link>
            </td>
            <td data-label="Segments" className="nowrap" data-segments>
              {segmentsLabel(m.text ?? '')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A verified yes/no badge for a webhook delivery. */
export function VerifiedBadge({ verified }: { verified: boolean }) {
  return verified ? <span className="badge badge-ok">verified: yes</span> : <span className="badge badge-bad">verified: no</span>;
}

/** Caught webhook deliveries (newest first, as given): received time in `zone`, payload type, webhook-id, verified. */
export function WebhookTable({ messages, zone }: { messages: CaughtMessageListItem[]; zone: string }) {
  return (
    <table className="data-table webhook-table stack-on-phone">
      <thead>
        <tr>
          <th scope="col">Received</th>
          <th scope="col">Type</th>
          <th scope="col">webhook-id</th>
          <th scope="col">Verified</th>
        </tr>
      </thead>
      <tbody>
        {messages.map((m) => (
          <tr key={m.id} data-message-id={m.id} data-verified={m.verified ? 'yes' : 'no'}>
            <td data-label="Received" className="nowrap">
              <ZonedTime instant={m.receivedAt} zone={zone} variant="full" />
            </td>
            <td data-label="Type">
              <Link href={`/mailbox/${m.id}`} className="row-title">
                {m.subject || '(no type)'}
              </Link>
            </td>
            <td data-label="webhook-id">
              <code className="mono webhook-id">{m.messageId ?? '(none)'}</code>
            </td>
            <td data-label="Verified">
              <VerifiedBadge verified={m.verified === true} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const tabLabels: Record<CaughtChannel, string> = { email: 'Email', sms: 'SMS', webhook: 'Webhooks' };

/** The mailbox's channel tabs (links to `/mailbox?channel=…`), each with its count; `active` is marked current. */
export function MailboxTabs({ active, counts }: { active: CaughtChannel; counts: Record<CaughtChannel, number> }) {
  return (
    <nav className="channel-tabs" aria-label="Channels">
      {(Object.keys(tabLabels) as CaughtChannel[]).map((c) => (
        <Link key={c} href={c === 'email' ? '/mailbox' : `/mailbox?channel=${c}`} className="channel-tab" data-channel={c} aria-current={c === active ? 'page' : undefined}>
          {tabLabels[c]} <span className="count">{counts[c]}</span>
        </Link>
      ))}
    </nav>
  );
}
