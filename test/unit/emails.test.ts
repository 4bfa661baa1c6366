/**
 * Reminder email templates: every template renders its preview data and degraded variants without
 * leaking placeholders or "undefined"/"Invalid DateTime" (DESIGN §4 invariant 5). No database needed.
 */
import { describe, expect, it } from 'vitest';
import { formatEventTime, resolveLocale } from '@/domain/format-time';
import { templateIds, type TemplateId } from '@/domain/vocabulary';
import { parseTemplateData, previewData, renderReminderEmail, type ReminderTemplateData } from '@/emails';

const forbiddenStrings = ['undefined', 'null', 'NaN', 'Invalid DateTime', '[object Object]'];
const placeholderPattern = /\{\{|\{[a-zA-Z]+\}/;

interface Variant {
  name: string;
  change: Partial<ReminderTemplateData>;
  /** Whether the event's "(your time)" line must appear. */
  recipientLine: boolean;
  /**
   * Whether the room-opening email shows a "(your time)" line for the room-open instant, when that differs
   * from `recipientLine` (the room opens at a clock time even for an all-day event).
   */
  roomOpensLine?: boolean;
}

const variants: Variant[] = [
  // Preview data: attendee → New York, room-opening → Amsterdam, host → Kolkata; all differ from the event zone.
  { name: 'preview data', change: {}, recipientLine: true },
  {
    name: 'no location, notes, name, end or recipient zone',
    change: { location: null, notes: null, recipientName: '', endsAt: null, recipientTimeZone: null },
    recipientLine: false,
  },
  { name: 'recipient in the event zone', change: { recipientTimeZone: 'PLACEHOLDER_EVENT_ZONE' }, recipientLine: false },
  { name: 'blank name and blank notes', change: { recipientName: '   ', notes: ' \n ' }, recipientLine: true },
  {
    name: 'all-day event',
    change: {
      allDay: true,
      startsAt: '2027-10-17T22:00:00.000Z',
      endsAt: '2027-10-18T22:00:00.000Z',
      roomOpensAt: '2027-10-18T07:00:00.000Z',
    },
    recipientLine: false,
    roomOpensLine: true,
  },
  { name: 'unsupported locale', change: { locale: 'not a locale' }, recipientLine: true },
  { name: 'participant count 0', change: { participantCount: 0 }, recipientLine: true },
];

function variantData(templateId: TemplateId, variant: Variant): ReminderTemplateData {
  const base = previewData[templateId];
  const data = { ...base, ...variant.change };
  // Only the room-opening template uses roomOpensAt; the others keep their preview value.
  if (templateId !== 'room-opening') data.roomOpensAt = base.roomOpensAt;
  if (data.recipientTimeZone === 'PLACEHOLDER_EVENT_ZONE') data.recipientTimeZone = base.eventTimeZone;
  return data;
}

function expectClean(label: string, value: string) {
  for (const word of forbiddenStrings) {
    expect(value.includes(word), `${label} contains "${word}"`).toBe(false);
  }
  expect(value, `${label} contains a raw placeholder`).not.toMatch(placeholderPattern);
}

describe.each(templateIds)('template %s', (templateId) => {
  it('preview data passes its own schema', () => {
    expect(parseTemplateData(templateId, previewData[templateId])).toEqual({
      ok: true,
      data: previewData[templateId],
    });
  });

  it.each(variants)('renders cleanly: $name', async (variant) => {
    const data = variantData(templateId, variant);
    const parsed = parseTemplateData(templateId, data);
    expect(parsed).toMatchObject({ ok: true });

    const { subject, html, text } = await renderReminderEmail(templateId, data);
    expectClean('subject', subject);
    expectClean('html', html);
    expectClean('text', text);
    expect(html, 'JSX interpolation left a comment between text parts').not.toContain('<!-- -->');
    expect(subject).not.toMatch(/\n/);

    expect(subject).toContain(data.eventTitle);
    expect(text).toContain(data.eventTitle);
    expect(html).toContain(data.eventTitle);

    const time = formatEventTime(data);
    expect(text).toContain(time.eventZoneLine);
    expect(time.recipientZoneLine !== null).toBe(variant.recipientLine);
    if (time.recipientZoneLine) expect(text).toContain(time.recipientZoneLine);
    const roomOpensLine = templateId === 'room-opening' && (variant.roomOpensLine ?? variant.recipientLine);
    expect(text.includes('your time)')).toBe(variant.recipientLine || roomOpensLine);

    if (data.allDay) {
      expect(text).toContain('(all day)');
      // The reader's own CLDR long date for 18 October in the event zone (independent of formatEventTime).
      const day = new Intl.DateTimeFormat(resolveLocale(data.locale), {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        weekday: 'long',
        timeZone: data.eventTimeZone,
      }).format(new Date('2027-10-18T12:00:00Z'));
      expect(text).toContain(`${day} (all day)`);
    }

    const name = data.recipientName.trim();
    expect(text).toContain(name ? `Hello ${name},` : 'Hello,');
    expect(text).not.toMatch(/Hello\s+,/);

    // A details-changed notice names a changed place under "Where" (old → new) even when the place is now empty.
    const placeChanged = ((data as { detailChanges?: { field: string }[] }).detailChanges ?? []).some((c) => c.field === 'location');
    if (data.location) expect(text).toContain(data.location);
    else if (!placeChanged) expect(text).not.toContain('Where');
    if (!data.notes?.trim()) expect(text).not.toContain('Notes from the organiser');

    expect(text).toContain(data.tenantName);
  });
});

describe('template wording', () => {
  it('attendee reminder: subject and intro in the event zone', async () => {
    const { subject, text } = await renderReminderEmail('attendee-reminder', previewData['attendee-reminder']);
    expect(subject).toBe('Reminder: Intro workshop \u2014 Sun 28 Mar, 11:00 CEST');
    expect(text).toContain('Reminder: Intro workshop starts Sun 28 Mar, 11:00 CEST.');
    expect(text).toContain('Sunday, 28 March 2027, 11:00\u201312:00 CEST');
    expect(text).toContain('Sunday, 28 March 2027, 05:00\u201306:00 EDT (your time)');
  });

  it('attendee reminder for an external guest names the tenant', async () => {
    const data = { ...previewData['attendee-reminder'], role: 'external' as const };
    const { text } = await renderReminderEmail('attendee-reminder', data);
    expect(text).toContain('You are invited as a guest of Studio Noord.');
  });

  it('room opening: subject, button link and both times', async () => {
    const data = previewData['room-opening'];
    const { subject, html, text } = await renderReminderEmail('room-opening', data);
    // Locale "en" is CLDR's American English: 12-hour clock, U+202F before AM/PM.
    expect(subject).toBe('The room for Quarterly planning opens at 9:45\u202fAM EST');
    expect(html).toContain(`href="${data.roomUrl}"`);
    expect(text).toContain('Join the online room');
    expect(text).toContain('Sunday, November 7, 2027 at 9:45\u202fAM EST');
    expect(text).toContain('Sunday, November 7, 2027 at 3:45\u202fPM CET (your time)');
  });

  it('host reminder: hosting wording and participant count', async () => {
    const data = previewData['host-reminder'];
    const { subject, text } = await renderReminderEmail('host-reminder', data);
    expect(subject).toBe('You are hosting Intro workshop \u2014 Sun 28 Mar, 11:00 CEST');
    expect(text).toContain('12 participants have booked.');

    const one = await renderReminderEmail('host-reminder', { ...data, participantCount: 1 });
    expect(one.text).toContain('1 participant has booked.');
    const unknown = await renderReminderEmail('host-reminder', { ...data, participantCount: null });
    expect(unknown.text).not.toContain('participant');
  });

  it('subject stays on one line when the title has a newline', async () => {
    const data = { ...previewData['attendee-reminder'], eventTitle: 'Intro\nworkshop' };
    const { subject } = await renderReminderEmail('attendee-reminder', data);
    expect(subject).toBe('Reminder: Intro workshop \u2014 Sun 28 Mar, 11:00 CEST');
  });
});

describe('parseTemplateData', () => {
  const base = previewData['attendee-reminder'];
  const without = (key: keyof ReminderTemplateData) => {
    const copy: Record<string, unknown> = { ...base };
    delete copy[key];
    return copy;
  };

  const cases: Array<{ name: string; templateId: TemplateId; data: unknown; field: string; message?: string }> = [
    { name: 'startsAt missing', templateId: 'attendee-reminder', data: without('startsAt'), field: 'startsAt', message: 'startsAt: required' },
    { name: 'startsAt not an instant', templateId: 'attendee-reminder', data: { ...base, startsAt: '2027-03-28 09:00' }, field: 'startsAt' },
    { name: 'startsAt without zone', templateId: 'attendee-reminder', data: { ...base, startsAt: '2027-03-28T09:00:00' }, field: 'startsAt' },
    { name: 'invalid event zone', templateId: 'attendee-reminder', data: { ...base, eventTimeZone: 'Europe/Atlantis' }, field: 'eventTimeZone' },
    { name: 'invalid recipient zone', templateId: 'host-reminder', data: { ...previewData['host-reminder'], recipientTimeZone: 'CEST' }, field: 'recipientTimeZone' },
    { name: 'endsAt missing (must be null, not absent)', templateId: 'attendee-reminder', data: without('endsAt'), field: 'endsAt', message: 'endsAt: required' },
    { name: 'endsAt before startsAt', templateId: 'attendee-reminder', data: { ...base, endsAt: '2027-03-28T08:00:00.000Z' }, field: 'endsAt' },
    { name: 'empty title', templateId: 'attendee-reminder', data: { ...base, eventTitle: '  ' }, field: 'eventTitle' },
    { name: 'unknown role', templateId: 'attendee-reminder', data: { ...base, role: 'guest' }, field: 'role' },
    { name: 'negative participant count', templateId: 'attendee-reminder', data: { ...base, participantCount: -1 }, field: 'participantCount' },
    { name: 'javascript: room url', templateId: 'attendee-reminder', data: { ...base, roomUrl: 'javascript:alert(1)' }, field: 'roomUrl' },
    { name: 'room opening without roomUrl', templateId: 'room-opening', data: { ...previewData['room-opening'], roomUrl: null }, field: 'roomUrl', message: 'roomUrl: required' },
    { name: 'room opening without roomOpensAt', templateId: 'room-opening', data: { ...previewData['room-opening'], roomOpensAt: null }, field: 'roomOpensAt', message: 'roomOpensAt: required' },
    { name: 'host reminder to an attendee', templateId: 'host-reminder', data: { ...previewData['host-reminder'], role: 'attendee' }, field: 'role' },
    { name: 'not an object', templateId: 'attendee-reminder', data: null, field: 'data' },
    { name: 'unknown template id', templateId: 'birthday' as TemplateId, data: base, field: 'templateId' },
  ];

  it.each(cases)('$name → field $field', ({ templateId, data, field, message }) => {
    const result = parseTemplateData(templateId, data);
    expect(result).toMatchObject({ ok: false, field });
    if (!result.ok) {
      expect(result.message.startsWith(`${field}: `)).toBe(true);
      if (message) expect(result.message).toBe(message);
    }
  });

  it('defaults locale to en and drops unknown keys', () => {
    const input: Record<string, unknown> = { ...without('locale'), extra: 1 };
    const result = parseTemplateData('attendee-reminder', input);
    expect(result.ok && result.data.locale).toBe('en');
    expect(result.ok && 'extra' in result.data).toBe(false);
  });
});

describe('renderReminderEmail errors', () => {
  it('rejects an unknown template id', async () => {
    await expect(
      renderReminderEmail('birthday' as TemplateId, previewData['attendee-reminder']),
    ).rejects.toThrow(/Unknown email template id "birthday"/);
  });

  it('rejects invalid data naming the field', async () => {
    const data = { ...previewData['attendee-reminder'], startsAt: 'soon' };
    await expect(renderReminderEmail('attendee-reminder', data)).rejects.toThrow(/startsAt: /);
  });
});
