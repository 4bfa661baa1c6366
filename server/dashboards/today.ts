/**
 * The front desk's "today" view (`/today`, issue #13): today's events in the tenant's zone, what runs now and
 * next, messages due in the next hours and problems with today's messages — one tenant's, as JSON-ready data
 * (instants as ISO-8601 UTC strings; the UI formats them in a zone, never shows them raw). Used by the page's
 * first render and by GET /api/today (refreshed every 30 s), and GET /api/today/events/:id/participants.
 *
 * Rules: domain/dashboards/today.ts (which day, which window, now/next); SQL: db/queries/dashboards/today.ts (tenant-scoped, bounded).
 */
import type { DbOrTx } from '@/db/client';
import { nextEventFrom, remindersDue, todayAttention, todayEvents, todayParticipants, type TodayAttentionRow, type TodayParticipant, unconfirmedAlerts } from '@/db/queries/dashboards/today';
import { dayWindow, nowAndNext, reminderWindow, todayHeading, type DeskStatus, deskStatus, type ReminderWindowHours } from '@/domain/dashboards/today';
import type { BookingRole, Channel, DeliveryStatus, EventStatus, ReminderKind } from '@/domain/vocabulary';
import { messageTitle } from '@/domain/sending/message-labels';

/** How many of today's events the page lists (the rest: "and N more", a link to the events list). */
const TODAY_EVENTS_LIMIT = 100;
/** How many participants an expanded event shows (the rest: "and N more — open the event"). */
const TODAY_PARTICIPANTS_LIMIT = 50;
/** How many due messages and attention items each section lists. */
const TODAY_LIST_LIMIT = 50;

export interface TodayEventJson {
  id: string;
  title: string;
  location: string | null;
  roomUrl: string | null;
  startsAt: string;
  endsAt: string;
  allDay: boolean;
  timeZone: string;
  status: EventStatus;
  statusReason: string | null;
  participants: number;
  cancelledBookings: number;
  /** Live participant bookings (hosts not counted) by attendance, and declined ones. */
  attendance: { confirmed: number; unconfirmed: number; declined: number };
}

export interface TodayReminderJson {
  id: string;
  kind: ReminderKind;
  /** Rule name, "Manual reminder", or the notification's type in plain words. */
  title: string;
  channel: Channel;
  dueAt: string;
  deskStatus: DeskStatus;
  deliveryId: string | null;
  deliveryStatus: DeliveryStatus | null;
  eventId: string;
  eventTitle: string;
  eventZone: string;
  role: BookingRole;
  contactName: string;
  /** Where it goes: the delivery's address once claimed, else the address for its channel (email or phone). */
  recipient: string;
}

/** A {@link TodayAttentionRow} as the API sends it: `updatedAt` an ISO 8601 UTC instant. */
export type TodayAttentionJson = Omit<TodayAttentionRow, 'updatedAt'> & { updatedAt: string };

/** Everything the page shows (GET /api/today answers with this). */
export interface TodayData {
  /** The instant the data was read at (the database's clock, invariant 10): "last refreshed". */
  now: string;
  zone: string;
  day: { start: string; end: string; date: string; hours: number; heading: string };
  events: { items: TodayEventJson[]; total: number; limit: number };
  /** Ids of today's events running now, and the next one to start today (null when none is left). */
  happening: { now: string[]; next: string | null };
  /** The next scheduled event after today (for "Nothing more today. Next: …"), or null. */
  nextAfterToday: { id: string; title: string; startsAt: string; timeZone: string } | null;
  reminders: { hours: ReminderWindowHours; from: string; to: string; items: TodayReminderJson[]; total: number; limit: number };
  attention: { items: TodayAttentionJson[]; total: number; counts: { dead: number; unknown: number; failed: number }; limit: number };
  /**
   * Events starting within 24 h with more unconfirmed participants than the organisation's threshold
   * (`unconfirmedAlertThreshold`; empty when it is off), soonest first.
   */
  unconfirmed: { threshold: number | null; items: { id: string; title: string; startsAt: string; timeZone: string; unconfirmed: number }[] };
}

/**
 * The today view of tenant `tenant` at `now` (UTC; the database's clock in the app, a fixed instant in tests)
 * with a reminders window of `hours`.
 * @throws Error when the tenant's zone is not a zone this runtime knows (domain/dashboards/today.ts dayWindow).
 */
export async function loadToday(
  db: DbOrTx,
  tenant: { id: string; timeZone: string; unconfirmedAlertThreshold?: number | null },
  now: Date,
  hours: ReminderWindowHours,
): Promise<TodayData> {
  const threshold = tenant.unconfirmedAlertThreshold ?? null;
  const day = dayWindow(tenant.timeZone, now);
  const win = reminderWindow(now, hours);
  const [events, nextAfter, due, attention, unconfirmed] = await Promise.all([
    todayEvents(db, tenant.id, day, TODAY_EVENTS_LIMIT),
    nextEventFrom(db, tenant.id, day.end),
    remindersDue(db, tenant.id, win, TODAY_LIST_LIMIT),
    todayAttention(db, tenant.id, day, TODAY_LIST_LIMIT),
    threshold === null ? Promise.resolve([]) : unconfirmedAlerts(db, tenant.id, now, threshold),
  ]);
  const hn = nowAndNext(events.items, now);
  return {
    now: now.toISOString(),
    zone: tenant.timeZone,
    day: { start: day.start.toISOString(), end: day.end.toISOString(), date: day.date, hours: day.hours, heading: todayHeading(day) },
    events: {
      total: events.total,
      limit: TODAY_EVENTS_LIMIT,
      items: events.items.map((e) => ({ ...e, startsAt: e.startsAt.toISOString(), endsAt: e.endsAt.toISOString() })),
    },
    happening: { now: hn.now.map((e) => e.id), next: hn.next?.id ?? null },
    unconfirmed: { threshold, items: unconfirmed.map((u) => ({ ...u, startsAt: u.startsAt.toISOString() })) },
    nextAfterToday: nextAfter ? { ...nextAfter, startsAt: nextAfter.startsAt.toISOString() } : null,
    reminders: {
      hours,
      from: win.from.toISOString(),
      to: win.to.toISOString(),
      total: due.total,
      limit: TODAY_LIST_LIMIT,
      items: due.items.map((r) => ({
        id: r.id,
        kind: r.kind,
        title: messageTitle(r),
        channel: r.channel,
        dueAt: r.dueAt.toISOString(),
        deskStatus: deskStatus(r.status, r.deliveryStatus),
        deliveryId: r.deliveryId,
        deliveryStatus: r.deliveryStatus,
        eventId: r.eventId,
        eventTitle: r.eventTitle,
        eventZone: r.eventZone,
        role: r.role,
        contactName: r.contactName,
        recipient: r.deliveryAddress ?? (r.channel === 'sms' ? (r.contactPhone ?? r.contactEmail) : r.contactEmail),
      })),
    },
    attention: {
      total: attention.total,
      counts: attention.counts,
      limit: TODAY_LIST_LIMIT,
      items: attention.items.map((a) => ({ ...a, updatedAt: a.updatedAt.toISOString() })),
    },
  };
}

/** An expanded event's participants (GET /api/today/events/:id/participants answers with this). */
export interface TodayParticipantsData {
  eventId: string;
  items: TodayParticipant[];
  /** Bookings in all (cancelled included), and those not cancelled. */
  total: number;
  live: number;
  limit: number;
}

/**
 * The first {@link TODAY_PARTICIPANTS_LIMIT} participants of tenant `tenantId`'s event `eventId` with the count of
 * all, each with the nudges requested today (`now`'s day in `zone`), or null when the event is not the tenant's.
 */
export async function loadTodayParticipants(db: DbOrTx, tenant: { id: string; timeZone: string }, eventId: string, now: Date): Promise<TodayParticipantsData | null> {
  const r = await todayParticipants(db, tenant.id, eventId, { limit: TODAY_PARTICIPANTS_LIMIT, nudgesSince: dayWindow(tenant.timeZone, now).start });
  return r ? { ...r, limit: TODAY_PARTICIPANTS_LIMIT } : null;
}
