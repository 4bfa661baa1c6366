/**
 * Notification (domain event `event_details_changed`): staff changed an event's title, place, online-room link or
 * description and chose to tell its people. Says what changed, each detail as "old → new" (the arrow is the
 * language's own: right to left in Hebrew), then when the event is (and where, and its online room, when those did not
 * change), and that the calendar entry is updated (the email
 * carries the updated invitation). Subject: "New details for Python workshop".
 */
import { Text } from '@react-email/components';
import { z } from 'zod';
import { DetailRow, Details, Layout, LinkRow, SentenceNodes, SentenceParagraphs, allDayValue, eventShortWhen, eventTime, greeting, messageLocale, oneLine, styles } from './layout';
import type { MessageContext, MessageValue, Sentence } from './messages';
import { checkNotificationTemplateData, detailChangeSchema, notificationTemplateFieldsSchema } from './schema';

/**
 * Notification template data plus `detailChanges`: at least one changed detail ("detailChanges: required for a
 * details-changed notice" when missing or empty).
 */
export const eventDetailsChangedDataSchema = notificationTemplateFieldsSchema
  .extend({
    detailChanges: z
      .array(detailChangeSchema, { error: (iss) => (iss.input == null ? 'required for a details-changed notice' : 'must be a list of changed details') })
      .min(1, 'required for a details-changed notice'),
  })
  .superRefine(checkNotificationTemplateData);

export type EventDetailsChangedProps = z.infer<typeof eventDetailsChangedDataSchema>;
type Change = EventDetailsChangedProps['detailChanges'][number];

/** The label of a changed detail in the message's language ("Where", "Online room", …). */
export function detailLabel(m: MessageContext, field: Change['field']): string {
  return m.plain(m.text.common.detailField, { field });
}

/** A detail's value as typed text (`cut` shortens it, e.g. for an SMS), or the language's "(none)". */
function valueOf(m: MessageContext, v: string | null, cut: (s: string) => MessageValue = (s) => ({ typed: s })): MessageValue {
  const line = (v ?? '').replace(/\s+/g, ' ').trim();
  return line === '' ? m.plain(m.text.common.detailNone) : cut(line);
}

/** One change as its sentence: "Room A → Garden B" (typed values isolated for direction). */
export function changeSentence(m: MessageContext, c: Change): Sentence {
  return m.sentence(m.text.common.detailChange, { was: valueOf(m, c.from), now: valueOf(m, c.to) });
}

/**
 * Every change as sentences of their own, one after another: "Where: now Garden B (was Room A). Online room: now
 * https://… (was (none))." — the `{changes}` of the SMS and of the organisation's own text. `cut` shortens each value
 * (the SMS keeps a place's length).
 */
export function changesText(m: MessageContext, changes: readonly Change[], cut?: (s: string) => MessageValue): string {
  return changes.map((c) => m.plain(m.text.common.smsDetailChange, { field: c.field, was: valueOf(m, c.from, cut), now: valueOf(m, c.to, cut) })).join(' ');
}

/** Subject line: "New details for Python workshop" (one line, right-to-left title isolated). */
export function eventDetailsChangedSubject(data: EventDetailsChangedProps): string {
  const m = messageLocale(data.locale);
  return oneLine(m.plain(m.text['event-details-changed'].subject, { eventTitle: { typed: data.eventTitle } }));
}

/** The event-details-changed email. Props must satisfy {@link eventDetailsChangedDataSchema}. */
export default function EventDetailsChanged(props: EventDetailsChangedProps) {
  const m = messageLocale(props.locale);
  const { common, 'event-details-changed': t } = m.text;
  const now = eventTime(props);
  const title = { typed: props.eventTitle };
  const intro = m.sentence(t.intro, { allDay: allDayValue(props), eventTitle: title, when: eventShortWhen(props) });
  const changed = new Set(props.detailChanges.map((c) => c.field));
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
      <Details>
        {props.detailChanges.map((c) => (
          <ChangeRow key={c.field} m={m} change={c} />
        ))}
        <DetailRow label={m.plain(common.when)} value={now.eventZoneLine} secondary={now.recipientZoneLine} />
        {/* The place and the room as they are, when they are not among the changes above. */}
        {props.location && !changed.has('location') ? <DetailRow label={m.plain(common.where)} value={props.location} typed /> : null}
        {props.roomUrl && !changed.has('roomUrl') ? <LinkRow label={m.plain(common.onlineRoom)} href={props.roomUrl} /> : null}
      </Details>
      <Text style={styles.text}>{m.plain(t.closing)}</Text>
    </Layout>
  );
}

/** One changed detail in the details box: its label, then "old → new" (each typed value isolated for direction). */
function ChangeRow({ m, change }: { m: MessageContext; change: Change }) {
  return (
    <>
      <Text style={styles.label}>{detailLabel(m, change.field)}</Text>
      <Text style={styles.value}>
        <SentenceNodes sentence={changeSentence(m, change)} dir={m.dir} />
      </Text>
    </>
  );
}

EventDetailsChanged.PreviewProps = {
  tenantName: 'Studio Noord',
  recipientName: 'Priya Raman',
  role: 'attendee',
  eventTitle: 'Intro workshop',
  startsAt: '2027-03-28T09:00:00.000Z',
  endsAt: '2027-03-28T10:00:00.000Z',
  allDay: false,
  eventTimeZone: 'Europe/Amsterdam',
  recipientTimeZone: 'Asia/Kolkata',
  locale: 'en-GB',
  location: 'Garden B',
  notes: null,
  eventNote: '',
  roomUrl: 'https://rooms.example.com/r/intro-workshop',
  roomOpensAt: '2027-03-28T08:45:00.000Z',
  participantCount: null,
  preferencesUrl: 'https://punctual.example.com/preferences/sample',
  scheduleVersion: 1,
  previousStartsAt: null,
  previousEndsAt: null,
  previousTimeZone: null,
  previousAllDay: null,
  reason: null,
  detailChanges: [{ field: 'location', from: 'Room A', to: 'Garden B' }],
} satisfies EventDetailsChangedProps;
