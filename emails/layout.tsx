/**
 * Shared layout and building blocks for the reminder emails.
 *
 * Every string shown is built in JS before it reaches JSX: a JSX text node mixing literal text and an
 * interpolated value renders `<!-- -->` between the parts in the HTML.
 */
import { Body, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from '@react-email/components';
import type { CSSProperties, ReactNode } from 'react';
import { formatShortWhen } from '../domain/format-time';

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
} satisfies Record<string, CSSProperties>;

export interface LayoutProps {
  /** Inbox preview line (hidden in the body, skipped in the text part). */
  preview: string;
  /** Heading at the top of the message. */
  heading: string;
  /** Tenant that sends the message, named in the footer. */
  tenantName: string;
  children: ReactNode;
}

/** Html/Head/Preview/Body/Container frame with a heading and a footer naming the tenant. */
export function Layout({ preview, heading, tenantName, children }: LayoutProps) {
  const footer = `Sent by ${tenantName} with Punctual because you take part in this event.`;
  return (
    <Html lang="en">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <Heading as="h1" style={styles.heading}>
            {heading}
          </Heading>
          {children}
          <Hr style={styles.hr} />
          <Text style={styles.footer}>{footer}</Text>
        </Container>
      </Body>
    </Html>
  );
}

/** "Hello Ana," or "Hello," when the name is empty or blank. Pure. */
export function greeting(recipientName: string): string {
  const name = recipientName.trim();
  return name ? `Hello ${name},` : 'Hello,';
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
        <Text key={i} style={styles.text}>
          {line}
        </Text>
      ))}
    </>
  );
}

/** A labelled row in the details box; `secondary` is an optional second line (e.g. the recipient's time). */
export function DetailRow({ label, value, secondary }: { label: string; value: string; secondary?: string | null }) {
  return (
    <>
      <Text style={styles.label}>{label}</Text>
      <Text style={styles.value}>{value}</Text>
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
