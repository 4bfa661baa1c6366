/**
 * Notification (issue #9, domain event `booking_confirmed`): the person's place at an event is confirmed.
 * Subject: "You're booked: Intro workshop". The message says a calendar entry is attached (the .ics is added
 * by the sender, not by this template).
 */
import { Text } from '@react-email/components';
import type { z } from 'zod';
import { formatEventTime } from '@/domain/format-time';
import {
  DetailRow,
  Details,
  Layout,
  LinkRow,
  Notes,
  SentenceParagraphs,
  eventStartsPhrase,
  greeting,
  messageLocale,
  oneLine,
  sentenceText,
  styles,
  type Sentence,
} from './layout';
import { checkNotificationTemplateData, notificationTemplateFieldsSchema } from './schema';

/** Notification template data (the shared fields plus the notification fields), no extra requirements. */
export const bookingConfirmedDataSchema = notificationTemplateFieldsSchema.superRefine(checkNotificationTemplateData);

type BookingConfirmedProps = z.infer<typeof bookingConfirmedDataSchema>;

/**
 * Subject line: "You're booked: Intro workshop" (a right-to-left title is isolated so its punctuation stays
 * with it; one line).
 */
export function bookingConfirmedSubject(data: BookingConfirmedProps): string {
  const { dir } = messageLocale(data.locale);
  return oneLine(sentenceText(["You're booked: ", { typed: data.eventTitle }], dir));
}

/** The booking-confirmed email. Props must satisfy {@link bookingConfirmedDataSchema}. */
export default function BookingConfirmed(props: BookingConfirmedProps) {
  const { dir } = messageLocale(props.locale);
  const time = formatEventTime(props);
  const intro: Sentence = ['Your place at ', { typed: props.eventTitle }, ` is confirmed. It ${eventStartsPhrase(props)}.`];
  const guestLine: Sentence | null =
    props.role === 'external' ? ['You are invited as a guest of ', { typed: props.tenantName }, '.'] : null;
  return (
    <Layout
      preview={intro}
      heading={["You're booked: ", { typed: props.eventTitle }]}
      tenantName={props.tenantName}
      locale={props.locale}
      preferencesUrl={props.preferencesUrl}
      unsubscribeUrl={props.unsubscribeUrl}
      unsubscribeCategory={props.unsubscribeCategory}
    >
      <SentenceParagraphs sentences={[greeting(props.recipientName), intro, guestLine]} dir={dir} />
      <Details>
        <DetailRow label="When" value={time.eventZoneLine} secondary={time.recipientZoneLine} />
        {props.location ? <DetailRow label="Where" value={props.location} typed /> : null}
        {props.roomUrl ? <LinkRow label="Online room" href={props.roomUrl} /> : null}
      </Details>
      <Notes notes={props.notes} />
      <Text style={styles.text}>A calendar entry is attached.</Text>
    </Layout>
  );
}

BookingConfirmed.PreviewProps = {
  tenantName: 'Studio Noord',
  recipientName: 'Ana de Vries',
  role: 'attendee',
  eventTitle: 'Intro workshop',
  startsAt: '2027-03-28T09:00:00.000Z',
  endsAt: '2027-03-28T10:00:00.000Z',
  allDay: false,
  eventTimeZone: 'Europe/Amsterdam',
  recipientTimeZone: 'America/New_York',
  locale: 'en-GB',
  location: 'Studio Noord, Kanaalstraat 12, Amsterdam',
  notes: 'Bring a laptop.',
  roomUrl: null,
  roomOpensAt: null,
  participantCount: null,
  preferencesUrl: 'https://punctual.example.com/preferences/sample',
  scheduleVersion: 1,
  previousStartsAt: null,
  previousEndsAt: null,
  previousTimeZone: null,
  previousAllDay: null,
  reason: null,
} satisfies BookingConfirmedProps;
