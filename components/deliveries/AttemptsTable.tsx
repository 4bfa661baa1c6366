import type { DeliveryAttempt } from '@/db/schema';
import { ZonedTime } from '@/components/ui/ZonedTime';

/**
 * Every provider call of one delivery (any channel): number, start and end in `zone`, outcome class, error
 * code and detail. On phones it reflows into one labelled card per attempt (app/styles/channels.css).
 */
export function AttemptsTable({ attempts, zone }: { attempts: DeliveryAttempt[]; zone: string }) {
  return (
    <table className="data-table small reflow-table attempts-table">
      <thead>
        <tr>
          <th className="num">#</th>
          <th>Started</th>
          <th>Ended</th>
          <th>Outcome</th>
          <th>Error code</th>
          <th>Detail</th>
        </tr>
      </thead>
      <tbody>
        {attempts.length === 0 ? (
          <tr>
            <td colSpan={6} className="muted reflow-full">
              No provider call was made.
            </td>
          </tr>
        ) : null}
        {attempts.map((a) => (
          <tr key={a.id}>
            <td className="num" data-label="Attempt">
              {a.attemptNo}
            </td>
            <td className="nowrap" data-label="Started">
              <ZonedTime instant={a.startedAt.toISOString()} zone={zone} variant="clock" />
            </td>
            <td className="nowrap" data-label="Ended">
              {a.endedAt ? <ZonedTime instant={a.endedAt.toISOString()} zone={zone} variant="clock" /> : 'in flight'}
            </td>
            <td data-label="Outcome">{a.outcome ?? '—'}</td>
            <td className="mono" data-label="Error code">
              {a.errorCode ?? ''}
            </td>
            <td className="small wrap-anywhere" data-label="Detail">
              {a.errorMessage ?? a.providerResponse ?? ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
