/**
 * Reminder to the host of an event: "you are hosting …", with the participant count when known.
 * Subject: "You are hosting Intro workshop — Sun 28 Mar, 11:00 CEST".
 */
import { Text } from '@react-email/components';
import { z } from 'zod';
import { formatEventTime } from '@/domain/format-time';
import {
  DetailRow,
  Details,
  Layout,
  LinkRow,
  Notes,
  SentenceParagraphs,
  eventShortWhen,
  greeting,
  messageLocale,
  oneLine,
  sentenceText,
  styles,
  type Sentence,
} from './layout';
import { checkReminderTemplateData, reminderTemplateFieldsSchema } from './schema';

/**
 * Reminder template data for a host: `role` must be "host", so the "you are hosting" wording can never
 * reach an attendee through a misconfigured rule.
 */
export const hostReminderDataSchema = reminderTemplateFieldsSchema
  .extend({
    role: z.literal('host', {
      error: (issue) => (issue.input == null ? 'required' : 'must be host for the host-reminder template'),
    }),
  })
  .superRefine(checkReminderTemplateData);

type HostReminderProps = z.infer<typeof hostReminderDataSchema>;

/** "No participants have booked yet." / "1 participant has booked." / "12 participants have booked." */
export function participantSentence(count: number): string {
  if (count === 0) return 'No participants have booked yet.';
  if (count === 1) return '1 participant has booked.';
  return `${count} participants have booked.`;
}

/**
 * What every message to a host shows below its opening (the host reminder and the host-added notification):
 * the participant count when known, when (event zone, and the reader's when it differs), where, the online
 * room, the organiser's notes.
 */
export function HostEventDetails({ data }: { data: Parameters<typeof formatEventTime>[0] & { participantCount: number | null; location: string | null; roomUrl: string | null; notes: string | null } }) {
  const time = formatEventTime(data);
  return (
    <>
      {data.participantCount !== null ? <Text style={styles.text}>{participantSentence(data.participantCount)}</Text> : null}
      <Details>
        <DetailRow label="When" value={time.eventZoneLine} secondary={time.recipientZoneLine} />
        {data.location ? <DetailRow label="Where" value={data.location} typed /> : null}
        {data.roomUrl ? <LinkRow label="Online room" href={data.roomUrl} /> : null}
      </Details>
      <Notes notes={data.notes} />
    </>
  );
}

/**
 * Subject line, e.g. "You are hosting Intro workshop — Sun 28 Mar, 11:00 CEST" (event zone, reader's locale).
 * @throws Error naming the field when the data would not format (validate with the schema first).
 */
export function hostReminderSubject(data: HostReminderProps): string {
  const { dir } = messageLocale(data.locale);
  return oneLine(sentenceText(['You are hosting ', { typed: data.eventTitle }, ` \u2014 ${eventShortWhen(data)}`], dir));
}

/** The host reminder email. Props must satisfy {@link hostReminderDataSchema}. */
export default function HostReminder(props: HostReminderProps) {
  const { dir } = messageLocale(props.locale);
  const when = eventShortWhen(props);
  const intro: Sentence = props.allDay
    ? ['A reminder that you are hosting ', { typed: props.eventTitle }, ` on ${when}.`]
    : ['A reminder that you are hosting ', { typed: props.eventTitle }, `, starting ${when}.`];
  const heading: Sentence = ['You are hosting ', { typed: props.eventTitle }];
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
      <SentenceParagraphs sentences={[greeting(props.recipientName), intro]} dir={dir} />
      <HostEventDetails data={props} />
    </Layout>
  );
}

HostReminder.PreviewProps = {
  tenantName: 'Studio Noord',
  recipientName: 'Priya Raman',
  role: 'host',
  eventTitle: 'Intro workshop',
  startsAt: '2027-03-28T09:00:00.000Z',
  endsAt: '2027-03-28T10:00:00.000Z',
  allDay: false,
  eventTimeZone: 'Europe/Amsterdam',
  recipientTimeZone: 'Asia/Kolkata',
  locale: 'en-GB',
  location: 'Studio Noord, Kanaalstraat 12, Amsterdam',
  notes: 'The projector remote is in the top drawer.',
  roomUrl: 'https://rooms.example.com/r/intro-workshop',
  roomOpensAt: '2027-03-28T08:45:00.000Z',
  participantCount: 12,
  preferencesUrl: null,
} satisfies HostReminderProps;
