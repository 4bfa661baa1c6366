/**
 * Rendering a message builds no new `Intl.DateTimeFormat` once its template, locale and zones have been seen
 * (issue #11: a send used to construct dozens — luxon's zone checks and domain/format-time.ts). Every
 * construction in this file is counted by a Proxy around the global constructor, installed before the
 * templates are loaded; luxon and domain/ build their formatters through it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TemplateId } from '@/domain/vocabulary';
import type { TemplateData } from '@/emails';

const counter = { constructed: 0 };
const RealDateTimeFormat = Intl.DateTimeFormat;
Intl.DateTimeFormat = new Proxy(RealDateTimeFormat, {
  construct(target, args, newTarget) {
    counter.constructed++;
    return Reflect.construct(target, args, newTarget);
  },
  apply(target, thisArg, args) {
    counter.constructed++;
    return Reflect.apply(target, thisArg, args);
  },
});

let emails: typeof import('@/emails');
let sms: typeof import('@/emails/sms');
beforeAll(async () => {
  emails = await import('@/emails');
  sms = await import('@/emails/sms');
});

/** New formatters constructed while rendering the email and the SMS of `data`. */
async function constructedBy(template: TemplateId, data: TemplateData): Promise<number> {
  const before = counter.constructed;
  await emails.renderReminderEmail(template, data);
  sms.renderSmsText(template, data);
  return counter.constructed - before;
}

/** `data` moved by `minutes` (another booking of another event in the same zones and locale). */
function shifted(data: TemplateData, minutes: number): TemplateData {
  const move = (iso: string | null) => (iso === null ? null : new Date(Date.parse(iso) + minutes * 60_000).toISOString());
  const out = { ...data, startsAt: move(data.startsAt)!, endsAt: move(data.endsAt), roomOpensAt: move(data.roomOpensAt) };
  if ('previousStartsAt' in data) Object.assign(out, { previousStartsAt: move(data.previousStartsAt), previousEndsAt: move(data.previousEndsAt) });
  return out;
}

// Zone pairs and locales no other case in this file uses, so the first render really is the first.
const fresh: Array<{ locale: string; eventTimeZone: string; recipientTimeZone: string }> = [
  { locale: 'nl', eventTimeZone: 'Asia/Tokyo', recipientTimeZone: 'Africa/Lagos' },
  { locale: 'de', eventTimeZone: 'America/Chicago', recipientTimeZone: 'Europe/Lisbon' },
  { locale: 'ar', eventTimeZone: 'Asia/Dubai', recipientTimeZone: 'Australia/Sydney' },
  { locale: 'en-US', eventTimeZone: 'America/Denver', recipientTimeZone: 'Asia/Kathmandu' },
];

describe('formatters are built once per locale, zone and pattern', () => {
  it.each(fresh.map((f, i) => [f.locale, f.eventTimeZone, f.recipientTimeZone, i] as const))(
    'attendee reminder in %s, %s → %s: the first render builds formatters, later renders none',
    async (locale, eventTimeZone, recipientTimeZone) => {
      const data = { ...emails.previewData['attendee-reminder'], locale, eventTimeZone, recipientTimeZone };
      expect(await constructedBy('attendee-reminder', data)).toBeGreaterThan(0);
      // The same message again (another recipient of the same event).
      expect(await constructedBy('attendee-reminder', data)).toBe(0);
      // Other instants in the same zones and locale (another event): formatters are reused, results are new.
      expect(await constructedBy('attendee-reminder', shifted(data, 24 * 60 + 15))).toBe(0);
      expect(await constructedBy('attendee-reminder', shifted(data, 3 * 24 * 60 - 30))).toBe(0);
    },
  );

  it('every template, once warmed up in a locale and zones, renders with no new formatter', async () => {
    const zones = { locale: 'nl', eventTimeZone: 'Europe/Madrid', recipientTimeZone: 'America/Bogota' };
    for (const template of Object.keys(emails.previewData) as TemplateId[]) {
      const data = { ...emails.previewData[template], ...zones };
      await constructedBy(template, data);
      expect(await constructedBy(template, shifted(data, 7 * 24 * 60 + 45)), template).toBe(0);
    }
  });
});
