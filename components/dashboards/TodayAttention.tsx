'use client';

import Link from 'next/link';
import type { TodayAttentionJson, TodayData } from '@/server/dashboards/today';
import { ChannelBadge } from '@/components/ui/ChannelBadge';
import { EmptyState } from '@/components/ui/EmptyState';
import { StatusBadge } from '@/components/ui/StatusBadge';
import { TimesInText } from '@/components/ui/TimesInText';
import { ZonedTime } from '@/components/ui/ZonedTime';

/** The today view's "Needs attention today" card: dead letters, unknown outcomes and failed sends about today's events. */
export function AttentionSection({ data }: { data: TodayData }) {
  const a = data.attention;
  const parts = [
    a.counts.dead ? `${a.counts.dead} dead ${a.counts.dead === 1 ? 'letter' : 'letters'}` : null,
    a.counts.unknown ? `${a.counts.unknown} unknown ${a.counts.unknown === 1 ? 'outcome' : 'outcomes'}` : null,
    a.counts.failed ? `${a.counts.failed} failed` : null,
  ].filter(Boolean);
  return (
    <section className="card today-card today-attention" aria-labelledby="today-attention-title" data-testid="today-attention" data-count={a.total}>
      <h2 id="today-attention-title">
        Needs attention today <span className="count">{a.total}</span>
      </h2>
      {a.items.length === 0 ? (
        <EmptyState title="Nothing needs attention for today's events">
          Dead letters, unknown outcomes and failed sends of messages about today&apos;s events appear here. Older ones:{' '}
          <Link href="/attention">Needs attention</Link>.
        </EmptyState>
      ) : (
        <>
          <p className="notice notice-warn small">
            {parts.join(' · ')} for today&apos;s events. <Link href="/attention">Open Needs attention →</Link>
          </p>
          <ul className="today-list">
            {a.items.map((x) => (
              <AttentionItem key={`${x.kind}:${x.id}`} x={x} />
            ))}
          </ul>
          {a.total > a.items.length ? <p className="small today-more">Showing the newest {a.items.length} of {a.total}.</p> : null}
        </>
      )}
    </section>
  );
}

function AttentionItem({ x }: { x: TodayAttentionJson }) {
  return (
    <li className="today-row" data-attention-kind={x.kind} data-status={x.status}>
      <div className="today-row-head">
        <StatusBadge status={x.status} kind={x.kind === 'delivery' ? 'delivery' : 'reminder'} zone={x.eventZone} />
        <ChannelBadge channel={x.channel} />
        <span className="small muted">
          <ZonedTime instant={x.updatedAt} zone={x.eventZone} />
        </span>
      </div>
      <div className="today-row-body">
        {x.title} to <span className="today-address">{x.address}</span> · <Link href={`/events/${x.eventId}`}>{x.eventTitle}</Link>
      </div>
      {x.statusReason ? (
        <div className="small muted today-reason">
          <TimesInText text={x.statusReason} zone={x.eventZone} />
        </div>
      ) : null}
      <div className="small today-links">
        {x.kind === 'delivery' ? (
          <Link href={`/deliveries/${x.id}`} className="today-tap">
            Open the delivery →
          </Link>
        ) : (
          <Link href="/reminders?status=failed&window=24h" className="today-tap">
            Failed reminders →
          </Link>
        )}
        {x.status !== 'failed' ? (
          <Link href="/attention" className="today-tap">
            Needs attention →
          </Link>
        ) : null}
      </div>
    </li>
  );
}
