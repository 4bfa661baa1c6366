/**
 * What creating, changing, deactivating or activating ONE reminder rule does to the pending reminders of
 * upcoming events (issue #13). Pure (no I/O, no clock: `now` is an argument): the server loads the rows — for the
 * preview without locks, for the re-plan under the locks the scheduling code takes — and both read the same
 * answer from this function, so the number the page shows and the number applied differ only when the rows did.
 *
 * Planning is NOT done a second time here: the rule is planned with the one planner (domain/scheduling/planning.ts
 * `planReminders`, then domain/notifications/preferred-channels.ts for the person's channels and quiet hours), and the result
 * is compared with what is stored for that rule at each event's CURRENT schedule version:
 *
 * | stored reminder of the rule (same booking + channel) | planned now                   | step |
 * | ---------------------------------------------------- | ----------------------------- | ---- |
 * | none                                                 | due after `now`               | `add` (a new reminder, its own business key) |
 * | none                                                 | due at or before `now` / expired | `pastDue`: NOT planned — it would fire late |
 * | `scheduled`, same instants                           | same                          | unchanged |
 * | `scheduled`, other instants                          | due after `now`               | `move` (same row and message key, new due/expiry) |
 * | `scheduled`, other instants                          | due at or before `now`        | `pastDue`: kept at its current instant |
 * | `scheduled`                                          | not planned (audience, channel no longer possible, rule inactive, booking/event cancelled) | `cancel` |
 * | `dispatched` or `done` (claimed, sending, sent)      | anything                      | `handedOver`: never touched |
 * | ended (`superseded`, `cancelled`, `expired`, `failed`) | planned                     | `ended`: its business key is taken; not planned again |
 *
 * A reminder is only ever planned or moved to a due instant AFTER `now` (a past due instant would make the
 * dispatcher send it at once, late). The "pending reminders" the page names are `add + move + cancel`.
 * "Upcoming events" are chosen by the loading query (not yet ended); an event or booking that is cancelled
 * plans nothing, whatever the query loaded.
 */
import { planReminders, type PlannedReminder, type PlanningBooking, type PlanningEvent, type PlanningRule } from '@/domain/scheduling/planning';
import { forEachPreferredChannel, type PlanningContactFields } from '@/domain/notifications/preferred-channels';
import type { Channel, ReminderStatus } from '@/domain/vocabulary';

/** An upcoming event as loaded: planning fields plus id and current schedule version. */
export interface ImpactEvent extends PlanningEvent {
  id: string;
  scheduleVersion: number;
}

/** A booking of one of the events, with its contact's planning fields (null: no contact row). */
export interface ImpactBooking extends PlanningBooking {
  eventId: string;
  contact: PlanningContactFields | null;
}

/** A stored reminder of THIS rule (any schedule version; only the event's current one is compared). */
export interface ImpactStoredReminder {
  id: string;
  eventId: string;
  bookingId: string;
  scheduleVersion: number;
  channel: Channel;
  status: ReminderStatus;
  /** UTC instants. */
  dueAt: Date;
  deferredFrom: Date | null;
  expiresAt: Date;
}

/** A reminder to insert: the planner's output plus the event and its schedule version. */
type ImpactAdd = PlannedReminder & { deferredFrom: Date | null; eventId: string; scheduleVersion: number };

interface ImpactMove {
  id: string;
  eventId: string;
  bookingId: string;
  channel: Channel;
  from: { dueAt: Date; deferredFrom: Date | null; expiresAt: Date };
  to: { dueAt: Date; deferredFrom: Date | null; expiresAt: Date };
}

export interface RuleImpact {
  /** New reminders (status `scheduled`, due after `now`). */
  add: ImpactAdd[];
  /** Waiting reminders re-timed in place. */
  move: ImpactMove[];
  /** Waiting reminders (`scheduled`) the rule no longer plans. */
  cancel: { id: string; eventId: string; bookingId: string; channel: Channel }[];
  /** `add.length + move.length + cancel.length`: what the page calls "N pending reminders". */
  pending: number;
  /** Planned reminders whose due instant is already past: neither added nor moved ("would already be due"). */
  pastDue: number;
  /** Reminders of the rule already handed to a send (`dispatched`, `done`): untouched. */
  handedOver: number;
  /** Planned reminders whose business key is taken by an ended reminder (e.g. cancelled at an earlier deactivation). */
  ended: number;
  /** Bookings the rule applies to whose contact accepts no channel that can reach them (no reminder at all). */
  unreachable: number;
  /** Events with at least one add/move/cancel (the wake-ups to set). */
  eventIds: string[];
}

const same = (a: Date | null, b: Date | null) => (a === null || b === null ? a === b : a.getTime() === b.getTime());
const keyOf = (bookingId: string, channel: Channel) => `${bookingId}|${channel}`;

/**
 * The impact of `rule` (as drafted: for a deactivation `active: false`) on the given events and bookings, against
 * the reminders stored for that rule (module table).
 * @param input.rule the draft; `id` is the rule's id (any placeholder for a rule not yet created — it only labels
 *   the planned rows, which the caller relabels).
 * @param input.tenantZone IANA zone for quiet hours of contacts without one.
 * @param input.now the database clock's instant (invariant 10).
 * @throws DueInstantError for an offset or event zone the planner cannot use.
 */
export function ruleImpact(input: {
  rule: PlanningRule;
  events: readonly ImpactEvent[];
  bookings: readonly ImpactBooking[];
  stored: readonly ImpactStoredReminder[];
  tenantZone: string;
  now: Date;
}): RuleImpact {
  const { rule, now } = input;
  const out: RuleImpact = { add: [], move: [], cancel: [], pending: 0, pastDue: 0, handedOver: 0, ended: 0, unreachable: 0, eventIds: [] };
  const byEvent = new Map<string, ImpactBooking[]>();
  for (const b of input.bookings) {
    const list = byEvent.get(b.eventId);
    if (list) list.push(b);
    else byEvent.set(b.eventId, [b]);
  }
  const storedByEvent = new Map<string, ImpactStoredReminder[]>();
  for (const s of input.stored) {
    const list = storedByEvent.get(s.eventId);
    if (list) list.push(s);
    else storedByEvent.set(s.eventId, [s]);
  }
  const touched = new Set<string>();
  for (const event of input.events) {
    const bookings = byEvent.get(event.id) ?? [];
    const base = planReminders({ event, bookings, rules: [rule], now });
    const contacts = new Map<string, PlanningContactFields>();
    for (const b of bookings) if (b.contact) contacts.set(b.id, b.contact);
    const planned = forEachPreferredChannel(base, contacts, input.tenantZone);
    const reached = new Set(planned.map((p) => p.bookingId));
    for (const p of base) if (!reached.has(p.bookingId)) out.unreachable++;
    const plan = new Map<string, (typeof planned)[number]>();
    for (const p of planned) if (!plan.has(keyOf(p.bookingId, p.channel))) plan.set(keyOf(p.bookingId, p.channel), p);
    const seen = new Set<string>();
    for (const s of storedByEvent.get(event.id) ?? []) {
      if (s.scheduleVersion !== event.scheduleVersion) continue;
      const k = keyOf(s.bookingId, s.channel);
      seen.add(k);
      const p = plan.get(k);
      if (s.status === 'dispatched' || s.status === 'done') {
        out.handedOver++;
      } else if (s.status !== 'scheduled') {
        if (p) out.ended++;
      } else if (!p) {
        out.cancel.push({ id: s.id, eventId: event.id, bookingId: s.bookingId, channel: s.channel });
        touched.add(event.id);
      } else if (same(s.dueAt, p.dueAt) && same(s.deferredFrom, p.deferredFrom) && same(s.expiresAt, p.expiresAt)) {
        // unchanged
      } else if (p.status === 'expired' || p.dueAt.getTime() <= now.getTime()) {
        out.pastDue++;
      } else {
        out.move.push({
          id: s.id,
          eventId: event.id,
          bookingId: s.bookingId,
          channel: s.channel,
          from: { dueAt: s.dueAt, deferredFrom: s.deferredFrom, expiresAt: s.expiresAt },
          to: { dueAt: p.dueAt, deferredFrom: p.deferredFrom, expiresAt: p.expiresAt },
        });
        touched.add(event.id);
      }
    }
    for (const [k, p] of plan) {
      if (seen.has(k)) continue;
      if (p.status === 'expired' || p.dueAt.getTime() <= now.getTime()) {
        out.pastDue++;
        continue;
      }
      out.add.push({ ...p, eventId: event.id, scheduleVersion: event.scheduleVersion });
      touched.add(event.id);
    }
  }
  out.pending = out.add.length + out.move.length + out.cancel.length;
  out.eventIds = [...touched];
  return out;
}

/** The counts of a {@link RuleImpact} (what the preview answers and the audit entry records). */
export interface RuleImpactCounts {
  pending: number;
  added: number;
  moved: number;
  cancelled: number;
  pastDue: number;
  handedOver: number;
  ended: number;
  unreachable: number;
}

/** The counts of `i`. */
export function impactCounts(i: RuleImpact): RuleImpactCounts {
  return { pending: i.pending, added: i.add.length, moved: i.move.length, cancelled: i.cancel.length, pastDue: i.pastDue, handedOver: i.handedOver, ended: i.ended, unreachable: i.unreachable };
}

/** "1 pending reminder" / "40 pending reminders". */
export function pendingText(n: number): string {
  return `${n} pending reminder${n === 1 ? '' : 's'}`;
}

/**
 * The preview's sentence parts, e.g. ["40 pending reminders: 38 new, 2 moved", "3 would already be due — not planned"].
 * Only non-zero parts besides the first.
 */
export function impactLines(c: RuleImpactCounts): string[] {
  const parts = [c.added ? `${c.added} new` : null, c.moved ? `${c.moved} moved` : null, c.cancelled ? `${c.cancelled} cancelled` : null].filter(Boolean);
  const lines = [`${pendingText(c.pending)}${parts.length ? `: ${parts.join(', ')}` : ''}`];
  if (c.pastDue) lines.push(`${c.pastDue} would already be due — not planned`);
  if (c.handedOver) lines.push(`${c.handedOver} already handed to a send — not touched`);
  if (c.ended) lines.push(`${c.ended} ended earlier (cancelled or expired) — not planned again`);
  if (c.unreachable) lines.push(`${c.unreachable} ${c.unreachable === 1 ? 'participant has' : 'participants have'} no channel that reaches them`);
  return lines;
}
