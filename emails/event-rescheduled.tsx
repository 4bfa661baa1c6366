/**
 * Notification (issue #9, domain event `event_rescheduled`): the event's timing changed. States BOTH the old
 * and the new time, each in the zone the event was planned in at that time (usually the same zone), and the
 * new time in the recipient's zone when that differs. Subject: "Python workshop has moved".
 *
 * The old time gets no "(your time)" line: the reader needs to know when to come now; the old line only
 * identifies which appointment moved.
 */
import { Text } from '@react-email/components';
import type { z } from 'zod';
import { formatEventTime, formatShortWhen, type FormattedEventTime } from '@/domain/format-time';
import {
  DetailRow,
  Details,
  Layout,
  LinkRow,
  Notes,
  SentenceParagraphs,
  eventShortWhen,
  greeting,
  messageLocale,
  oneLine,
  sentenceText,
  styles,
  type Sentence,
} from './layout';
import { checkNotificationTemplateData, checkRescheduleTemplateData, notificationTemplateFieldsSchema } from './schema';

/**
 * Notification template data where the previous timing is required: `previousStartsAt`, `previousTimeZone`
 * and `previousAllDay` must not be null ("previousStartsAt: required for a reschedule notice");
 * `previousEndsAt` may be null (the old end was unknown).
 */
export const eventRescheduledDataSchema = notificationTemplateFieldsSchema
  .superRefine(checkNotificationTemplateData)
  .superRefine(checkRescheduleTemplateData);

export type EventRescheduledProps = z.infer<typeof eventRescheduledDataSchema>;

/** The previous timing fields, non-null (as the schema guarantees for this template). */
interface PreviousTiming {
  previousStartsAt: string;
  previousEndsAt: string | null;
  previousTimeZone: string;
  previousAllDay: boolean;
}

/**
 * The previous timing, or an Error naming the first missing field (the schema rejects such data first; this
 * keeps a caller that skipped it from printing "Invalid DateTime").
 */
function previousTiming(data: EventRescheduledProps): PreviousTiming {
  const { previousStartsAt, previousEndsAt, previousTimeZone, previousAllDay } = data;
  if (previousStartsAt === null) throw new Error('previousStartsAt: required for a reschedule notice');
  if (previousTimeZone === null) throw new Error('previousTimeZone: required for a reschedule notice');
  if (previousAllDay === null) throw new Error('previousAllDay: required for a reschedule notice');
  return { previousStartsAt, previousEndsAt, previousTimeZone, previousAllDay };
}

/**
 * The old time as a full line in the zone it was planned in, e.g. "Thursday, 1 July 2027, 10:00–11:00 WEST"
 * (en-GB), from formatEventTime. Its `recipientZoneLine` is always null (see the module comment).
 * @throws Error naming the field when a previous field is null or would not format.
 */
function previousEventTime(data: EventRescheduledProps): FormattedEventTime {
  const p = previousTiming(data);
  const line = formatEventTime({
    startsAt: p.previousStartsAt,
    endsAt: p.previousEndsAt,
    allDay: p.previousAllDay,
    eventTimeZone: p.previousTimeZone,
    recipientTimeZone: null,
    locale: data.locale,
  });
  return { eventZoneLine: line.eventZoneLine, recipientZoneLine: null };
}

/**
 * The old start in compact form, in the zone it was planned in: "Thu 1 Jul, 10:00 WEST" (en-GB), or
 * "Mon 18 Oct (all day)".
 * @throws Error naming the field when a previous field is null or would not format.
 */
export function previousShortWhen(data: EventRescheduledProps): string {
  const p = previousTiming(data);
  return formatShortWhen({ at: p.previousStartsAt, timeZone: p.previousTimeZone, locale: data.locale, allDay: p.previousAllDay });
}

/** Subject line: "Python workshop has moved" (one line, right-to-left title isolated). */
export function eventRescheduledSubject(data: EventRescheduledProps): string {
  const { dir } = messageLocale(data.locale);
  return oneLine(sentenceText([{ typed: data.eventTitle }, ' has moved'], dir));
}

/** The event-rescheduled email. Props must satisfy {@link eventRescheduledDataSchema}. */
export default function EventRescheduled(props: EventRescheduledProps) {
  const { dir } = messageLocale(props.locale);
  const now = formatEventTime(props);
  const was = previousEventTime(props);
  const intro: Sentence = [
    { typed: props.eventTitle },
    ` has moved. Was: ${previousShortWhen(props)} \u00b7 Now: ${eventShortWhen(props)}.`,
  ];
  return (
    <Layout
      preview={intro}
      heading={[{ typed: props.eventTitle }, ' has moved']}
      tenantName={props.tenantName}
      locale={props.locale}
      preferencesUrl={props.preferencesUrl}
      unsubscribeUrl={props.unsubscribeUrl}
      unsubscribeCategory={props.unsubscribeCategory}
    >
      <SentenceParagraphs sentences={[greeting(props.recipientName), intro]} dir={dir} />
      <Details>
        <DetailRow label="Now" value={now.eventZoneLine} secondary={now.recipientZoneLine} />
        <DetailRow label="Was" value={was.eventZoneLine} />
        {props.location ? <DetailRow label="Where" value={props.location} typed /> : null}
        {props.roomUrl ? <LinkRow label="Online room" href={props.roomUrl} /> : null}
      </Details>
      <Notes notes={props.notes} />
      <Text style={styles.text}>The calendar entry is updated.</Text>
    </Layout>
  );
}

EventRescheduled.PreviewProps = {
  tenantName: 'Acme Events',
  recipientName: 'Priya Raman',
  role: 'attendee',
  eventTitle: 'Python workshop',
  startsAt: '2027-07-02T08:00:00.000Z',
  endsAt: '2027-07-02T09:00:00.000Z',
  allDay: false,
  eventTimeZone: 'Europe/Berlin',
  recipientTimeZone: 'America/New_York',
  locale: 'en-GB',
  location: 'Acme Events, Torstraße 1, Berlin',
  notes: null,
  roomUrl: 'https://rooms.example.com/r/python-workshop',
  roomOpensAt: '2027-07-02T07:45:00.000Z',
  participantCount: null,
  preferencesUrl: 'https://punctual.example.com/preferences/sample',
  scheduleVersion: 2,
  previousStartsAt: '2027-07-01T08:00:00.000Z',
  previousEndsAt: '2027-07-01T09:00:00.000Z',
  previousTimeZone: 'Europe/Berlin',
  previousAllDay: false,
  reason: null,
} satisfies EventRescheduledProps;
