/**
 * Reminder to an attendee or external guest that an event is coming up.
 * Subject: "Reminder: Intro workshop — Sun 28 Mar, 11:00 CEST".
 */
import { Text } from '@react-email/components';
import { formatEventTime } from '@/domain/format-time';
import {
  DetailRow,
  Details,
  Layout,
  LinkRow,
  Notes,
  SentenceParagraphs,
  eventShortWhen,
  eventStartsPhrase,
  greeting,
  messageLocale,
  oneLine,
  sentenceText,
  styles,
  type Sentence,
} from './layout';
import { checkReminderTemplateData, reminderTemplateFieldsSchema } from './schema';
import type { z } from 'zod';

export const attendeeReminderDataSchema = reminderTemplateFieldsSchema.superRefine(checkReminderTemplateData);

type AttendeeReminderProps = z.infer<typeof attendeeReminderDataSchema>;

/**
 * Subject line, e.g. "Reminder: Intro workshop — Sun 28 Mar, 11:00 CEST" (event zone, reader's locale; a
 * right-to-left title is isolated so its punctuation stays with it).
 * @throws Error naming the field when the data would not format (validate with the schema first).
 */
export function attendeeReminderSubject(data: AttendeeReminderProps): string {
  const { dir } = messageLocale(data.locale);
  return oneLine(sentenceText(['Reminder: ', { typed: data.eventTitle }, ` \u2014 ${eventShortWhen(data)}`], dir));
}

/** The attendee reminder email. Props must satisfy {@link attendeeReminderDataSchema}. */
export default function AttendeeReminder(props: AttendeeReminderProps) {
  const { dir } = messageLocale(props.locale);
  const time = formatEventTime(props);
  const intro: Sentence = ['Reminder: ', { typed: props.eventTitle }, ` ${eventStartsPhrase(props)}.`];
  const guestLine: Sentence | null =
    props.role === 'external' ? ['You are invited as a guest of ', { typed: props.tenantName }, '.'] : null;
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
      <SentenceParagraphs sentences={[greeting(props.recipientName), intro, guestLine]} dir={dir} />
      <Details>
        <DetailRow label="When" value={time.eventZoneLine} secondary={time.recipientZoneLine} />
        {props.location ? <DetailRow label="Where" value={props.location} typed /> : null}
        {props.roomUrl ? <LinkRow label="Online room" href={props.roomUrl} /> : null}
      </Details>
      <Notes notes={props.notes} />
      <Text style={styles.text}>We look forward to seeing you.</Text>
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
  roomUrl: null,
  roomOpensAt: null,
  participantCount: null,
  preferencesUrl: null,
} satisfies AttendeeReminderProps;
