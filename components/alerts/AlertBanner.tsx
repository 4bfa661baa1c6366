import Link from 'next/link';
import type { ActiveAlertBanner } from '@/server/alerts/overview';

/**
 * The tenant's active alerts (issue #10 §6), one line each — "3 new dead letters since 12:01 — alert sent to 2
 * people" — with a link to where a person acts (left out on that page itself: `here`) and to the alerts page.
 * Nothing when no alert is active.
 */
export function AlertBanner({ alerts, here }: { alerts: ActiveAlertBanner[]; here: string }) {
  if (alerts.length === 0) return null;
  return (
    <section className="notice notice-warn alert-banner" aria-label="Active alerts" data-testid="alert-banner">
      <ul>
        {alerts.map((a) => (
          <li key={a.condition} data-condition={a.condition}>
            <strong>{a.line}</strong>
            {a.path.split('?')[0] !== here ? (
              <>
                {' '}
                <Link href={a.path}>Open →</Link>
              </>
            ) : null}
          </li>
        ))}
      </ul>
      <Link href="/alerts" className="small">
        Alert settings and history →
      </Link>
    </section>
  );
}
