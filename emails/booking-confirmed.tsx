/**
 * Notification (issue #9, domain event `booking_confirmed`): the person's place at an event is confirmed.
 * Subject: "You're booked: Intro workshop". The message says a calendar entry is attached (the .ics is added
 * by the sender, not by this template).
 */
import { Text } from '@react-email/components';
import type { z } from 'zod';
import {
  DetailRow,
  Details,
  EventNote,
  Layout,
  LinkRow,
  Notes,
  SentenceParagraphs,
  allDayValue,
  eventShortWhen,
  eventTime,
  greeting,
  guestLine,
  messageLocale,
  oneLine,
  styles,
  ActionLinks,
} from './layout';
import { checkNotificationTemplateData, notificationTemplateFieldsSchema } from './schema';

/** Notification template data (the shared fields plus the notification fields), no extra requirements. */
export const bookingConfirmedDataSchema = notificationTemplateFieldsSchema.superRefine(checkNotificationTemplateData);

export type BookingConfirmedProps = z.infer<typeof bookingConfirmedDataSchema>;

/**
 * Subject line: "You're booked: Intro workshop" (a right-to-left title is isolated so its punctuation stays
 * with it; one line).
 */
export function bookingConfirmedSubject(data: BookingConfirmedProps): string {
  const m = messageLocale(data.locale);
  return oneLine(m.plain(m.text['booking-confirmed'].subject, { eventTitle: { typed: data.eventTitle } }));
}

/** The booking-confirmed email. Props must satisfy {@link bookingConfirmedDataSchema}. */
export default function BookingConfirmed(props: BookingConfirmedProps) {
  const m = messageLocale(props.locale);
  const { common, 'booking-confirmed': t } = m.text;
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
      <SentenceParagraphs sentences={[greeting(m, props.recipientName), intro, guestLine(m, props)]} dir={m.dir} />
      <ActionLinks data={props} m={m} />
      <EventNote note={props.eventNote} label={common.eventNote} source={t.note} m={m} />
      <Details>
        <DetailRow label={m.plain(common.when)} value={time.eventZoneLine} secondary={time.recipientZoneLine} />
        {props.location ? <DetailRow label={m.plain(common.where)} value={props.location} typed /> : null}
        {props.roomUrl ? <LinkRow label={m.plain(common.onlineRoom)} href={props.roomUrl} /> : null}
      </Details>
      <Notes notes={props.notes} m={m} />
      <Text style={styles.text}>{m.plain(t.closing)}</Text>
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
  reason: null,
} satisfies BookingConfirmedProps;
