/**
 * The event page's read model: the event, its bookings and each booking's messages (reminders, nudges,
 * notifications) with their deliveries, attempts and reports. Every query filters on `tenant_id` (invariant 9).
 * Instants are ISO-8601 UTC strings (the same object is rendered by the server page and sent as JSON).
 */
import { isUuid } from '@/domain/ids';
import { and, asc, desc, eq, inArray, or } from 'drizzle-orm';
import type { BookingRole, BookingStatus, Channel, DeliveryStatus, DomainEventType, EventStatus, OutcomeClass, Provider, ReminderKind, ReminderStatus } from '@/domain/vocabulary';
import { messageTitle } from '@/domain/sending/message-labels';
import type { DbOrTx } from '@/db/client';
import { bookings, contacts, deliveries, deliveryAttempts, events, reminderRules, reminders, tenants } from '@/db/schema';
import { reportsOfDeliveries, reportView, type ReportView } from '@/db/queries/reports/reports';
import { participantSummary, type ParticipantSummary } from '@/domain/scheduling/participant-summary';
import { applyParticipantFilter, isFiltered, PARTICIPANT_PAGE_SIZE, type ParticipantFilter } from '@/domain/scheduling/participant-filter';
import { eventCoverage, type Coverage } from '@/domain/scheduling/coverage';

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
// ---------------------------------------------------------------------------------------------------------
// Event page

/** One provider call of a delivery (instants ISO-8601 UTC). */
export interface AttemptView {
  attemptNo: number;
  startedAt: string;
  /** null while the call is in flight. */
  endedAt: string | null;
  outcome: OutcomeClass | null;
  errorCode: string | null;
  /** The error message, else the provider's own answer. */
  detail: string | null;
}

/** The delivery created for a reminder (the latest one, should there ever be several). */
export interface DeliveryView {
  id: string;
  /** The channel it goes out on (the same as its reminder's) and the provider it was claimed for. */
  channel: Channel;
  provider: Provider;
  status: DeliveryStatus;
  statusReason: string | null;
  messageKey: string;
  /** Email address, E.164 number or webhook URL. */
  address: string;
  /** As rendered at the first send attempt: the email subject, the SMS text, or "<type> → <url>" for a webhook; null before. */
  subject: string | null;
  providerMessageId: string | null;
  attemptCount: number;
  acceptedAt: string | null;
  nextAttemptAt: string | null;
  /** Dead letters: who must act to repair it. */
  repairOwner: string | null;
  /** Every provider call, first first. */
  attempts: AttemptView[];
  /** What the provider reported after accepting it (issue #10), in event-time order. */
  reports: ReportView[];
}

/**
 * One planned message to one booking on one channel: a rule reminder (one rule, one schedule version), a nudge
 * or a notification (one domain event).
 */
export interface ReminderView {
  id: string;
  /** `nudge`: a manual "remind participant" (no rule; `requestedBy` says who asked); `notification`: about a domain event. */
  kind: ReminderKind;
  requestedBy: string | null;
  ruleId: string | null;
  /**
   * The row's title (domain/sending/message-labels.ts messageTitle): the rule's name, "Manual reminder" for a nudge,
   * the notification's type in plain words ("Booking confirmed", "Event rescheduled").
   */
  ruleName: string;
  /** Notifications only: the domain event type it tells about. */
  notificationType: DomainEventType | null;
  /** When quiet hours moved the due instant: the instant it was due before (ISO-8601 UTC), else null. */
  deferredFrom: string | null;
  template: string;
  channel: Channel;
  scheduleVersion: number;
  status: ReminderStatus;
  statusReason: string | null;
  dueAt: string;
  expiresAt: string;
  dispatchedAt: string | null;
  delivery: DeliveryView | null;
}

/** A participant of the event with every reminder planned for them, ordered by due instant. */
export interface BookingView {
  id: string;
  role: BookingRole;
  status: BookingStatus;
  statusReason: string | null;
  /** For `external` bookings: the guest's own tenant. */
  guestTenantId: string | null;
  contact: { id: string; name: string; email: string; phone: string | null } | null;
  /** The zone the person's quiet hours are kept in: their own, else the tenant's (as server/notifications/notify.ts reads them). */
  personZone: string;
  /** The person's own IANA zone as stored on their contact, or null when none is on file (their card says which). */
  ownZone: string | null;
  /** When the booking was made (ISO-8601 UTC). */
  bookedAt: string;
  /**
   * A cancelled booking of a person who was booked again on this event: the id of their newer booking (the
   * page shows the cancelled one as history beside it). Null otherwise.
   */
  rebookedAs: string | null;
  reminders: ReminderView[];
  /** One line about their messages (domain/scheduling/participant-summary.ts), over every message, not only this page's. */
  summary: ParticipantSummary;
  /** Row version: cancelling the booking carries it (invariant 11). */
  version: number;
}

/** The event header data. */
export interface EventView {
  id: string;
  title: string;
  description: string | null;
  location: string | null;
  startsAt: string;
  endsAt: string;
  allDay: boolean;
  timeZone: string;
  roomUrl: string | null;
  /** The note for participants per language ("" = all languages), null for none (domain/scheduling/event-note.ts). */
  eventNote: Record<string, string> | null;
  /** The event's own room-open lead, else the tenant's. */
  roomOpenLeadMinutes: number;
  status: EventStatus;
  statusReason: string | null;
  scheduleVersion: number;
  /** Row version (bumped on every change, not only timing): an edit or cancel carries it (invariant 11). */
  version: number;
  updatedAt: string;
}

/** Everything the event page (and its live timeline) shows. */
export interface EventPage {
  event: EventView;
  /** Every booking when no filter was asked for; else the one page of matching bookings. */
  bookings: BookingView[];
  /** How many people there are and how many the filter matched (the list's heading and pager). */
  participants: ParticipantCounts;
  /** Coverage of the current schedule over every booking (not only the page shown). */
  coverage: Coverage;
}

/** Counts for the participants heading, the pager and the coverage line. */
export interface ParticipantCounts {
  /** People: bookings that are not an earlier booking of someone booked again. */
  people: number;
  /** Of those, with a confirmed booking. */
  confirmed: number;
  /** People per role. */
  byRole: Record<BookingRole, number>;
  /** Messages of any kind the provider took (the sum of every booking's summary `sent`). */
  sent: number;
  /** Bookings the filter matched (all bookings without one). */
  matching: number;
  /** 1-based page shown and its size (without a filter: 1 and `matching`). */
  page: number;
  pageSize: number;
  /** A search or filter narrows the list. */
  filtered: boolean;
}

const roleOrder: Record<BookingRole, number> = { attendee: 0, external: 1, host: 2 };

/**
 * The event `eventId` of tenant `tenantId` with its bookings (contact, role, status) and, per booking,
 * all its reminders of every schedule version ordered by due instant, each with its rule and its delivery.
 * With `filter` (domain/scheduling/participant-filter.ts) only one page of the matching bookings is returned
 * and only their deliveries, attempts and reports are read; summaries, counts and coverage are always over every
 * booking (from one light query of each reminder's newest delivery status).
 * @returns null when the id is malformed or the event does not belong to the tenant.
 */
export async function getEventPage(db: DbOrTx, tenantId: string, eventId: string, filter: ParticipantFilter | null = null, pageSize?: number): Promise<EventPage | null> {
  if (!isUuid(eventId)) return null;
  const [row] = await db
    .select({ event: events, tenantLead: tenants.roomOpenLeadMinutes, tenantZone: tenants.timeZone })
    .from(events)
    .innerJoin(tenants, eq(tenants.id, events.tenantId))
    .where(and(eq(events.id, eventId), eq(events.tenantId, tenantId)))
    .limit(1);
  if (!row) return null;
  const e = row.event;

  // A guest's contact may live in the guest's own tenant: visible here only through this tenant's booking.
  const bookingRows = await db
    .select({
      booking: bookings,
      contact: { id: contacts.id, name: contacts.name, email: contacts.email, phone: contacts.phone },
      contactZone: contacts.timeZone,
    })
    .from(bookings)
    .leftJoin(
      contacts,
      and(
        eq(contacts.id, bookings.contactId),
        or(eq(contacts.tenantId, tenantId), eq(contacts.tenantId, bookings.guestTenantId)),
      ),
    )
    .where(and(eq(bookings.eventId, e.id), eq(bookings.tenantId, tenantId)));

  const reminderRows = await db
    .select({
      reminder: reminders,
      ruleName: reminderRules.name,
      template: reminderRules.template,
    })
    .from(reminders)
    .leftJoin(reminderRules, and(eq(reminderRules.id, reminders.ruleId), eq(reminderRules.tenantId, tenantId)))
    .where(and(eq(reminders.eventId, e.id), eq(reminders.tenantId, tenantId)))
    .orderBy(asc(reminders.dueAt), asc(reminders.scheduleVersion), asc(reminderRules.name), asc(reminders.channel), asc(reminders.id));

  // The newest delivery's status of every reminder of the event: summaries, the problem filter and coverage.
  const statusRows = await db
    .select({ reminderId: deliveries.reminderId, status: deliveries.status })
    .from(deliveries)
    .innerJoin(reminders, and(eq(reminders.id, deliveries.reminderId), eq(reminders.tenantId, tenantId)))
    .where(and(eq(deliveries.tenantId, tenantId), eq(reminders.eventId, e.id)))
    .orderBy(desc(deliveries.createdAt));
  const statusOf = new Map<string, DeliveryStatus>();
  for (const d of statusRows) if (d.reminderId && !statusOf.has(d.reminderId)) statusOf.set(d.reminderId, d.status);

  const remindersByBooking = new Map<string, ReminderView[]>();
  for (const r of reminderRows) {
    const m = r.reminder;
    const list = remindersByBooking.get(m.bookingId) ?? [];
    list.push({
      id: m.id,
      kind: m.kind,
      requestedBy: m.requestedBy,
      ruleId: m.ruleId,
      ruleName: messageTitle({ kind: m.kind, ruleName: r.ruleName, notificationType: m.notificationType }),
      notificationType: m.notificationType,
      deferredFrom: isoOrNull(m.deferredFrom),
      template: m.template ?? r.template ?? '',
      channel: m.channel,
      scheduleVersion: m.scheduleVersion,
      status: m.status,
      statusReason: m.statusReason,
      dueAt: iso(m.dueAt),
      expiresAt: iso(m.expiresAt),
      dispatchedAt: isoOrNull(m.dispatchedAt),
      delivery: null,
    });
    remindersByBooking.set(m.bookingId, list);
  }

  // A person booked again after a cancellation has several bookings (one live at most, index
  // bookings_event_contact_live_uq): each cancelled one points at the newest booking made after it.
  const byContact = new Map<string, (typeof bookingRows)[number]['booking'][]>();
  for (const { booking } of bookingRows) byContact.set(booking.contactId, [...(byContact.get(booking.contactId) ?? []), booking]);
  const newerOf = (b: (typeof bookingRows)[number]['booking']) =>
    (byContact.get(b.contactId) ?? [])
      .filter((o) => o.id !== b.id && o.createdAt.getTime() >= b.createdAt.getTime())
      .sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime())[0];
  const summaryOf = (list: ReminderView[]) =>
    participantSummary(list.map((r) => ({ ...r, deliveryStatus: statusOf.get(r.id) ?? null })), e.scheduleVersion, e.timeZone);
  const allViews = bookingRows
    .map(({ booking: b, contact, contactZone }): BookingView => {
      const list = remindersByBooking.get(b.id) ?? [];
      return {
        id: b.id,
        role: b.role,
        status: b.status,
        statusReason: b.statusReason,
        guestTenantId: b.guestTenantId,
        contact,
        personZone: contactZone ?? row.tenantZone,
        ownZone: contactZone ?? null,
        bookedAt: iso(b.createdAt),
        rebookedAs: b.status === 'cancelled' ? (newerOf(b)?.id ?? null) : null,
        reminders: list,
        summary: summaryOf(list),
        version: b.version,
      };
    })
    // By role, then name; one person's bookings together: the live one first, then history, newest first.
    .sort(
      (a, b) =>
        roleOrder[a.role] - roleOrder[b.role] ||
        (a.contact?.name ?? '').localeCompare(b.contact?.name ?? '') ||
        (a.contact?.email ?? '').localeCompare(b.contact?.email ?? '') ||
        Number(a.status === 'cancelled') - Number(b.status === 'cancelled') ||
        b.bookedAt.localeCompare(a.bookedAt) ||
        a.id.localeCompare(b.id),
    );
  const { items: bookingViews, matching } = filter ? applyParticipantFilter(allViews, filter, pageSize) : { items: allViews, matching: allViews.length };
  const live = allViews.filter((b) => b.rebookedAs === null);
  const participants: ParticipantCounts = {
    people: live.length,
    confirmed: live.filter((b) => b.status === 'confirmed').length,
    byRole: { attendee: live.filter((b) => b.role === 'attendee').length, external: live.filter((b) => b.role === 'external').length, host: live.filter((b) => b.role === 'host').length },
    sent: allViews.reduce((n, b) => n + b.summary.sent, 0),
    matching,
    page: filter?.page ?? 1,
    pageSize: filter ? (pageSize ?? PARTICIPANT_PAGE_SIZE) : matching,
    filtered: !!filter && isFiltered(filter),
  };
  const coverage = eventCoverage(
    allViews.flatMap((b) => b.reminders.map((r) => ({ ...r, deliveryStatus: statusOf.get(r.id) ?? null, bookingCancelled: b.status === 'cancelled' }))),
    e.scheduleVersion,
  );

  // Full deliveries (attempts, reports) only for the reminders shown.
  const reminderIds = bookingViews.flatMap((b) => b.reminders.map((r) => r.id));
  const deliveryRows =
    reminderIds.length === 0
      ? []
      : await db
          .select()
          .from(deliveries)
          .where(and(eq(deliveries.tenantId, tenantId), inArray(deliveries.reminderId, reminderIds)))
          .orderBy(desc(deliveries.createdAt));
  const deliveryIds = deliveryRows.map((d) => d.id);
  const attemptRows =
    deliveryIds.length === 0
      ? []
      : await db
          .select()
          .from(deliveryAttempts)
          .where(and(eq(deliveryAttempts.tenantId, tenantId), inArray(deliveryAttempts.deliveryId, deliveryIds)))
          .orderBy(asc(deliveryAttempts.attemptNo));
  const attemptsByDelivery = new Map<string, AttemptView[]>();
  for (const a of attemptRows) {
    const list = attemptsByDelivery.get(a.deliveryId) ?? [];
    list.push({
      attemptNo: a.attemptNo,
      startedAt: iso(a.startedAt),
      endedAt: isoOrNull(a.endedAt),
      outcome: a.outcome,
      errorCode: a.errorCode,
      detail: a.errorMessage ?? a.providerResponse,
    });
    attemptsByDelivery.set(a.deliveryId, list);
  }
  const reportsByDelivery = new Map<string, ReportView[]>();
  for (const r of await reportsOfDeliveries(db, deliveryIds)) {
    const list = reportsByDelivery.get(r.deliveryId!) ?? [];
    list.push(reportView(r));
    reportsByDelivery.set(r.deliveryId!, list);
  }
  const deliveryByReminder = new Map<string, DeliveryView>();
  for (const d of deliveryRows) {
    if (!d.reminderId || deliveryByReminder.has(d.reminderId)) continue; // newest first: keep the first seen
    deliveryByReminder.set(d.reminderId, {
      id: d.id,
      channel: d.channel,
      provider: d.provider,
      status: d.status,
      statusReason: d.statusReason,
      messageKey: d.messageKey,
      address: d.address,
      subject: d.subject,
      providerMessageId: d.providerMessageId,
      attemptCount: d.attemptCount,
      acceptedAt: isoOrNull(d.acceptedAt),
      nextAttemptAt: isoOrNull(d.nextAttemptAt),
      repairOwner: d.repairOwner,
      attempts: attemptsByDelivery.get(d.id) ?? [],
      reports: reportsByDelivery.get(d.id) ?? [],
    });
  }

  for (const b of bookingViews) for (const r of b.reminders) r.delivery = deliveryByReminder.get(r.id) ?? null;

  return {
    event: {
      id: e.id,
      title: e.title,
      description: e.description,
      location: e.location,
      startsAt: iso(e.startsAt),
      endsAt: iso(e.endsAt),
      allDay: e.allDay,
      timeZone: e.timeZone,
      roomUrl: e.roomUrl,
      eventNote: e.eventNote ?? null,
      roomOpenLeadMinutes: e.roomOpenLeadMinutes ?? row.tenantLead,
      status: e.status,
      statusReason: e.statusReason,
      scheduleVersion: e.scheduleVersion,
      version: e.version,
      updatedAt: iso(e.updatedAt),
    },
    bookings: bookingViews,
    participants,
    coverage,
  };
}
