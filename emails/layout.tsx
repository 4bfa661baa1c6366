/**
 * Shared layout and building blocks for the reminder emails.
 *
 * Every string shown is built in JS before it reaches JSX: a JSX text node mixing literal text and an
 * interpolated value renders `<!-- -->` between the parts in the HTML. Sentences that contain text people
 * typed are arrays of strings and {@link Typed} elements (a string next to an element renders no comment).
 *
 * Direction (issue 8 §5): the message carries the reader's `lang` and, for a right-to-left locale,
 * `dir="rtl"` on <html>, <body> and the container table (some clients drop the <html>/<body> attributes).
 * Text people typed (titles, names, places, notes, the organisation's name) is wrapped in `dir="auto"` so
 * it keeps its own direction inside the sentence, and in Unicode isolates when needed
 * (domain/text-direction.ts) so the plain-text part and the subject keep it too.
 */
import { Body, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from '@react-email/components';
import type { CSSProperties, ReactNode } from 'react';
import { formatShortWhen, resolveLocale } from '@/domain/format-time';
import { isolateTyped, localeDirection, type TextDirection } from '@/domain/text-direction';
import type { PreferenceCategory } from '@/domain/vocabulary';

/** The words of a preference category in "Unsubscribe from …" (domain/notifications/preferences.ts categoryPhrase, kept here as the template's own text). */
const unsubscribeWords: Record<PreferenceCategory, string> = { reminders: 'reminders', booking_updates: 'booking updates' };

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

const messageLocales = new Map<string, { lang: string; dir: TextDirection }>();

/** The reader's message language (supported BCP 47 tag, else "en") and its writing direction. Cached per locale. */
export function messageLocale(locale: string): { lang: string; dir: TextDirection } {
  let found = messageLocales.get(locale);
  if (!found) {
    const lang = resolveLocale(locale);
    found = { lang, dir: localeDirection(lang) };
    if (messageLocales.size >= 1000) messageLocales.clear();
    messageLocales.set(locale, found);
  }
  return { ...found };
}

/** Text a person typed, as an inline element with `dir="auto"` (isolated when needed, see the module comment). */
export function Typed({ text, dir }: { text: string; dir: TextDirection }) {
  return <span dir="auto">{isolateTyped(text, dir)}</span>;
}

/** A sentence of strings and typed text: strings stay as they are, typed parts become {@link Typed}. */
export type Sentence = Array<string | { typed: string }>;

/** The sentence as one plain string (typed parts isolated when needed), for subjects and previews. */
export function sentenceText(sentence: Sentence, dir: TextDirection): string {
  return sentence.map((p) => (typeof p === 'string' ? p : isolateTyped(p.typed, dir))).join('');
}

/** The sentence as inline content: typed parts wrapped in `dir="auto"`. */
function SentenceNodes({ sentence, dir }: { sentence: Sentence; dir: TextDirection }) {
  return (
    <>
      {sentence.map((p, i) => (typeof p === 'string' ? p : <Typed key={i} text={p.typed} dir={dir} />))}
    </>
  );
}

interface LayoutProps {
  /** Inbox preview line (hidden in the body, skipped in the text part). */
  preview: Sentence;
  /** Heading at the top of the message; a heading that is only typed text gets `dir="auto"` itself. */
  heading: Sentence;
  /** Tenant that sends the message, named in the footer. */
  tenantName: string;
  /** The reader's locale: sets `lang`, and `dir="rtl"` for right-to-left locales. */
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
  const { lang, dir } = messageLocale(locale);
  const footer: Sentence = ['Sent by ', { typed: tenantName }, ' with Punctual because you take part in this event.'];
  const onlyTyped = heading.length === 1 && typeof heading[0] !== 'string' ? heading[0].typed : null;
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
              <SentenceNodes sentence={['Choose how ', { typed: tenantName }, ' reaches you: ']} dir={dir} />
              <Link href={preferencesUrl} style={styles.link}>
                {preferencesUrl}
              </Link>
            </Text>
          ) : null}
          {unsubscribeUrl ? (
            <Text style={styles.footerNext}>
              <Link href={unsubscribeUrl} style={styles.link}>
                {`Unsubscribe from ${unsubscribeCategory ? unsubscribeWords[unsubscribeCategory] : 'these messages'}`}
              </Link>
            </Text>
          ) : null}
        </Container>
      </Body>
    </Html>
  );
}

/** ["Hello ", name, ","] or ["Hello,"] when the name is empty or blank. Pure. */
export function greeting(recipientName: string): Sentence {
  const name = recipientName.trim();
  return name ? ['Hello ', { typed: name }, ','] : ['Hello,'];
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
function Paragraphs({ text }: { text: string }) {
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

/** Notes from the organiser, or nothing when there are none. */
export function Notes({ notes }: { notes: string | null }) {
  if (!notes || !notes.trim()) return null;
  return (
    <>
      <Text style={styles.label}>Notes from the organiser</Text>
      <Paragraphs text={notes} />
    </>
  );
}

/** The reason staff typed for a cancellation, under a "Reason" label, or nothing when there is none. */
export function Reason({ reason }: { reason: string | null }) {
  if (!reason || !reason.trim()) return null;
  return (
    <>
      <Text style={styles.label}>Reason</Text>
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
 * Compact start of the event in its own zone, for subjects and intros: "Sun 28 Mar, 11:00 CEST", or
 * "Mon 18 Oct (all day)". `startsAt` is a UTC instant.
 * @throws Error naming the field for an invalid instant or zone (validate with the schema first).
 */
export function eventShortWhen(data: {
  startsAt: string;
  eventTimeZone: string;
  locale: string;
  allDay: boolean;
}): string {
  return formatShortWhen({ at: data.startsAt, timeZone: data.eventTimeZone, locale: data.locale, allDay: data.allDay });
}

/**
 * "starts Sun 28 Mar, 11:00 CEST" or, for all-day events, "is on Mon 18 Oct (all day)": the event's start in
 * its own zone (see {@link eventShortWhen}), as the end of a sentence about the event.
 * @throws Error naming the field for an invalid instant or zone (validate with the schema first).
 */
export function eventStartsPhrase(data: { startsAt: string; eventTimeZone: string; locale: string; allDay: boolean }): string {
  const when = eventShortWhen(data);
  return data.allDay ? `is on ${when}` : `starts ${when}`;
}
