/**
 * Reminder to an attendee or external guest that an event is coming up.
 * Subject: "Reminder: Intro workshop — Sun 28 Mar, 11:00 CEST".
 */
import { Text } from '@react-email/components';
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
import { checkReminderTemplateData, reminderTemplateFieldsSchema } from './schema';
import type { z } from 'zod';

export const attendeeReminderDataSchema = reminderTemplateFieldsSchema.superRefine(checkReminderTemplateData);

export type AttendeeReminderProps = z.infer<typeof attendeeReminderDataSchema>;

/**
 * Subject line, e.g. "Reminder: Intro workshop — Sun 28 Mar, 11:00 CEST" (event zone, reader's language; a
 * right-to-left title is isolated so its punctuation stays with it).
 * @throws Error naming the field when the data would not format (validate with the schema first).
 */
export function attendeeReminderSubject(data: AttendeeReminderProps): string {
  const m = messageLocale(data.locale);
  return oneLine(m.plain(m.text['attendee-reminder'].subject, { eventTitle: { typed: data.eventTitle }, when: eventShortWhen(data) }));
}

/** The attendee reminder email. Props must satisfy {@link attendeeReminderDataSchema}. */
export default function AttendeeReminder(props: AttendeeReminderProps) {
  const m = messageLocale(props.locale);
  const { common, 'attendee-reminder': t } = m.text;
  const time = eventTime(props);
  const intro = m.sentence(t.intro, { allDay: allDayValue(props), eventTitle: { typed: props.eventTitle }, when: eventShortWhen(props) });
  return (
    <Layout
      preview={intro}
      heading={[{ typed: props.eventTitle }]}
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

AttendeeReminder.PreviewProps = {
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
  notes: 'Bring a laptop.\nCoffee is ready from 10:45.',
  eventNote: '',
  roomUrl: null,
  roomOpensAt: null,
  participantCount: null,
  preferencesUrl: null,
} satisfies AttendeeReminderProps;
