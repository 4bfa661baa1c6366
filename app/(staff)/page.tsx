import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { getDb } from '@/db/client';
import { dashboardCounts, dispatchLagByHour, latePlannedSends, outcomesByChannel, outcomesByHour, type DashboardCounts } from '@/db/queries/dashboards/dashboard';
import { ChannelBadge } from '@/components/ui/ChannelBadge';
import { ScrollTable } from '@/components/ui/ScrollTable';
import { EmptyState } from '@/components/ui/EmptyState';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { formatInZone, formatTimeInZone, sameDayInZone, zoneAbbreviation } from '@/components/ui/format';
import { AlertBanner } from '@/components/alerts/AlertBanner';
import { FirstDayChecklist } from '@/components/dashboards/FirstDayChecklist';
import { can } from '@/domain/accounts/permissions';
import { firstDayChecklistOf } from '@/server/dashboards/first-day';
import { activeAlertBanners } from '@/server/alerts/overview';
import { LagChart, OutcomesChart, type LagChartPoint, type OutcomeChartPoint } from '@/components/dashboards/DashboardCharts';
import {
  dashboardWindows,
  fillChannelOutcomes,
  fillLag,
  fillOutcomes,
  formatLagSeconds,
  hourBuckets,
  outcomeLabels,
  summarizeChannelOutcomes,
  summarizeLag,
  summarizeLatePlanned,
  summarizeOutcomes,
  type ChannelOutcomes,
  type LagPoint,
  type LatePlannedSends,
  type OutcomePoint,
} from '@/domain/dashboards/dashboard';
import { outcomeClasses } from '@/domain/vocabulary';
import { appClock } from '@/server/platform/clock';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/dashboard.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Dashboard' };

/** A query's value, or the error it failed with (logged), so one failing section never blanks the page. */
async function settle<T>(what: string, p: Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
  try {
    return { ok: true, value: await p };
  } catch (e) {
    console.error(`dashboard: ${what} failed`, e);
    return { ok: false };
  }
}

/**
 * The dashboard (issue #4 item 2, issue #9 §8, issue #12): tiles counting what is coming up and what went wrong,
 * each opening the list it counts (due and Expired → /reminders, Dead letters and Unknown outcomes → /attention,
 * Sent today and Failed → /deliveries), and two charts of the last 24 hours — dispatch lag (p50/p95 of first
 * attempt − due instant, over reminders planned before their due instant; late-planned ones are their own number
 * below it) and provider outcomes — by hour in the tenant's zone, then the same outcomes per channel (email, SMS,
 * webhook) as a table with a one-sentence summary. "Sent today" says how many went to external guests (their own
 * organisation's mailbox lists those). Every count covers every channel and every kind of message (rule
 * reminders, nudges, notifications). Every number is the signed-in tenant's only. Each section shows its own
 * error state. A new organisation sees its first-day checklist above the tiles until every step is done or an
 * admin hides it (domain/dashboards/first-day.ts).
 */
export default async function DashboardPage() {
  const session = await requireStaff();
  const tenant = session.tenant;
  const zone = tenant.timeZone;
  const db = getDb();
  // "Due in the next hour" counts by the clock that decides due-ness: the database's (invariant 10).
  const clock = appClock();
  await clock.ready;
  const w = dashboardWindows(clock.now(), zone);
  const buckets = hourBuckets(w.now, zone, 24);
  const chartWindow = { windowStart: buckets[0]!.start, windowEnd: w.now };
  const [counts, lag, outcomes, byChannel] = await Promise.all([
    settle('tile counts', dashboardCounts(db, tenant.id, w)),
    settle(
      'dispatch lag',
      Promise.all([dispatchLagByHour(db, tenant.id, chartWindow), latePlannedSends(db, tenant.id, chartWindow)]).then(([rows, late]) => ({ points: fillLag(buckets, rows), late })),
    ),
    settle('provider outcomes', outcomesByHour(db, tenant.id, chartWindow).then((rows) => fillOutcomes(buckets, rows))),
    settle('outcomes per channel', outcomesByChannel(db, tenant.id, chartWindow).then(fillChannelOutcomes)),
  ]);
  const since = (d: Date) => (sameDayInZone(d, w.now, zone) ? formatTimeInZone(d, zone) : formatInZone(d, zone));
  const alerts = await settle('active alerts', activeAlertBanners(db, tenant.id, w.now, since));
  const firstDay = await settle('first-day checklist', firstDayChecklistOf(db, tenant));
  const abbr = zoneAbbreviation(w.now, zone);
  const midnight = formatTimeInZone(w.todayStart, zone);

  return (
    <>
      <div className="page-head">
        <h1>Dashboard</h1>
        <p className="muted">
          {tenant.name} · as of <ZonedTime instant={w.now.toISOString()} zone={zone} variant="time" /> · times in {zone}
        </p>
      </div>

      {alerts.ok ? <AlertBanner alerts={alerts.value} here="/" /> : null}

      {firstDay.ok && firstDay.value?.show ? <FirstDayChecklist checklist={firstDay.value} mayDismiss={can(session.user.role, 'configure')} /> : null}

      {counts.ok ? <Tiles c={counts.value} today={w.today} midnight={midnight} /> : <SectionError what="The counts" />}

      <div className="chart-grid dashboard-charts">
        <figure className="card chart-card" aria-labelledby="lag-title" data-testid="lag-figure">
          <h2 id="lag-title">Dispatch lag, last 24 hours</h2>
          <p className="muted small chart-what">
            First send attempt − due instant, per hour the attempt started (hours in {zone}, {abbr}); p50 is the median, p95 the
            slowest 5 %. A reminder planned after its due instant (a late booking) is not the scheduler&apos;s lag: it is left out and
            counted below the chart.
          </p>
          {lag.ok ? <LagSection points={lag.value.points} late={lag.value.late} zone={zone} abbr={abbr} /> : <SectionError what="The dispatch lag" />}
        </figure>
        <figure className="card chart-card" aria-labelledby="outcomes-title" data-testid="outcomes-figure">
          <h2 id="outcomes-title">Provider outcomes, last 24 hours</h2>
          <p className="muted small chart-what">
            Every finished send attempt (retries included), per hour it started (hours in {zone}, {abbr}), stacked by how the
            provider answered.
          </p>
          {outcomes.ok ? <OutcomesSection points={outcomes.value} zone={zone} /> : <SectionError what="The provider outcomes" />}
        </figure>
      </div>

      <section className="card channel-outcomes" aria-labelledby="channels-title" data-testid="channel-outcomes">
        <h2 id="channels-title">Outcomes per channel, last 24 hours</h2>
        <p className="muted small chart-what">The same send attempts as the chart above, counted per channel (since {formatInZone(chartWindow.windowStart, zone)}).</p>
        {byChannel.ok ? <ChannelSection lines={byChannel.value} /> : <SectionError what="The outcomes per channel" />}
      </section>
    </>
  );
}

function SectionError({ what }: { what: string }) {
  return (
    <div className="dashboard-error" role="alert">
      <strong>{what} could not be loaded.</strong> The database did not answer; reload the page to try again.
    </div>
  );
}

type Tone = 'plain' | 'bad' | 'unknown';

function Tile({ id, label, value, href, tone = 'plain', children }: { id: string; label: string; value: number; href?: string; tone?: Tone; children: ReactNode }) {
  const body = (
    <>
      <span className="stat-label">{label}</span>
      <span className="stat-value">{value}</span>
      <span className="stat-caption">{children}</span>
    </>
  );
  const cls = `stat dashboard-tile${value > 0 && tone !== 'plain' ? ` is-${tone}` : ''}`;
  return href ? (
    <Link href={href} className={cls} data-tile={id}>
      {body}
    </Link>
  ) : (
    <div className={cls} data-tile={id}>
      {body}
    </div>
  );
}

function Tiles({ c, today, midnight }: { c: DashboardCounts; today: string; midnight: string }) {
  const waiting = c.dead + c.unknown;
  return (
    <>
      {waiting > 0 ? (
        <p className="notice notice-warn dashboard-attention">
          {waiting === 1 ? '1 delivery needs' : `${waiting} deliveries need`} a person to decide. <Link href="/attention">Open Needs attention →</Link>
        </p>
      ) : null}
      <section aria-labelledby="upcoming-title">
        <h2 id="upcoming-title" className="dashboard-section-title">
          Coming up and sent
        </h2>
        <div className="stat-grid dashboard-tiles">
          <Tile id="due-1h" label="Due in the next hour" value={c.dueNextHour} href="/reminders?status=upcoming&window=1h">
            Messages (reminders and notifications, every channel) scheduled or dispatched, due within the next 60 minutes.
          </Tile>
          <Tile id="due-24h" label="Due in the next 24 hours" value={c.dueNext24h} href="/reminders?status=upcoming&window=24h">
            Messages (reminders and notifications, every channel) scheduled or dispatched, due within the next 24 hours.
          </Tile>
          <Tile id="sent-today" label="Sent today" value={c.sentToday} href={`/deliveries?${new URLSearchParams({ status: 'accepted', from: today })}`}>
            Deliveries by email, SMS and webhook accepted or delivered since local midnight ({midnight}).
            {c.sentTodayToGuests > 0 ? (
              <span className="dashboard-guest-note" data-testid="sent-to-guests">
                {' '}
                {c.sentTodayToGuests} of them went to external guests in their own organisation&apos;s name: the mailbox lists those under that
                organisation.
              </span>
            ) : null}
          </Tile>
        </div>
      </section>
      <section aria-labelledby="problems-title">
        <h2 id="problems-title" className="dashboard-section-title">
          Not sent
        </h2>
        <div className="stat-grid dashboard-tiles">
          <Tile
            id="failed"
            label="Failed"
            value={c.failedDeliveries24h + c.failedReminders24h}
            // A reminder that failed on its template data has no delivery: when only those failed, open the list that shows them.
            href={c.failedDeliveries24h === 0 && c.failedReminders24h > 0 ? '/reminders?status=failed&window=24h' : '/deliveries?status=failed'}
            tone="bad"
          >
            Last 24 h: {c.failedDeliveries24h} {c.failedDeliveries24h === 1 ? 'delivery' : 'deliveries'} rejected for good, {c.failedReminders24h}{' '}
            {c.failedReminders24h === 1 ? 'reminder' : 'reminders'} with invalid template data.
          </Tile>
          <Tile id="dead" label="Dead letters" value={c.dead} href="/attention" tone="bad">
            Deliveries on any channel with no automatic retry left, waiting for a replay or discard. Any age.
          </Tile>
          <Tile id="unknown" label="Unknown outcomes" value={c.unknown} href="/attention" tone="unknown">
            Sends that may or may not have gone out, waiting for a person. Any age.
          </Tile>
          <Tile id="expired" label="Expired" value={c.expiredReminders24h + c.expiredDeliveries24h} href="/reminders?status=expired&window=24h">
            Last 24 h: {c.expiredReminders24h} {c.expiredReminders24h === 1 ? 'reminder' : 'reminders'} past expiry before dispatch,{' '}
            {c.expiredDeliveries24h} {c.expiredDeliveries24h === 1 ? 'delivery' : 'deliveries'} out of retry time.
          </Tile>
        </div>
      </section>
    </>
  );
}

function LatePlannedNote({ late }: { late: LatePlannedSends }) {
  const text = summarizeLatePlanned(late);
  return text ? (
    <p className="small late-planned" data-testid="late-planned" data-count={late.count}>
      <strong>Planned late: {late.count}.</strong> {text}
    </p>
  ) : null;
}

function LagSection({ points, late, zone, abbr }: { points: LagPoint[]; late: LatePlannedSends; zone: string; abbr: string }) {
  const summary = summarizeLag(points, abbr);
  if (!summary) {
    return (
      <>
        <EmptyState title={late.count > 0 ? 'No reminder planned in time was sent in the last 24 hours' : 'No sends in the last 24 hours'}>
          The lag appears here once a reminder&apos;s first send attempt starts.
        </EmptyState>
        <LatePlannedNote late={late} />
      </>
    );
  }
  const data: LagChartPoint[] = points.map((p) => ({ label: p.label, full: formatInZone(p.start, zone), p50: p.p50Seconds, p95: p.p95Seconds, count: p.count }));
  const rows = points.filter((p) => p.count > 0);
  return (
    <>
      <p className="chart-summary" data-testid="lag-summary">
        {summary}
      </p>
      <LagChart points={data} />
      <LatePlannedNote late={late} />
      <div className="visually-hidden">
        <table>
          <caption>Dispatch lag per hour with sends (hours without sends are left out)</caption>
          <thead>
            <tr>
              <th scope="col">Hour starting</th>
              <th scope="col">First attempts</th>
              <th scope="col">p50</th>
              <th scope="col">p95</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.start.toISOString()}>
                <th scope="row">{formatInZone(p.start, zone)}</th>
                <td>{p.count}</td>
                <td>{formatLagSeconds(p.p50Seconds!)}</td>
                <td>{formatLagSeconds(p.p95Seconds!)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function OutcomesSection({ points, zone }: { points: OutcomePoint[]; zone: string }) {
  const summary = summarizeOutcomes(points);
  if (!summary) {
    return (
      <EmptyState title="No send attempts in the last 24 hours">
        Outcomes appear here once the provider has answered a send attempt.
      </EmptyState>
    );
  }
  const data: OutcomeChartPoint[] = points.map((p) => ({ label: p.label, full: formatInZone(p.start, zone), ...p.counts }));
  const rows = points.filter((p) => p.total > 0);
  return (
    <>
      <p className="chart-summary" data-testid="outcomes-summary">
        {summary}
      </p>
      <OutcomesChart points={data} />
      <div className="visually-hidden">
        <table>
          <caption>Send attempts per hour by outcome (hours without attempts are left out)</caption>
          <thead>
            <tr>
              <th scope="col">Hour starting</th>
              {outcomeClasses.map((o) => (
                <th scope="col" key={o}>
                  {outcomeLabels[o]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.start.toISOString()}>
                <th scope="row">{formatInZone(p.start, zone)}</th>
                {outcomeClasses.map((o) => (
                  <td key={o}>{p.counts[o]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function ChannelSection({ lines }: { lines: ChannelOutcomes[] }) {
  const summary = summarizeChannelOutcomes(lines);
  if (!summary) {
    return (
      <EmptyState title="Nothing sent on any channel in the last 24 hours">
        Email, SMS and webhook counts appear here once a provider or receiver has answered.
      </EmptyState>
    );
  }
  return (
    <>
      <p className="chart-summary" data-testid="channel-summary">
        {summary}
      </p>
      <ScrollTable label="Send attempts per channel by outcome, last 24 hours">
        <table className="data-table small">
          <caption className="visually-hidden">Send attempts per channel by outcome, last 24 hours</caption>
          <thead>
            <tr>
              <th scope="col">Channel</th>
              <th scope="col" className="num">
                Attempts
              </th>
              {outcomeClasses.map((o) => (
                <th scope="col" className="num" key={o}>
                  {outcomeLabels[o]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => (
              <tr key={l.channel} data-channel={l.channel}>
                <th scope="row">
                  <ChannelBadge channel={l.channel} />
                </th>
                <td className="num" data-count="total">
                  {l.total}
                </td>
                {outcomeClasses.map((o) => (
                  <td key={o} className={`num${l.counts[o] === 0 ? ' zero' : ''}`} data-count={o}>
                    {l.counts[o]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
    </>
  );
}
