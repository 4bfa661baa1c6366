/**
 * Reminder to the host of an event: "you are hosting …", with the participant count when known.
 * Subject: "You are hosting Intro workshop — Sun 28 Mar, 11:00 CEST".
 */
import { Text } from '@react-email/components';
import { z } from 'zod';
import type { FormatEventTimeInput } from '@/domain/format-time';
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
  messageLocale,
  oneLine,
  styles,
  type MessageContext,
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

export type HostReminderProps = z.infer<typeof hostReminderDataSchema>;

/**
 * "No participants have booked yet." / "1 participant has booked." / "12 participants have booked." in the
 * reader's language (its plural rules).
 */
export function participantSentence(m: MessageContext, count: number): string {
  return m.plain(m.text.common.participants, { count });
}

/**
 * What every message to a host shows below its opening (the host reminder and the host-added notification):
 * the participant count when known, when (event zone, and the reader's when it differs), where, the online
 * room, the organiser's notes.
 */
export function HostEventDetails({ data }: { data: FormatEventTimeInput & { participantCount: number | null; location: string | null; roomUrl: string | null; notes: string | null } }) {
  const m = messageLocale(data.locale);
  const time = eventTime(data);
  return (
    <>
      {data.participantCount !== null ? <Text style={styles.text}>{participantSentence(m, data.participantCount)}</Text> : null}
      <Details>
        <DetailRow label={m.plain(m.text.common.when)} value={time.eventZoneLine} secondary={time.recipientZoneLine} />
        {data.location ? <DetailRow label={m.plain(m.text.common.where)} value={data.location} typed /> : null}
        {data.roomUrl ? <LinkRow label={m.plain(m.text.common.onlineRoom)} href={data.roomUrl} /> : null}
      </Details>
      <Notes notes={data.notes} m={m} />
    </>
  );
}

/**
 * Subject line, e.g. "You are hosting Intro workshop — Sun 28 Mar, 11:00 CEST" (event zone, reader's language).
 * @throws Error naming the field when the data would not format (validate with the schema first).
 */
export function hostReminderSubject(data: HostReminderProps): string {
  const m = messageLocale(data.locale);
  return oneLine(m.plain(m.text['host-reminder'].subject, { eventTitle: { typed: data.eventTitle }, when: eventShortWhen(data) }));
}

/** The host reminder email. Props must satisfy {@link hostReminderDataSchema}. */
export default function HostReminder(props: HostReminderProps) {
  const m = messageLocale(props.locale);
  const t = m.text['host-reminder'];
  const title = { typed: props.eventTitle };
  const intro = m.sentence(t.intro, { allDay: allDayValue(props), eventTitle: title, when: eventShortWhen(props) });
  return (
    <Layout
      preview={intro}
      heading={m.sentence(t.heading, { eventTitle: title })}
      tenantName={props.tenantName}
      locale={props.locale}
      preferencesUrl={props.preferencesUrl}
      unsubscribeUrl={props.unsubscribeUrl}
      unsubscribeCategory={props.unsubscribeCategory}
    >
      <SentenceParagraphs sentences={[greeting(m, props.recipientName), intro]} dir={m.dir} />
      <EventNote note={props.eventNote} label={m.text.common.eventNoteForHosts} source={t.note} m={m} />
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
  eventNote: '',
  roomUrl: 'https://rooms.example.com/r/intro-workshop',
  roomOpensAt: '2027-03-28T08:45:00.000Z',
  participantCount: 12,
  preferencesUrl: null,
} satisfies HostReminderProps;
