import type { Coverage } from '@/domain/scheduling/coverage';
import type { ParticipantCounts } from '@/db/queries/scheduling/event-views';

/**
 * What people will see, counted over the whole event: "12 of 13 confirmed · 26 reminders planned · 3 messages
 * sent" (messages of every kind — reminders, manual reminders, confirmations — so a confirmation that just went
 * out is counted), then the current schedule's reminders in detail: sent, delivered, expired, failed, with
 * unknown/suppressed/waiting/manual only when non-zero.
 */
export function CoverageLine({ coverage: c, counts, version }: { coverage: Coverage; counts: ParticipantCounts; version: number }) {
  const extra: [string, number, string][] = [
    ['waiting', c.waiting, 'waiting'],
    ['unknown', c.unknown, 'unknown'],
    ['suppressed', c.suppressed, 'suppressed'],
    ['nudges', c.nudges, c.nudges === 1 ? 'manual reminder' : 'manual reminders'],
  ];
  return (
    <div className="coverage" data-testid="coverage" aria-label="Reminder coverage" role="group">
      <p className="coverage-head">
        <strong data-count="confirmed">
          {counts.confirmed} of {counts.people} confirmed
        </strong>{' '}
        · <span data-count="expected">{c.expected === 1 ? '1 reminder planned' : `${c.expected} reminders planned`}</span> ·{' '}
        <span data-count="messages-sent">{counts.sent === 1 ? '1 message sent' : `${counts.sent} messages sent`}</span>
      </p>
      <p className="coverage-detail small">
        <span className="muted">Reminders of schedule v{version}:</span> <span data-count="sent">{c.sent} sent</span> ·{' '}
        <span data-count="delivered">{c.delivered} delivered</span> ·{' '}
        <span data-count="expired" className={c.expired ? 'attention-expired' : undefined}>
          {c.expired} expired
        </span>{' '}
        ·{' '}
        <span data-count="failed" className={c.failed ? 'attention-failed' : undefined}>
          {c.failed} failed
        </span>
        {extra
          .filter(([, n]) => n > 0)
          .map(([k, n, label]) => (
            <span key={k} data-count={k}>
              {' '}
              · {n} {label}
            </span>
          ))}
      </p>
    </div>
  );
}
