import Link from 'next/link';
import type { CaughtMessageListItem } from '../db/queries/mailbox';
import { ZonedTime } from './ZonedTime';

/** The caught-mail list (newest first, as given): received time in `zone`, recipients, subject. */
export function MailboxTable({ messages, zone }: { messages: CaughtMessageListItem[]; zone: string }) {
  return (
    <table className="data-table mailbox-table">
      <thead>
        <tr>
          <th scope="col">Received</th>
          <th scope="col">To</th>
          <th scope="col">Subject</th>
        </tr>
      </thead>
      <tbody>
        {messages.map((m) => (
          <tr key={m.id} data-message-id={m.id}>
            <td className="nowrap">
              <ZonedTime instant={m.receivedAt} zone={zone} variant="full" />
            </td>
            <td>{m.envelopeTo.join(', ') || <span className="muted">(no recipients)</span>}</td>
            <td>
              <Link href={`/mailbox/${m.id}`} className="row-title">
                {m.subject || '(no subject)'}
              </Link>
              {!m.hasHtml ? <span className="tag">text only</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
