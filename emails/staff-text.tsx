/**
 * A message written in an organisation's own text (issue #22 §2: a published version of `message_texts`, checked by
 * domain/messages/staff-text.ts before it was stored) instead of Punctual's built-in words: subject and SMS as plain
 * text, the body's Markdown subset (paragraphs, `- ` lists, `**bold**`, `*italic*`, `[text](https://…)`) rendered
 * into the same layout as every template — greeting above it, the event's When / Where / Online room rows and the
 * organiser's notes below it, footer with preferences and unsubscribe links.
 *
 * Safety: the ICU message is formatted with each variable replaced by a private-use marker, the Markdown is read
 * from that, and only then are the markers replaced by the values — so text people typed (an event title with
 * `**` or `[x](y)` in it) is never read as Markdown, and is isolated for direction like in the built-in messages.
 * A link target must be an http(s) URL (written, or the `{url}` variable holding one); anything else renders as
 * its text without a link. Raw HTML cannot reach the output: React escapes every string.
 */
import { Link, Text } from '@react-email/components';
import type { ReactNode } from 'react';
import { formatClockTime } from '@/domain/format-time';
import { messageVariables } from '@/domain/messages/message-variables';
import { gsmDate } from '@/domain/sending/gsm7-lookalikes';
import type { MessageKind } from '@/domain/vocabulary';
import { previousShortWhen, type EventRescheduledProps } from './event-rescheduled';
import { changesText, type EventDetailsChangedProps } from './event-details-changed';
import { DetailRow, Details, LinkRow, Layout, Notes, SentenceParagraphs, Typed, allDayValue, eventShortWhen, eventTime, greeting, messageLocale, oneLine, styles } from './layout';
import type { MessageValue, Sentence } from './messages';
import type { NotificationTemplateData, ReminderTemplateData } from './schema';

/** One published version of an organisation's text (subject, Markdown body, SMS text; ICU MessageFormat). */
export interface StaffText {
  version: number;
  subject: string;
  body: string;
  sms: string;
}

/** The value of each variable of `template` from validated template data (names: domain/messages/message-variables.ts). */
export function staffTextValues(template: MessageKind, data: ReminderTemplateData): Record<string, MessageValue> {
  const { lang } = messageLocale(data.locale);
  const all: Record<string, () => MessageValue> = {
    eventTitle: () => ({ typed: data.eventTitle }),
    tenantName: () => ({ typed: data.tenantName }),
    when: () => eventShortWhen(data),
    allDay: () => allDayValue(data),
    time: () => (data.roomOpensAt ? formatClockTime({ at: data.roomOpensAt, timeZone: data.eventTimeZone, locale: lang }) : ''),
    url: () => ({ link: data.roomUrl ?? '' }),
    was: () => previousShortWhen(data as NotificationTemplateData as EventRescheduledProps),
    now: () => eventShortWhen(data),
    eventNote: () => ({ typed: data.eventNote.trim() }),
    changes: () => changesText(messageLocale(data.locale), (data as Partial<EventDetailsChangedProps>).detailChanges ?? []),
    // Who said they cannot come (booking-declined): their name, else their address; a dash when neither is known.
    participantName: () => ({ typed: ((data as { participantName?: string | null }).participantName ?? '').trim() || '—' }),
  };
  return Object.fromEntries(messageVariables[template].map((v) => [v.name, all[v.name]()]));
}

/** The subject in the organisation's words, on one line. */
export function staffTextSubject(template: MessageKind, data: ReminderTemplateData, text: StaffText): string {
  const m = messageLocale(data.locale);
  return oneLine(m.plain(text.subject, staffTextValues(template, data)));
}

/** The SMS in the organisation's words, with " Manage: <link>" when the data has a preferences link (as the built-in SMS). */
export function staffTextSms(template: MessageKind, data: ReminderTemplateData, text: StaffText): string {
  const m = messageLocale(data.locale);
  // An empty note ("… {eventNote} …") leaves no double space behind.
  // Dates keep to GSM-7 as in Punctual's own SMS (ICU writes U+202F before "AM": one such character makes the whole
  // message UCS-2, a third of the length per segment).
  const values = Object.fromEntries(Object.entries(staffTextValues(template, data)).map(([k, v]) => [k, typeof v === 'string' ? gsmDate(v) : v]));
  const sms = m.plain(text.sms, values).replace(/[ \t]{2,}/g, ' ').trim();
  return data.preferencesUrl ? `${sms} ${m.plain(m.text.common.smsManage, { url: data.preferencesUrl })}` : sms;
}

/**
 * A preferences link of a real one's length (the deployment's PUNCTUAL_PUBLIC_URL, else https://punctual.example, then
 * /preferences/ and a compact token of 108 characters — server/sending/preference-link.ts: a JWS of a fixed-size payload),
 * for counting what an SMS costs before any real recipient exists.
 */
export function samplePreferencesLink(): string {
  const base = (process.env.PUNCTUAL_PUBLIC_URL ?? 'https://punctual.example').replace(/\/+$/, '');
  return `${base}/preferences/${'x'.repeat(108)}`;
}


const MARK = /\uE000(\d+)\uE001/g;
const httpUrl = /^https?:\/\/\S+$/i;

/** The body formatted with markers for the values (`values[i]` is what marker i stands for). */
function markedBody(template: MessageKind, data: ReminderTemplateData, text: StaffText): { source: string; values: MessageValue[] } {
  const m = messageLocale(data.locale);
  const real = staffTextValues(template, data);
  const values: MessageValue[] = [];
  const marked: Record<string, MessageValue> = {};
  for (const [name, value] of Object.entries(real)) {
    // Select and plural need the real value; everything that is printed gets a marker — except an empty value (an
    // event without a note for this reader): it is left out, so a line holding only it is blank and no empty paragraph
    // or list item is rendered.
    if (name === 'allDay') marked[name] = value;
    else if (isEmptyValue(value)) marked[name] = '';
    else {
      values.push(value);
      marked[name] = `\uE000${values.length - 1}\uE001`;
    }
  }
  const parts = m.sentence(text.body, marked);
  return { source: parts.map((p) => (typeof p === 'string' ? p : '')).join(''), values };
}

/** True for a value that prints nothing (the empty string, typed text that is blank). */
function isEmptyValue(v: MessageValue): boolean {
  return v === '' || (typeof v === 'object' && 'typed' in v && v.typed.trim() === '');
}

/** Typed text in the body: isolated for direction, its line breaks (a note of several lines) kept as line breaks. */
function typedNodes(text: string, dir: 'ltr' | 'rtl', key: string): ReactNode[] {
  return text.split(/\r?\n/).flatMap((line, i) => (i === 0 ? [<Typed key={key} text={line} dir={dir} />] : [<br key={`${key}.br${i}`} />, <Typed key={`${key}.${i}`} text={line} dir={dir} />]));
}

/** Replaces the markers in `s` by their values: typed text isolated, links as their URL, the rest as text. */
function unmark(s: string, values: MessageValue[], dir: 'ltr' | 'rtl', key: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of s.matchAll(MARK)) {
    if (m.index > last) out.push(s.slice(last, m.index));
    const v = values[Number(m[1])];
    if (typeof v === 'object' && 'typed' in v) out.push(...typedNodes(v.typed, dir, `${key}.${m.index}`));
    else if (typeof v === 'object' && 'link' in v) out.push(v.link);
    else out.push(String(v ?? ''));
    last = m.index + m[0].length;
  }
  if (last < s.length) out.push(s.slice(last));
  return out;
}

/** The URL a link target stands for (a marker of a link variable, or written), when it is http(s); else null. */
function linkTarget(target: string, values: MessageValue[]): string | null {
  const only = /^\uE000(\d+)\uE001$/.exec(target);
  const v = only ? values[Number(only[1])] : target;
  const url = typeof v === 'object' && 'link' in v ? v.link : typeof v === 'string' ? v : null;
  return url && httpUrl.test(url) ? url : null;
}

const INLINE = /\*\*(.+?)\*\*|\*(.+?)\*|\[([^\]\n]*)\]\(([^)\s]*)\)/g;

/** Inline Markdown: bold, italic, links; everything else is text. */
function inline(s: string, values: MessageValue[], dir: 'ltr' | 'rtl', key: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of s.matchAll(INLINE)) {
    if (m.index > last) out.push(...unmark(s.slice(last, m.index), values, dir, `${key}.${last}`));
    const k = `${key}.${m.index}`;
    if (m[1] !== undefined) out.push(<strong key={k}>{inline(m[1], values, dir, k)}</strong>);
    else if (m[2] !== undefined) out.push(<em key={k}>{inline(m[2], values, dir, k)}</em>);
    else {
      const href = linkTarget(m[4], values);
      const label = inline(m[3] || m[4], values, dir, k);
      out.push(
        href ? (
          <Link key={k} href={href} style={styles.link}>
            {label}
          </Link>
        ) : (
          <span key={k}>{label}</span>
        ),
      );
    }
    last = m.index + m[0].length;
  }
  if (last < s.length) out.push(...unmark(s.slice(last), values, dir, `${key}.${last}`));
  return out;
}

/** The body's blocks: paragraphs (lines joined by line breaks) and "- " lists, split at blank lines. */
function blocks(source: string, values: MessageValue[], dir: 'ltr' | 'rtl'): ReactNode[] {
  const out: ReactNode[] = [];
  source
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .forEach((block, b) => {
      const lines = block.split('\n').filter((l) => l.trim() !== '');
      let para: string[] = [];
      let items: string[] = [];
      const flush = (i: number) => {
        if (para.length) {
          const k = `p${b}.${i}`;
          out.push(
            <Text key={k} style={styles.text}>
              {para.flatMap((l, j) => (j === 0 ? inline(l.trim(), values, dir, `${k}.${j}`) : [<br key={`${k}.br${j}`} />, ...inline(l.trim(), values, dir, `${k}.${j}`)]))}
            </Text>,
          );
          para = [];
        }
        if (items.length) {
          const k = `l${b}.${i}`;
          out.push(
            <ul key={k} style={styles.text}>
              {items.map((l, j) => (
                <li key={`${k}.${j}`}>{inline(l, values, dir, `${k}.${j}`)}</li>
              ))}
            </ul>,
          );
          items = [];
        }
      };
      lines.forEach((line, i) => {
        const item = /^\s*- (.*)$/.exec(line);
        // A list item left empty (it held only a variable that is empty, e.g. no note): no item at all.
        if (item && item[1].trim() === '') return;
        if (item) {
          if (para.length) flush(i);
          items.push(item[1]);
        } else {
          if (items.length) flush(i);
          para.push(line);
        }
      });
      flush(lines.length);
    });
  return out;
}

/** The email of `template` in the organisation's words. Props: validated template data and the text. */
export function StaffTextEmail({ template, data, text }: { template: MessageKind; data: ReminderTemplateData; text: StaffText }) {
  const m = messageLocale(data.locale);
  const { common } = m.text;
  const time = eventTime(data);
  const { source, values } = markedBody(template, data, text);
  const subject: Sentence = [staffTextSubject(template, data, text)];
  return (
    <Layout
      preview={subject}
      heading={[{ typed: data.eventTitle }]}
      tenantName={data.tenantName}
      locale={data.locale}
      preferencesUrl={data.preferencesUrl}
      unsubscribeUrl={data.unsubscribeUrl}
      unsubscribeCategory={data.unsubscribeCategory}
    >
      <SentenceParagraphs sentences={[greeting(m, data.recipientName)]} dir={m.dir} />
      {blocks(source, values, m.dir)}
      <Details>
        <DetailRow label={m.plain(common.when)} value={time.eventZoneLine} secondary={time.recipientZoneLine} />
        {data.location ? <DetailRow label={m.plain(common.where)} value={data.location} typed /> : null}
        {data.roomUrl ? <LinkRow label={m.plain(common.onlineRoom)} href={data.roomUrl} /> : null}
      </Details>
      <Notes notes={data.notes} m={m} />
    </Layout>
  );
}
