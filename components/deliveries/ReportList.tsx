import type { ReportView } from '@/db/queries/reports/reports';
import { reportKindLabels, reportKindTones, reportSourceLabels } from './report-labels';
import { TimesInText } from '@/components/ui/TimesInText';
import { ZonedTime } from '@/components/ui/ZonedTime';

/** Longest detail shown when `compact` (the timeline); the delivery's page shows it whole. Characters. */
const DETAIL_MAX = 140;
const shorten = (t: string, compact: boolean) => (compact && t.length > DETAIL_MAX ? `${t.slice(0, DETAIL_MAX - 1)}…` : t);

/**
 * What the provider said about a message after accepting it (issue #10 delivery reports), one line each in event-time
 * order: the event time in `zone` (full date: reports may come days later), the kind as a badge, which part of a
 * multi-part SMS, the error code, the provider's words, and what processing did ("accepted → complained;
 * suppressed …"). Wraps freely, so it stays readable at 375 px. `compact` (the timeline) shortens long details.
 */
export function ReportList({ reports, zone, compact = false }: { reports: ReportView[]; zone: string; compact?: boolean }) {
  if (reports.length === 0) return null;
  return (
    <ol className="report-list" aria-label="Delivery reports">
      {reports.map((r) => (
        <li key={r.id} data-report-kind={r.kind}>
          <ZonedTime instant={r.occurredAt} zone={zone} />{' '}
          <span className={`badge badge-${reportKindTones[r.kind]}`}>{reportKindLabels[r.kind]}</span>
          {r.partIndex !== null && r.partCount !== null ? (
            <span className="report-part">
              {' '}
              part {r.partIndex + 1} of {r.partCount}
            </span>
          ) : null}
          {r.errorCode ? <code className="attempt-code">{r.errorCode}</code> : null}
          {r.detail ? (
            <span className="report-detail" title={compact && r.detail.length > DETAIL_MAX ? r.detail : undefined}>
              {' '}
              <TimesInText text={shorten(r.detail, compact)} zone={zone} />
            </span>
          ) : null}
          <span className="report-meta">
            {reportSourceLabels[r.source]}
            {r.effect ? (
              <>
                {' · '}
                <TimesInText text={r.effect} zone={zone} />
              </>
            ) : null}
          </span>
        </li>
      ))}
    </ol>
  );
}
