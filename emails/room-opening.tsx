/**
 * "The online room opens at …" — for attendees, external guests (and hosts), with a button to the room.
 * Subject: "The room for Intro workshop opens at 10:30 CEST".
 */
import { Button, Section } from '@react-email/components';
import type { z } from 'zod';
import { formatClockTime } from '@/domain/format-time';
import {
  DetailRow,
  Details,
  EventNote,
  Layout,
  LinkRow,
  Notes,
  SentenceParagraphs,
  eventTime,
  greeting,
  guestLine,
  messageLocale,
  oneLine,
  styles,
  ActionLinks,
} from './layout';
import { checkReminderTemplateData, httpUrl, instant, reminderTemplateFieldsSchema } from './schema';

/** Reminder template data where `roomUrl` and `roomOpensAt` are required (not null). */
export const roomOpeningDataSchema = reminderTemplateFieldsSchema
  .extend({ roomUrl: httpUrl(), roomOpensAt: instant() })
  .superRefine(checkReminderTemplateData);

export type RoomOpeningProps = z.infer<typeof roomOpeningDataSchema>;

/** "10:30 CEST": when the room opens, in the event zone and the message's locale. */
function opensAtClock(data: RoomOpeningProps): string {
  return formatClockTime({ at: data.roomOpensAt, timeZone: data.eventTimeZone, locale: messageLocale(data.locale).lang });
}

/**
 * Subject line, e.g. "The room for Intro workshop opens at 10:30 CEST" (event zone, reader's language).
 * @throws Error naming the field when the data would not format (validate with the schema first).
 */
export function roomOpeningSubject(data: RoomOpeningProps): string {
  const m = messageLocale(data.locale);
  return oneLine(m.plain(m.text['room-opening'].subject, { eventTitle: { typed: data.eventTitle }, time: opensAtClock(data) }));
}

/** The room-opening email. Props must satisfy {@link roomOpeningDataSchema}. */
export default function RoomOpening(props: RoomOpeningProps) {
  const m = messageLocale(props.locale);
  const { common, 'room-opening': t } = m.text;
  const opens = eventTime({
    startsAt: props.roomOpensAt,
    endsAt: null,
    allDay: false,
    eventTimeZone: props.eventTimeZone,
    recipientTimeZone: props.recipientTimeZone,
    locale: props.locale,
  });
  const event = eventTime(props);
  const values = { eventTitle: { typed: props.eventTitle }, time: opensAtClock(props) };
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
      <SentenceParagraphs sentences={[greeting(m, props.recipientName), intro, guestLine(m, props)]} dir={m.dir} />
      <ActionLinks data={props} m={m} />
      <EventNote note={props.eventNote} label={common.eventNote} source={t.note} m={m} />
      <Section style={{ margin: '8px 0 16px' }}>
        <Button href={props.roomUrl} style={styles.button}>
          {m.plain(t.button)}
        </Button>
      </Section>
      <Details>
        <DetailRow label={m.plain(t.roomOpens)} value={opens.eventZoneLine} secondary={opens.recipientZoneLine} />
        <DetailRow label={m.plain(t.event)} value={event.eventZoneLine} secondary={event.recipientZoneLine} />
        {props.location ? <DetailRow label={m.plain(common.where)} value={props.location} typed /> : null}
        <LinkRow label={m.plain(t.roomLink)} href={props.roomUrl} />
      </Details>
      <Notes notes={props.notes} m={m} />
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
  eventNote: '',
  roomUrl: 'https://rooms.example.com/r/quarterly-planning',
  roomOpensAt: '2027-11-07T14:45:00.000Z',
  participantCount: null,
  preferencesUrl: null,
} satisfies RoomOpeningProps;
