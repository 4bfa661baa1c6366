/**
 * The render cases of the byte-identity checks (issue #11, rendering): every template's preview data in several
 * locales and zone situations, with and without the person's links. Shared by test/unit/render-identity.test.ts
 * and the golden writer (test/unit/render-golden.ts). Pure data, no I/O.
 *
 * Each case is `{ id, template, data }`; `id` is "template|locale|situation" and keys the golden file
 * (test/fixtures/render-golden.json).
 */
import { templateIds, type TemplateId } from '@/domain/vocabulary';
import { previewData, type TemplateData } from '@/emails';

/** The reader locales checked: default English, US English, German, Dutch and a right-to-left locale. */
const renderLocales = ['en', 'en-US', 'de', 'nl', 'ar'] as const;

/** Zone situations: each changes timing/zones of the preview data (and, for one, adds the links). */
const situations: Record<string, Partial<TemplateData>> = {
  // The preview's own zones (event zone ≠ recipient zone, "(your time)" line), no links.
  preview: {},
  // With the preferences and one-click unsubscribe links (footer lines and text-part links).
  links: {
    preferencesUrl: 'https://punctual.example.com/preferences/p.eyJ0IjoxfQ.sig',
    unsubscribeUrl: 'https://punctual.example.com/u/u.eyJjIjoyfQ.sig',
    unsubscribeCategory: 'reminders',
  },
  // No recipient zone, a zone with a half-hour offset.
  kolkata: { eventTimeZone: 'Asia/Kolkata', recipientTimeZone: null },
  // Offset-only zone labels on both sides (IANA name appended).
  offsets: { eventTimeZone: 'America/Sao_Paulo', recipientTimeZone: 'Europe/Kyiv' },
  // A range across the autumn change of offset in Berlin (each end its own label), recipient in UTC.
  dst: {
    eventTimeZone: 'Europe/Berlin',
    recipientTimeZone: 'UTC',
    startsAt: '2027-10-31T00:30:00.000Z',
    endsAt: '2027-10-31T02:30:00.000Z',
    roomOpensAt: '2027-10-31T00:15:00.000Z',
  },
  // A three-day all-day event, recipient far away.
  allday: {
    allDay: true,
    eventTimeZone: 'Pacific/Auckland',
    recipientTimeZone: 'America/Los_Angeles',
    startsAt: '2027-10-17T11:00:00.000Z',
    endsAt: '2027-10-20T11:00:00.000Z',
    roomOpensAt: '2027-10-17T19:00:00.000Z',
  },
};

interface RenderCase {
  id: string;
  template: TemplateId;
  data: TemplateData;
}

/**
 * Templates written after the goldens (no two-render output ever existed for them, so they have no golden): the
 * details-changed notice is rendered by the one-render path only (test/unit/notification-templates.test.ts covers it).
 */
const withoutGolden: readonly TemplateId[] = ['event-details-changed'];

/** All cases: templates with a golden × {@link renderLocales} × situations (8 × 5 × 6 = 240). */
export function renderCases(): RenderCase[] {
  const cases: RenderCase[] = [];
  for (const template of templateIds.filter((t) => !withoutGolden.includes(t))) {
    for (const locale of renderLocales) {
      for (const [name, change] of Object.entries(situations)) {
        const data = { ...previewData[template], ...change, locale } as TemplateData;
        cases.push({ id: `${template}|${locale}|${name}`, template, data });
      }
    }
  }
  return cases;
}
