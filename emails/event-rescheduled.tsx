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
import { formatShortWhen, type FormattedEventTime } from '@/domain/format-time';
import {
  DetailRow,
  Details,
  Layout,
  LinkRow,
  Notes,
  SentenceParagraphs,
  eventShortWhen,
  eventTime,
  greeting,
  messageLocale,
  oneLine,
  styles,
  ActionLinks,
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
export function previousEventTime(data: EventRescheduledProps): FormattedEventTime {
  const p = previousTiming(data);
  const line = eventTime({
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
 * The old start in compact form, in the zone it was planned in and the message's locale: "Thu 1 Jul, 10:00 WEST"
 * (en-GB), or "Mon 18 Oct (all day)".
 * @throws Error naming the field when a previous field is null or would not format.
 */
export function previousShortWhen(data: EventRescheduledProps): string {
  const p = previousTiming(data);
  const { lang, words } = messageLocale(data.locale);
  return formatShortWhen({ at: p.previousStartsAt, timeZone: p.previousTimeZone, locale: lang, allDay: p.previousAllDay, words });
}

/** Subject line: "Python workshop has moved" (one line, right-to-left title isolated). */
export function eventRescheduledSubject(data: EventRescheduledProps): string {
  const m = messageLocale(data.locale);
  return oneLine(m.plain(m.text['event-rescheduled'].subject, { eventTitle: { typed: data.eventTitle } }));
}

/** The event-rescheduled email. Props must satisfy {@link eventRescheduledDataSchema}. */
export default function EventRescheduled(props: EventRescheduledProps) {
  const m = messageLocale(props.locale);
  const { common, 'event-rescheduled': t } = m.text;
  const now = eventTime(props);
  const was = previousEventTime(props);
  const title = { typed: props.eventTitle };
  const intro = m.sentence(t.intro, { eventTitle: title, was: previousShortWhen(props), now: eventShortWhen(props) });
  return (
    <Layout
      preview={intro}
      heading={m.sentence(t.subject, { eventTitle: title })}
      tenantName={props.tenantName}
      locale={props.locale}
      preferencesUrl={props.preferencesUrl}
      unsubscribeUrl={props.unsubscribeUrl}
      unsubscribeCategory={props.unsubscribeCategory}
    >
      <SentenceParagraphs sentences={[greeting(m, props.recipientName), intro]} dir={m.dir} />
      <ActionLinks data={props} m={m} />
      <Details>
        <DetailRow label={m.plain(t.now)} value={now.eventZoneLine} secondary={now.recipientZoneLine} />
        <DetailRow label={m.plain(t.was)} value={was.eventZoneLine} />
        {props.location ? <DetailRow label={m.plain(common.where)} value={props.location} typed /> : null}
        {props.roomUrl ? <LinkRow label={m.plain(common.onlineRoom)} href={props.roomUrl} /> : null}
      </Details>
      <Notes notes={props.notes} m={m} />
      <Text style={styles.text}>{m.plain(t.closing)}</Text>
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
  eventNote: '',
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
