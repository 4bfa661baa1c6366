/**
 * Reminder template `confirmation-request`: asks the person to confirm their place. Leads with the question and the two
 * signed action links ("I'll be there" / "I can't come", server/sending/action-link.ts), then when and where. Meant for a
 * rule that targets only bookings not yet confirmed (db/schema/rules.ts `onlyUnconfirmed`). Subject: "Will you be at
 * Intro workshop? — Sun 28 Mar, 11:00 CEST". Without action links (previews, links not configured) it still asks, and
 * says to reply to the organiser.
 */
import { Text } from '@react-email/components';
import { z } from 'zod';
import { ActionLinks, DetailRow, Details, Layout, LinkRow, SentenceParagraphs, allDayValue, eventShortWhen, eventTime, greeting, guestLine, messageLocale, oneLine, styles } from './layout';
import { checkReminderTemplateData, reminderTemplateFieldsSchema } from './schema';

/** Reminder template data; `role` must be attendee or external: a host has no place to confirm. */
export const confirmationRequestDataSchema = reminderTemplateFieldsSchema
  .extend({
    role: z.enum(['attendee', 'external'], {
      error: (issue) => (issue.input == null ? 'required' : 'must be attendee or external for the confirmation-request template'),
    }),
  })
  .superRefine(checkReminderTemplateData);

export type ConfirmationRequestProps = z.infer<typeof confirmationRequestDataSchema>;

/** Subject line: "Will you be at Intro workshop? — Sun 28 Mar, 11:00 CEST" (one line). */
export function confirmationRequestSubject(data: ConfirmationRequestProps): string {
  const m = messageLocale(data.locale);
  return oneLine(m.plain(m.text['confirmation-request'].subject, { eventTitle: { typed: data.eventTitle }, when: eventShortWhen(data) }));
}

/** The confirmation request email. Props must satisfy {@link confirmationRequestDataSchema}. */
export default function ConfirmationRequest(props: ConfirmationRequestProps) {
  const m = messageLocale(props.locale);
  const { common, 'confirmation-request': t } = m.text;
  const time = eventTime(props);
  const intro = m.sentence(t.intro, { allDay: allDayValue(props), eventTitle: { typed: props.eventTitle }, when: eventShortWhen(props) });
  const links = !!(props.confirmUrl && props.declineUrl);
  return (
    <Layout
      preview={intro}
      heading={m.sentence(t.heading, { eventTitle: { typed: props.eventTitle } })}
      tenantName={props.tenantName}
      locale={props.locale}
      preferencesUrl={props.preferencesUrl}
      unsubscribeUrl={props.unsubscribeUrl}
      unsubscribeCategory={props.unsubscribeCategory}
    >
      <ActionLinks data={props} m={m} />
      <SentenceParagraphs sentences={[greeting(m, props.recipientName), intro, guestLine(m, props)]} dir={m.dir} />
      <Details>
        <DetailRow label={m.plain(common.when)} value={time.eventZoneLine} secondary={time.recipientZoneLine} />
        {props.location ? <DetailRow label={m.plain(common.where)} value={props.location} typed /> : null}
        {props.roomUrl ? <LinkRow label={m.plain(common.onlineRoom)} href={props.roomUrl} /> : null}
      </Details>
      <Text style={styles.text}>{m.plain(links ? t.closing : t.closingNoLinks)}</Text>
    </Layout>
  );
}

ConfirmationRequest.PreviewProps = {
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
  notes: null,
  eventNote: '',
  roomUrl: null,
  roomOpensAt: null,
  participantCount: null,
  preferencesUrl: null,
  confirmUrl: 'https://punctual.example.com/a/sample-confirm',
  declineUrl: 'https://punctual.example.com/a/sample-decline',
} satisfies ConfirmationRequestProps;
