import type { CaughtMessageView } from '../db/queries/mailbox';
import { ZonedTime } from './ZonedTime';

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
export function headerEntries(headers: unknown): [string, string][] {
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

/**
 * One caught message: envelope and Message-ID, all headers, the HTML part in a fully sandboxed iframe
 * (no scripts, no same-origin access) and the text part verbatim. `zone` is the zone received time is shown in.
 */
export function MessageView({ message, zone }: { message: CaughtMessageView; zone: string }) {
  const headers = headerEntries(message.headers);
  return (
    <div className="message-view">
      <h1 className="message-subject">{message.subject || '(no subject)'}</h1>
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
      </dl>

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
          <pre className="message-text">{message.text}</pre>
        ) : (
          <p className="muted">This message has no text part.</p>
        )}
      </section>

      <details className="message-headers" open={headers.length <= 12}>
        <summary>Headers ({headers.length})</summary>
        {headers.length === 0 ? (
          <p className="muted">No headers stored.</p>
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
    </div>
  );
}
