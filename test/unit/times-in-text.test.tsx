/**
 * Staff-facing text never shows a raw ISO instant (issue #12): a stored reason rendered through
 * components/ui/TimesInText.tsx and components/ui/StatusBadge.tsx shows the instant in the given zone, keeps the exact
 * instant only in the machine-readable `dateTime` attribute, and words the tooltip without one.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { StatusWithReason } from '@/components/ui/StatusBadge';
import { TimesInText } from '@/components/ui/TimesInText';

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
/** The words on the page: the markup without its tags. */
const words = (html: string) => html.replace(/<[^>]*>/g, '');
/** Everything a person reads: the words and every tooltip (`title`). */
const visible = (html: string) =>
  html.replace(/<[^>]*>/g, (tag) => {
    const title = /\stitle="([^"]*)"/.exec(tag)?.[1];
    return title ? ` ${title} ` : '';
  });

describe('TimesInText', () => {
  it('renders each ISO instant of a stored reason in the event’s zone, with the instant kept for machines', () => {
    const html = renderToStaticMarkup(<TimesInText text="cannot replay: the reminder’s expiry instant 2026-11-29T16:52:00.000Z has passed" zone="Europe/Amsterdam" />);
    expect(html).toContain('<time dateTime="2026-11-29T16:52:00.000Z"');
    expect(words(html)).toContain('cannot replay: the reminder’s expiry instant Sun 29 Nov 2026, 17:52 CET has passed');
    expect(visible(html)).not.toMatch(ISO);
  });
  it('leaves a text without instants as it is', () => {
    expect(renderToStaticMarkup(<TimesInText text="event cancelled" zone="UTC" />)).toBe('event cancelled');
  });
  it('a status badge with such a reason has no ISO instant in its words or its tooltip', () => {
    const html = renderToStaticMarkup(
      <StatusWithReason status="retrying" kind="delivery" reason="transient (421: busy); next attempt at 2027-06-15T08:00:05.000Z" zone="America/New_York" />,
    );
    expect(visible(html)).toContain('next attempt at Tue 15 Jun 2027, 04:00:05 EDT'); // the badge's tooltip
    expect(words(html)).toContain('next attempt at Tue 15 Jun 2027, 04:00 EDT');
    expect(visible(html)).not.toMatch(ISO);
  });
});
