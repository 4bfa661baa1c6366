/**
 * Shared layout and building blocks for the reminder emails.
 *
 * Every word comes from the message catalog (emails/messages/) in the reader's language, formatted with ICU
 * MessageFormat into a {@link Sentence}: fixed text as strings, text people typed as `{ typed }` parts and links as
 * `{ link }` parts. Every string shown is built in JS before it reaches JSX: a JSX text node mixing literal text and
 * an interpolated value renders `<!-- -->` between the parts in the HTML (a string next to an element renders no
 * comment).
 *
 * Direction (issue 8 §5): the message carries the `lang` of its text and, for a right-to-left language,
 * `dir="rtl"` on <html>, <body> and the container table (some clients drop the <html>/<body> attributes).
 * Text people typed (titles, names, places, notes, the organisation's name) is wrapped in `dir="auto"` so
 * it keeps its own direction inside the sentence, and in Unicode isolates when needed
 * (domain/text-direction.ts) so the plain-text part and the subject keep it too.
 */
import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from '@react-email/components';
import type { CSSProperties, ReactNode } from 'react';
import { formatEventTime, formatShortWhen, type FormatEventTimeInput, type FormattedEventTime } from '@/domain/format-time';
import { isolateTyped, type TextDirection } from '@/domain/text-direction';
import type { PreferenceCategory } from '@/domain/vocabulary';
import { messageContext, sentenceText, type MessageContext, type Sentence } from './messages';

export { sentenceText, type MessageContext, type Sentence };

const fontStack = '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';

export const styles = {
  body: { backgroundColor: '#f4f5f7', fontFamily: fontStack, margin: 0, padding: '24px 0' },
  container: {
    backgroundColor: '#ffffff',
    border: '1px solid #e3e5e8',
    borderRadius: '8px',
    margin: '0 auto',
    maxWidth: '560px',
    padding: '32px',
  },
  heading: { color: '#111827', fontSize: '22px', fontWeight: 600, lineHeight: '30px', margin: '0 0 16px' },
  text: { color: '#1f2937', fontSize: '15px', lineHeight: '24px', margin: '0 0 12px' },
  label: { color: '#6b7280', fontSize: '13px', lineHeight: '20px', margin: '12px 0 0' },
  value: { color: '#111827', fontSize: '15px', lineHeight: '22px', margin: '0' },
  secondary: { color: '#4b5563', fontSize: '14px', lineHeight: '22px', margin: '0' },
  details: { backgroundColor: '#f9fafb', borderRadius: '6px', margin: '16px 0', padding: '4px 16px 16px' },
  button: {
    backgroundColor: '#1d4ed8',
    borderRadius: '6px',
    color: '#ffffff',
    display: 'inline-block',
    fontSize: '15px',
    fontWeight: 600,
    padding: '12px 20px',
    textDecoration: 'none',
  },
  link: { color: '#1d4ed8', wordBreak: 'break-all' },
  hr: { borderColor: '#e5e7eb', margin: '24px 0 16px' },
  footer: { color: '#6b7280', fontSize: '12px', lineHeight: '18px', margin: '0' },
  footerNext: { color: '#6b7280', fontSize: '12px', lineHeight: '18px', margin: '8px 0 0' },
} satisfies Record<string, CSSProperties>;

/**
 * The reader's message context (emails/messages/index.ts `messageContext`): the language of the text, the locale
 * of its dates (`lang`, a supported BCP 47 tag, "en" when nothing fits), its writing direction and its catalog.
 */
export function messageLocale(locale: string): MessageContext {
  return messageContext(locale);
}

/** Text a person typed, as an inline element with `dir="auto"` (isolated when needed, see the module comment). */
export function Typed({ text, dir }: { text: string; dir: TextDirection }) {
  return <span dir="auto">{isolateTyped(text, dir)}</span>;
}

/** The sentence as inline content: typed parts wrapped in `dir="auto"`, links as anchors. */
export function SentenceNodes({ sentence, dir }: { sentence: Sentence; dir: TextDirection }) {
  return (
    <>
      {sentence.map((p, i) =>
        typeof p === 'string' ? (
          p
        ) : 'typed' in p ? (
          <Typed key={i} text={p.typed} dir={dir} />
        ) : (
          <Link key={i} href={p.link} style={styles.link}>
            {p.link}
          </Link>
        ),
      )}
    </>
  );
}

export interface LayoutProps {
  /** Inbox preview line (hidden in the body, skipped in the text part). */
  preview: Sentence;
  /** Heading at the top of the message; a heading that is only typed text gets `dir="auto"` itself. */
  heading: Sentence;
  /** Tenant that sends the message, named in the footer. */
  tenantName: string;
  /** The reader's locale: the message's language sets `lang`, and `dir="rtl"` for a right-to-left language. */
  locale: string;
  /**
   * Signed link to the reader's channel preferences, or null: when given, the footer adds
   * "Choose how {tenantName} reaches you: <link>".
   */
  preferencesUrl: string | null;
  /**
   * Signed one-click unsubscribe link (issue #10 §5), or null/absent: when given, the footer adds a link
   * "Unsubscribe from {category words}" (`unsubscribeCategory`; "Unsubscribe from these messages" without one).
   */
  unsubscribeUrl?: string | null;
  unsubscribeCategory?: PreferenceCategory | null;
  children: ReactNode;
}

/**
 * Html/Head/Preview/Body/Container frame with a heading and a footer naming the tenant, plus the link to the
 * reader's channel preferences and the one-click unsubscribe link when there are.
 */
export function Layout({ preview, heading, tenantName, locale, preferencesUrl, unsubscribeUrl, unsubscribeCategory, children }: LayoutProps) {
  const { lang, dir, text, sentence } = messageLocale(locale);
  const footer = sentence(text.common.footer, { tenantName: { typed: tenantName } });
  const first = heading[0];
  const onlyTyped = heading.length === 1 && typeof first === 'object' && 'typed' in first ? first.typed : null;
  return (
    <Html lang={lang} dir={dir}>
      <Head />
      <Preview>{sentenceText(preview, dir)}</Preview>
      <Body style={styles.body} dir={dir}>
        <Container style={styles.container} dir={dir} lang={lang}>
          {onlyTyped !== null ? (
            <Heading as="h1" style={styles.heading} dir="auto">
              {onlyTyped}
            </Heading>
          ) : (
            <Heading as="h1" style={styles.heading}>
              <SentenceNodes sentence={heading} dir={dir} />
            </Heading>
          )}
          {children}
          <Hr style={styles.hr} />
          <Text style={styles.footer}>
            <SentenceNodes sentence={footer} dir={dir} />
          </Text>
          {preferencesUrl ? (
            <Text style={styles.footerNext}>
              <SentenceNodes sentence={sentence(text.common.preferences, { tenantName: { typed: tenantName }, link: { link: preferencesUrl } })} dir={dir} />
            </Text>
          ) : null}
          {unsubscribeUrl ? (
            <Text style={styles.footerNext}>
              <Link href={unsubscribeUrl} style={styles.link}>
                {sentenceText(sentence(text.common.unsubscribe, { category: unsubscribeCategory ?? 'none' }), dir)}
              </Link>
            </Text>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}

/** "Hello {name}," in the reader's language, or "Hello," when the name is empty or blank. Pure. */
export function greeting(m: MessageContext, recipientName: string): Sentence {
  const name = recipientName.trim();
  return name ? m.sentence(m.text.common.greeting, { name: { typed: name } }) : m.sentence(m.text.common.greetingNoName);
}

/** "You are invited as a guest of {tenantName}." for an external guest, else null. */
export function guestLine(m: MessageContext, data: { role: string; tenantName: string }): Sentence | null {
  return data.role === 'external' ? m.sentence(m.text.common.guestOf, { tenantName: { typed: data.tenantName } }) : null;
}

/** One paragraph per sentence (skipping nulls): a message's greeting, intro and optional extra lines. */
export function SentenceParagraphs({ sentences, dir }: { sentences: (Sentence | null)[]; dir: TextDirection }) {
  return (
    <>
      {sentences.map((s, i) =>
        s ? (
          <Text key={i} style={styles.text}>
            <SentenceNodes sentence={s} dir={dir} />
          </Text>
        ) : null,
      )}
    </>
  );
}

/** One paragraph per non-blank line of `text`. */
export function Paragraphs({ text }: { text: string }) {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  return (
    <>
      {lines.map((line, i) => (
        <Text key={i} style={styles.text} dir="auto">
          {line}
        </Text>
      ))}
    </>
  );
}

/**
 * A labelled row in the details box; `secondary` is an optional second line (e.g. the recipient's time).
 * `typed` marks a value a person typed (a location): it gets `dir="auto"`.
 */
export function DetailRow({
  label,
  value,
  secondary,
  typed = false,
}: {
  label: string;
  value: string;
  secondary?: string | null;
  typed?: boolean;
}) {
  return (
    <>
      <Text style={styles.label}>{label}</Text>
      <Text style={styles.value} dir={typed ? 'auto' : undefined}>
        {value}
      </Text>
      {secondary ? <Text style={styles.secondary}>{secondary}</Text> : null}
    </>
  );
}

/** A labelled link row in the details box. */
export function LinkRow({ label, href }: { label: string; href: string }) {
  return (
    <>
      <Text style={styles.label}>{label}</Text>
      <Text style={styles.value}>
        <Link href={href} style={styles.link}>
          {href}
        </Link>
      </Text>
    </>
  );
}

/** Grey box holding the detail rows. */
export function Details({ children }: { children: ReactNode }) {
  return <Section style={styles.details}>{children}</Section>;
}

/** Notes from the organiser under the reader's "Notes from the organiser" label, or nothing when there are none. */
export function Notes({ notes, m }: { notes: string | null; m: MessageContext }) {
  if (!notes || !notes.trim()) return null;
  return (
    <>
      <Text style={styles.label}>{m.plain(m.text.common.notes)}</Text>
      <Paragraphs text={notes} />
    </>
  );
}

/**
 * The event's note for participants (domain/scheduling/event-note.ts), in a paragraph of its own under `label` (the
 * reader's "Please note", or "Note for participants" to a host), one paragraph per non-blank line, each line formatted
 * with the kind's `note` message (`{eventNote}`, typed text kept whole and isolated for direction). Nothing at all —
 * no label, no empty paragraph — when the note is empty or blank.
 */
export function EventNote({ note, label, source, m }: { note: string; label: string; source: string; m: MessageContext }) {
  const lines = note
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  if (lines.length === 0) return null;
  return (
    <>
      <Text style={styles.label}>{m.plain(label)}</Text>
      {lines.map((line, i) => (
        <Text key={i} style={styles.text}>
          <SentenceNodes sentence={m.sentence(source, { eventNote: { typed: line } })} dir={m.dir} />
        </Text>
      ))}
    </>
  );
}

/** The reason staff typed for a cancellation, under the reader's "Reason" label, or nothing when there is none. */
export function Reason({ reason, m }: { reason: string | null; m: MessageContext }) {
  if (!reason || !reason.trim()) return null;
  return (
    <>
      <Text style={styles.label}>{m.plain(m.text.common.reason)}</Text>
      <Paragraphs text={reason} />
    </>
  );
}

/**
 * Subject lines are single-line: collapse runs of spaces, tabs and line breaks to one space. No-break and
 * thin spaces are kept: CLDR patterns use them (U+202F before "AM", U+2009 around a range dash).
 */
export function oneLine(text: string): string {
  return text.replace(/[\t\n\v\f\r \u0085\u2028\u2029]+/g, ' ').trim();
}

/**
 * Compact start of the event in its own zone, for subjects and intros, in the message's locale (its `lang`, see
 * {@link messageLocale}): "Sun 28 Mar, 11:00 CEST", or "Mon 18 Oct (all day)". `startsAt` is a UTC instant.
 * @throws Error naming the field for an invalid instant or zone (validate with the schema first).
 */
export function eventShortWhen(data: {
  startsAt: string;
  eventTimeZone: string;
  locale: string;
  allDay: boolean;
}): string {
  const { lang, words } = messageLocale(data.locale);
  return formatShortWhen({ at: data.startsAt, timeZone: data.eventTimeZone, locale: lang, allDay: data.allDay, words });
}

/**
 * The event's time as the email's detail lines (domain/format-time.ts `formatEventTime`) in the message's locale and
 * words: "Sunday, 28 March 2027, 11:00–12:00 CEST" and the reader's own "… (your time)".
 * @throws Error naming the field for an invalid instant or zone (validate with the schema first).
 */
export function eventTime(data: FormatEventTimeInput): FormattedEventTime {
  const { lang, words } = messageLocale(data.locale);
  return formatEventTime({ ...data, locale: lang, words });
}

/** "yes" for an all-day event, else "no": the value of the messages' `allDay` select. */
export function allDayValue(data: { allDay: boolean }): 'yes' | 'no' {
  return data.allDay ? 'yes' : 'no';
}

/**
 * "Will you be there?" with the two signed action buttons ("I'll be there", "I can't come") of the reader's booking, or
 * nothing when the message carries no action links (`confirmUrl`/`declineUrl` absent: hosts, previews, a cancelled
 * booking). Words from the catalog's `common` section.
 */
export function ActionLinks({ data, m }: { data: { confirmUrl?: string | null; declineUrl?: string | null }; m: MessageContext }) {
  if (!data.confirmUrl || !data.declineUrl) return null;
  const { common } = m.text;
  return (
    <Section style={{ margin: '8px 0 16px' }}>
      <Text style={styles.text}>{m.plain(common.actionPrompt)}</Text>
      <Button href={data.confirmUrl} style={styles.button}>
        {m.plain(common.actionConfirm)}
      </Button>{' '}
      <Button href={data.declineUrl} style={{ ...styles.button, backgroundColor: '#ffffff', color: '#b42318', border: '1px solid #b42318' }}>
        {m.plain(common.actionDecline)}
      </Button>
    </Section>
  );
}
