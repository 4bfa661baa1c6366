/**
 * Notification (issue #9, domain event `event_cancelled`, an essential type): the event will not take place.
 * Says when it would have been and the reason staff typed, if any. Subject: "Life drawing is cancelled".
 */
import { Text } from '@react-email/components';
import type { z } from 'zod';
import {
  DetailRow,
  Details,
  Layout,
  Reason,
  SentenceParagraphs,
  allDayValue,
  eventShortWhen,
  eventTime,
  greeting,
  messageLocale,
  oneLine,
  styles,
} from './layout';
import { checkNotificationTemplateData, notificationTemplateFieldsSchema } from './schema';

/** Notification template data (the shared fields plus the notification fields), no extra requirements. */
export const eventCancelledDataSchema = notificationTemplateFieldsSchema.superRefine(checkNotificationTemplateData);

export type EventCancelledProps = z.infer<typeof eventCancelledDataSchema>;

/** Subject line: "Life drawing is cancelled" (one line, right-to-left title isolated). */
export function eventCancelledSubject(data: EventCancelledProps): string {
  const m = messageLocale(data.locale);
  return oneLine(m.plain(m.text['event-cancelled'].subject, { eventTitle: { typed: data.eventTitle } }));
}

/** The event-cancelled email. Props must satisfy {@link eventCancelledDataSchema}. */
export default function EventCancelled(props: EventCancelledProps) {
  const m = messageLocale(props.locale);
  const { common, 'event-cancelled': t } = m.text;
  const time = eventTime(props);
  const title = { typed: props.eventTitle };
  const intro = m.sentence(t.intro, { allDay: allDayValue(props), eventTitle: title, when: eventShortWhen(props) });
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
      <Details>
        <DetailRow label={m.plain(t.wasPlannedFor)} value={time.eventZoneLine} secondary={time.recipientZoneLine} />
        {props.location ? <DetailRow label={m.plain(common.where)} value={props.location} typed /> : null}
      </Details>
      <Reason reason={props.reason} m={m} />
      <Text style={styles.text}>{m.plain(t.closing)}</Text>
    </Layout>
  );
}

EventCancelled.PreviewProps = {
  tenantName: 'Studio Noord',
  recipientName: 'Ana de Vries',
  role: 'attendee',
  eventTitle: 'Life drawing',
  startsAt: '2027-05-12T17:00:00.000Z',
  endsAt: '2027-05-12T19:00:00.000Z',
  allDay: false,
  eventTimeZone: 'Europe/Amsterdam',
  recipientTimeZone: 'Asia/Kolkata',
  locale: 'en-GB',
  location: 'Studio Noord, Kanaalstraat 12, Amsterdam',
  notes: null,
  eventNote: '',
  roomUrl: null,
  roomOpensAt: null,
  participantCount: null,
  preferencesUrl: 'https://punctual.example.com/preferences/sample',
  scheduleVersion: 1,
  previousStartsAt: null,
  previousEndsAt: null,
  previousTimeZone: null,
  previousAllDay: null,
  reason: 'Our model is ill. We are sorry for the short notice.',
} satisfies EventCancelledProps;
