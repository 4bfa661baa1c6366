/**
 * Notification (issue #9, domain event `booking_cancelled`): the person's place at an event was cancelled,
 * with the reason staff typed, if any. Subject: "Your place at Intro workshop was cancelled".
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
export const bookingCancelledDataSchema = notificationTemplateFieldsSchema.superRefine(checkNotificationTemplateData);

type BookingCancelledProps = z.infer<typeof bookingCancelledDataSchema>;

/** Subject line: "Your place at Intro workshop was cancelled" (one line, right-to-left title isolated). */
export function bookingCancelledSubject(data: BookingCancelledProps): string {
  const { dir } = messageLocale(data.locale);
  return oneLine(sentenceText(['Your place at ', { typed: data.eventTitle }, ' was cancelled'], dir));
}

/** The booking-cancelled email. Props must satisfy {@link bookingCancelledDataSchema}. */
export default function BookingCancelled(props: BookingCancelledProps) {
  const { dir } = messageLocale(props.locale);
  const time = formatEventTime(props);
  const intro: Sentence = ['Your place at ', { typed: props.eventTitle }, ` on ${eventShortWhen(props)} was cancelled.`];
  const contact: Sentence = ['If you did not expect this, please contact ', { typed: props.tenantName }, '.'];
  return (
    <Layout
      preview={intro}
      heading={['Your place at ', { typed: props.eventTitle }, ' was cancelled']}
      tenantName={props.tenantName}
      locale={props.locale}
      preferencesUrl={props.preferencesUrl}
      unsubscribeUrl={props.unsubscribeUrl}
      unsubscribeCategory={props.unsubscribeCategory}
    >
      <SentenceParagraphs sentences={[greeting(props.recipientName), intro]} dir={dir} />
      <Details>
        <DetailRow label="When" value={time.eventZoneLine} secondary={time.recipientZoneLine} />
        {props.location ? <DetailRow label="Where" value={props.location} typed /> : null}
      </Details>
      <Reason reason={props.reason} />
      <Text style={styles.text}>The attached calendar cancellation removes it from your calendar.</Text>
      <SentenceParagraphs sentences={[contact]} dir={dir} />
    </Layout>
  );
}

BookingCancelled.PreviewProps = {
  tenantName: 'Studio Noord',
  recipientName: 'Sam Okafor',
  role: 'external',
  eventTitle: 'Quarterly planning',
  startsAt: '2027-11-07T15:00:00.000Z',
  endsAt: '2027-11-07T16:30:00.000Z',
  allDay: false,
  eventTimeZone: 'America/New_York',
  recipientTimeZone: 'Europe/Amsterdam',
  locale: 'en',
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
  reason: 'Cancelled at your request by phone.',
} satisfies BookingCancelledProps;
