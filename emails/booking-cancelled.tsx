/**
 * Notification (issue #9, domain event `booking_cancelled`): the person's place at an event was cancelled,
 * with the reason staff typed, if any. Subject: "Your place at Intro workshop was cancelled".
 */
import { Text } from '@react-email/components';
import type { z } from 'zod';
import {
  DetailRow,
  Details,
  Layout,
  Reason,
  SentenceParagraphs,
  eventShortWhen,
  eventTime,
  greeting,
  messageLocale,
  oneLine,
  styles,
} from './layout';
import { checkNotificationTemplateData, notificationTemplateFieldsSchema } from './schema';

/** Notification template data (the shared fields plus the notification fields), no extra requirements. */
export const bookingCancelledDataSchema = notificationTemplateFieldsSchema.superRefine(checkNotificationTemplateData);

export type BookingCancelledProps = z.infer<typeof bookingCancelledDataSchema>;

/** Subject line: "Your place at Intro workshop was cancelled" (one line, right-to-left title isolated). */
export function bookingCancelledSubject(data: BookingCancelledProps): string {
  const m = messageLocale(data.locale);
  return oneLine(m.plain(m.text['booking-cancelled'].subject, { eventTitle: { typed: data.eventTitle } }));
}

/** The booking-cancelled email. Props must satisfy {@link bookingCancelledDataSchema}. */
export default function BookingCancelled(props: BookingCancelledProps) {
  const m = messageLocale(props.locale);
  const { common, 'booking-cancelled': t } = m.text;
  const time = eventTime(props);
  const title = { typed: props.eventTitle };
  const intro = m.sentence(t.intro, { eventTitle: title, when: eventShortWhen(props) });
  const contact = m.sentence(t.contact, { tenantName: { typed: props.tenantName } });
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
        <DetailRow label={m.plain(common.when)} value={time.eventZoneLine} secondary={time.recipientZoneLine} />
        {props.location ? <DetailRow label={m.plain(common.where)} value={props.location} typed /> : null}
      </Details>
      <Reason reason={props.reason} m={m} />
      <Text style={styles.text}>{m.plain(t.calendar)}</Text>
      <SentenceParagraphs sentences={[contact]} dir={m.dir} />
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
  reason: 'Cancelled at your request by phone.',
} satisfies BookingCancelledProps;
