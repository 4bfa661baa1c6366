/**
 * Notification (issue #9, domain event `event_cancelled`, an essential type): the event will not take place.
 * Says when it would have been and the reason staff typed, if any. Subject: "Life drawing is cancelled".
 */
import { Text } from '@react-email/components';
import type { z } from 'zod';
import { formatEventTime } from '@/domain/format-time';
import {
  DetailRow,
  Details,
  Layout,
  Reason,
  SentenceParagraphs,
  eventShortWhen,
  greeting,
  messageLocale,
  oneLine,
  sentenceText,
  styles,
  type Sentence,
} from './layout';
import { checkNotificationTemplateData, notificationTemplateFieldsSchema } from './schema';

/** Notification template data (the shared fields plus the notification fields), no extra requirements. */
export const eventCancelledDataSchema = notificationTemplateFieldsSchema.superRefine(checkNotificationTemplateData);

type EventCancelledProps = z.infer<typeof eventCancelledDataSchema>;

/** Subject line: "Life drawing is cancelled" (one line, right-to-left title isolated). */
export function eventCancelledSubject(data: EventCancelledProps): string {
  const { dir } = messageLocale(data.locale);
  return oneLine(sentenceText([{ typed: data.eventTitle }, ' is cancelled'], dir));
}

/** The event-cancelled email. Props must satisfy {@link eventCancelledDataSchema}. */
export default function EventCancelled(props: EventCancelledProps) {
  const { dir } = messageLocale(props.locale);
  const time = formatEventTime(props);
  const when = eventShortWhen(props);
  const intro: Sentence = [
    { typed: props.eventTitle },
    props.allDay ? ` is cancelled. It would have been on ${when}.` : ` is cancelled. It would have started ${when}.`,
  ];
  return (
    <Layout
      preview={intro}
      heading={[{ typed: props.eventTitle }, ' is cancelled']}
      tenantName={props.tenantName}
      locale={props.locale}
      preferencesUrl={props.preferencesUrl}
      unsubscribeUrl={props.unsubscribeUrl}
      unsubscribeCategory={props.unsubscribeCategory}
    >
      <SentenceParagraphs sentences={[greeting(props.recipientName), intro]} dir={dir} />
      <Details>
        <DetailRow label="Was planned for" value={time.eventZoneLine} secondary={time.recipientZoneLine} />
        {props.location ? <DetailRow label="Where" value={props.location} typed /> : null}
      </Details>
      <Reason reason={props.reason} />
      <Text style={styles.text}>Your place is cancelled with it; you do not need to do anything. The attached calendar cancellation removes it from your calendar.</Text>
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
