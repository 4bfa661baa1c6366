/**
 * Notification (issue #9, domain event `participant_added_as_host`): the person was added as a host of an
 * event. When, where, the online room and the participant count when known. Subject: "You're hosting Intro
 * workshop".
 */
import { z } from 'zod';
import { Layout, SentenceParagraphs, allDayValue, eventShortWhen, greeting, messageLocale, oneLine } from './layout';
import { HostEventDetails } from './host-reminder';
import { checkNotificationTemplateData, notificationTemplateFieldsSchema } from './schema';

/**
 * Notification template data for a host: `role` must be "host", so the "you're hosting" wording can never
 * reach an attendee (as for the host reminder).
 */
export const hostAddedDataSchema = notificationTemplateFieldsSchema
  .extend({
    role: z.literal('host', {
      error: (issue) => (issue.input == null ? 'required' : 'must be host for the host-added template'),
    }),
  })
  .superRefine(checkNotificationTemplateData);

export type HostAddedProps = z.infer<typeof hostAddedDataSchema>;

/** Subject line: "You're hosting Intro workshop" (one line, right-to-left title isolated). */
export function hostAddedSubject(data: HostAddedProps): string {
  const m = messageLocale(data.locale);
  return oneLine(m.plain(m.text['host-added'].subject, { eventTitle: { typed: data.eventTitle } }));
}

/** The host-added email. Props must satisfy {@link hostAddedDataSchema}. */
export default function HostAdded(props: HostAddedProps) {
  const m = messageLocale(props.locale);
  const t = m.text['host-added'];
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
      <SentenceParagraphs sentences={[greeting(m, props.recipientName), intro]} dir={m.dir} />
      <HostEventDetails data={props} />
    </Layout>
  );
}

HostAdded.PreviewProps = {
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
  preferencesUrl: 'https://punctual.example.com/preferences/sample',
  scheduleVersion: 1,
  previousStartsAt: null,
  previousEndsAt: null,
  previousTimeZone: null,
  previousAllDay: null,
  reason: null,
} satisfies HostAddedProps;
