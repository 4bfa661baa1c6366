/**
 * Notification (domain event `booking_declined`) to the OTHER people of an event whose role the policy turns on — by
 * default its hosts: a participant said they cannot come (the "I can't come" link or a declining calendar reply), so
 * their place is free. Names the participant and the reason they typed, if any. Subject: "Ana Lima can't come to
 * Intro workshop".
 */
import type { z } from 'zod';
import { DetailRow, Details, Layout, Reason, SentenceParagraphs, eventShortWhen, eventTime, greeting, messageLocale, oneLine } from './layout';
import { checkNotificationTemplateData, notificationTemplateFieldsSchema } from './schema';

/** Notification template data (the shared fields plus the notification fields; `participantName` names who declined). */
export const bookingDeclinedDataSchema = notificationTemplateFieldsSchema.superRefine(checkNotificationTemplateData);

export type BookingDeclinedProps = z.infer<typeof bookingDeclinedDataSchema>;

/** Who cannot come, as composed (their name, else their address: server/sending/compose-message.ts). */
function who(props: BookingDeclinedProps): string {
  return (props.participantName ?? '').trim() || '—';
}

/** Subject line: "Ana Lima can't come to Intro workshop" (one line, right-to-left title isolated). */
export function bookingDeclinedSubject(data: BookingDeclinedProps): string {
  const m = messageLocale(data.locale);
  return oneLine(m.plain(m.text['booking-declined'].subject, { eventTitle: { typed: data.eventTitle }, participantName: { typed: who(data) } }));
}

/** The booking-declined email. Props must satisfy {@link bookingDeclinedDataSchema}. */
export default function BookingDeclined(props: BookingDeclinedProps) {
  const m = messageLocale(props.locale);
  const { common, 'booking-declined': t } = m.text;
  const time = eventTime(props);
  const values = { eventTitle: { typed: props.eventTitle }, participantName: { typed: who(props) }, when: eventShortWhen(props) };
  const intro = m.sentence(t.intro, values);
  return (
    <Layout
      preview={intro}
      heading={m.sentence(t.subject, values)}
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
    </Layout>
  );
}

BookingDeclined.PreviewProps = {
  tenantName: 'Studio Noord',
  recipientName: 'Priya Raman',
  role: 'host',
  eventTitle: 'Intro workshop',
  startsAt: '2027-03-28T09:00:00.000Z',
  endsAt: '2027-03-28T10:00:00.000Z',
  allDay: false,
  eventTimeZone: 'Europe/Amsterdam',
  recipientTimeZone: 'Asia/Kolkata',
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
  reason: 'My train is cancelled.',
  participantName: 'Ana Lima',
} satisfies BookingDeclinedProps;
