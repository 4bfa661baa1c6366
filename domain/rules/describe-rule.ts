/**
 * Reads a reminder rule back as one English sentence for staff, e.g.
 * "1 day before start, same local time, to attendees and external guests by the channels each prefers; skipped if more than
 * 1 hour late". Pure. Wording follows the planning rules in due-instant.ts: calendar parts keep the local
 * time, hour/minute parts are elapsed time.
 */
import { parseOffset } from '@/domain/scheduling/due-instant';
import type { Anchor, BookingRole, Channel } from '@/domain/vocabulary';

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** "1 day", "2 hours 30 minutes", "90 seconds"; empty for zero. */
function amount(parts: [number, string][]): string {
  return parts
    .filter(([n]) => n > 0)
    .map(([n, u]) => plural(n, u))
    .join(' ');
}

/** [phrase at the anchor itself, noun after "before"/"after"] */
const anchorPhrase: Record<Anchor, [string, string]> = {
  start: ['when the event starts', 'start'],
  room_open: ['when the room opens', 'the room opens'],
  end: ['when the event ends', 'end'],
};

const roleNames: Record<BookingRole, string> = { attendee: 'attendees', external: 'external guests', host: 'hosts' };

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Late-send window in words: "1 hour", "15 minutes", "1 day 2 hours". */
function describeDuration(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return amount([[d, 'day'], [h, 'hour'], [m, 'minute'], [s, 'second']]) || '0 seconds';
}

/**
 * The clause on quiet hours (issue #9, quiet-hours.ts `applyQuietHours`): a reminder due in a participant's quiet
 * hours waits until they end, unless that is not before its late-send window closes.
 */
const quietHoursClause =
  'participants with quiet hours get it when their quiet hours end if that is before the late-send window closes, else at its due time';

/**
 * The sentence for a rule. With `options.quietHours` (the tenant's participants can have quiet hours), the
 * {@link quietHoursClause} is appended after the late-send window: "…; skipped if more than 1 hour late;
 * participants with quiet hours get it when …".
 * @throws DueInstantError for an offset that is not an ISO-8601 duration.
 */
export function describeRule(
  rule: { anchor: Anchor; offset: string; audience: readonly BookingRole[]; channel: Channel; lateSendWindowSeconds: number },
  options: { quietHours?: boolean } = {},
): string {
  const p = parseOffset(rule.offset);
  const calendar = amount([
    [p.years, 'year'],
    [p.months, 'month'],
    [p.weeks, 'week'],
    [p.days, 'day'],
  ]);
  const secs = Math.round(p.elapsedMs / 1000);
  const elapsed = amount([
    [Math.floor(secs / 3600), 'hour'],
    [Math.floor((secs % 3600) / 60), 'minute'],
    [secs % 60, 'second'],
  ]);
  const [atAnchor, beforeNoun] = anchorPhrase[rule.anchor];
  let when: string;
  if (!calendar && !elapsed) when = atAnchor;
  else {
    const size = [calendar, elapsed].filter(Boolean).join(' ');
    when = `${size} ${p.sign < 0 ? 'before' : 'after'} ${beforeNoun}`;
    if (calendar && !elapsed) when += ', same local time';
    else if (!calendar && elapsed) when += ' (elapsed time)';
  }
  const order: BookingRole[] = ['attendee', 'external', 'host'];
  const who = list(order.filter((r) => rule.audience.includes(r)).map((r) => roleNames[r]));
  const sentence = `${when}, to ${who} by the channels each prefers; skipped if more than ${describeDuration(rule.lateSendWindowSeconds)} late`;
  return options.quietHours ? `${sentence}; ${quietHoursClause}` : sentence;
}
