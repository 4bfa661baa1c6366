import type { Coverage } from '@/domain/scheduling/coverage';

/**
 * "Coverage: 12 expected · 9 sent · 0 delivered · 1 expired · 0 failed" for the current schedule version,
 * with unknown/suppressed/waiting/nudges only when non-zero.
 */
export function CoverageLine({ coverage: c, version }: { coverage: Coverage; version: number }) {
  const extra: [string, number, string][] = [
    ['waiting', c.waiting, 'waiting'],
    ['unknown', c.unknown, 'unknown'],
    ['suppressed', c.suppressed, 'suppressed'],
    ['nudges', c.nudges, c.nudges === 1 ? 'manual reminder' : 'manual reminders'],
  ];
  return (
    <p className="coverage" data-testid="coverage" aria-label="Reminder coverage">
      <strong>Coverage (v{version}):</strong>{' '}
      <span data-count="expected">{c.expected} expected</span> · <span data-count="sent">{c.sent} sent</span> ·{' '}
      <span data-count="delivered">{c.delivered} delivered</span> · <span data-count="expired" className={c.expired ? 'attention-expired' : undefined}>{c.expired} expired</span> ·{' '}
      <span data-count="failed" className={c.failed ? 'attention-failed' : undefined}>{c.failed} failed</span>
      {extra
        .filter(([, n]) => n > 0)
        .map(([k, n, label]) => (
          <span key={k} data-count={k}>
            {' '}
            · {n} {label}
          </span>
        ))}
    </p>
  );
}
