/**
 * The shapes of the event page's read model (db/queries/scheduling/event-page.ts `getEventPage`): what the server
 * page renders and the JSON the browser gets. Instants are ISO-8601 UTC strings.
 */
import type { AttendanceSource, AttendanceState } from '@/domain/scheduling/attendance';
import type { BookingRole, BookingStatus, Channel, DeliveryStatus, DomainEventType, EventStatus, OutcomeClass, Provider, ReminderKind, ReminderStatus } from '@/domain/vocabulary';
import type { ReportView } from '@/db/queries/reports/reports';
import type { ParticipantSummary } from '@/domain/scheduling/participant-summary';
import type { Coverage } from '@/domain/scheduling/coverage';

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
  /** Whether the person said they will come (domain/scheduling/attendance.ts), who answered and when (ISO-8601 UTC). */
  attendance: { state: AttendanceState; source: AttendanceSource | null; by: string | null; at: string | null; tentativeAt: string | null };
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

