/**
 * "The online room opens at …" — for attendees, external guests (and hosts), with a button to the room.
 * Subject: "The room for Intro workshop opens at 10:30 CEST".
 */
import { Button, Section } from '@react-email/components';
import type { z } from 'zod';
import { formatClockTime, formatEventTime } from '@/domain/format-time';
import {
  DetailRow,
  Details,
  Layout,
  LinkRow,
  Notes,
  SentenceParagraphs,
  greeting,
  messageLocale,
  oneLine,
  sentenceText,
  styles,
  type Sentence,
} from './layout';
import { checkReminderTemplateData, httpUrl, instant, reminderTemplateFieldsSchema } from './schema';

/** Reminder template data where `roomUrl` and `roomOpensAt` are required (not null). */
export const roomOpeningDataSchema = reminderTemplateFieldsSchema
  .extend({ roomUrl: httpUrl(), roomOpensAt: instant() })
  .superRefine(checkReminderTemplateData);

type RoomOpeningProps = z.infer<typeof roomOpeningDataSchema>;

/** "10:30 CEST": when the room opens, in the event zone. */
function opensAtClock(data: RoomOpeningProps): string {
  return formatClockTime({ at: data.roomOpensAt, timeZone: data.eventTimeZone, locale: data.locale });
}

/**
 * Subject line, e.g. "The room for Intro workshop opens at 10:30 CEST" (event zone, reader's locale).
 * @throws Error naming the field when the data would not format (validate with the schema first).
 */
export function roomOpeningSubject(data: RoomOpeningProps): string {
  const { dir } = messageLocale(data.locale);
  return oneLine(sentenceText(['The room for ', { typed: data.eventTitle }, ` opens at ${opensAtClock(data)}`], dir));
}

/** The room-opening email. Props must satisfy {@link roomOpeningDataSchema}. */
export default function RoomOpening(props: RoomOpeningProps) {
  const { dir } = messageLocale(props.locale);
  const opens = formatEventTime({
    startsAt: props.roomOpensAt,
    endsAt: null,
    allDay: false,
    eventTimeZone: props.eventTimeZone,
    recipientTimeZone: props.recipientTimeZone,
    locale: props.locale,
  });
  const event = formatEventTime(props);
  const heading: Sentence = ['The room for ', { typed: props.eventTitle }, ` opens at ${opensAtClock(props)}`];
  const intro: Sentence = [
    'The online room for ',
    { typed: props.eventTitle },
    ` opens at ${opensAtClock(props)}. You can join from then with the button below.`,
  ];
  const guestLine: Sentence | null =
    props.role === 'external' ? ['You are invited as a guest of ', { typed: props.tenantName }, '.'] : null;
  return (
    <Layout
      preview={intro}
      heading={heading}
      tenantName={props.tenantName}
      locale={props.locale}
      preferencesUrl={props.preferencesUrl}
      unsubscribeUrl={props.unsubscribeUrl}
      unsubscribeCategory={props.unsubscribeCategory}
    >
      <SentenceParagraphs sentences={[greeting(props.recipientName), intro, guestLine]} dir={dir} />
      <Section style={{ margin: '8px 0 16px' }}>
        <Button href={props.roomUrl} style={styles.button}>
          Join the online room
        </Button>
      </Section>
      <Details>
        <DetailRow label="Room opens" value={opens.eventZoneLine} secondary={opens.recipientZoneLine} />
        <DetailRow label="Event" value={event.eventZoneLine} secondary={event.recipientZoneLine} />
        {props.location ? <DetailRow label="Where" value={props.location} typed /> : null}
        <LinkRow label="Room link (if the button does not work)" href={props.roomUrl} />
      </Details>
      <Notes notes={props.notes} />
    </Layout>
  );
}

RoomOpening.PreviewProps = {
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
  location: null,
  notes: 'Please test your microphone before joining.',
  roomUrl: 'https://rooms.example.com/r/quarterly-planning',
  roomOpensAt: '2027-11-07T14:45:00.000Z',
  participantCount: null,
  preferencesUrl: null,
} satisfies RoomOpeningProps;
