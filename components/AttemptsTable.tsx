import type { DeliveryAttempt } from '../db/schema';
import { ZonedTime } from './ZonedTime';

/** Every provider call of one delivery: number, start and end in `zone`, outcome class, error code and detail. */
export function AttemptsTable({ attempts, zone }: { attempts: DeliveryAttempt[]; zone: string }) {
  return (
    <table className="data-table small">
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
            <td colSpan={6} className="muted">
              No provider call was made.
            </td>
          </tr>
        ) : null}
        {attempts.map((a) => (
          <tr key={a.id}>
            <td className="num">{a.attemptNo}</td>
            <td className="nowrap">
              <ZonedTime instant={a.startedAt.toISOString()} zone={zone} variant="clock" />
            </td>
            <td className="nowrap">{a.endedAt ? <ZonedTime instant={a.endedAt.toISOString()} zone={zone} variant="clock" /> : 'in flight'}</td>
            <td>{a.outcome ?? '—'}</td>
            <td className="mono">{a.errorCode ?? ''}</td>
            <td className="small">{a.errorMessage ?? a.providerResponse ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
