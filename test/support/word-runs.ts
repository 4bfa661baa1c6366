/**
 * "No English sentence" for the language tests: the three-word runs of a text, and the runs of every built-in
 * English message. Pure.
 */
import { catalogs, formatSentence, sentenceText, type MessageValue } from '@/emails/messages';

/**
 * The three-word runs of `text` (lower case). Runs are broken by the `typed` values (text people typed: titles,
 * names, places), URLs, any token with a digit (dates, times, zone offsets), sentence punctuation and line breaks,
 * so what is left are the message's own words.
 */
export function wordRuns(text: string, typed: readonly string[]): Set<string> {
  let t = text.replace(/[\u2068\u2069\u200e\u200f]/g, '');
  for (const v of [...typed].sort((a, b) => b.length - a.length)) if (v) t = t.split(v).join(' | ');
  t = t.replace(/https?:\/\/\S+/g, ' | ');
  const runs = new Set<string>();
  for (const segment of t.split(/[|.,:;!?()·\n–—-]|\S*\d\S*/u)) {
    const words = segment.toLowerCase().match(/\p{L}[\p{L}'’]*/gu) ?? [];
    for (let i = 0; i + 3 <= words.length; i++) runs.add(words.slice(i, i + 3).join(' '));
  }
  return runs;
}

const placeholder = (name: string) => ({ typed: `\u0001${name}\u0001` });
/** A value for every placeholder of the built-in messages; typed ones are markers that break runs. */
const sample: Record<string, MessageValue> = {
  name: placeholder('name'),
  tenantName: placeholder('tenantName'),
  eventTitle: placeholder('eventTitle'),
  location: placeholder('location'),
  reason: placeholder('reason'),
  eventNote: placeholder('eventNote'),
  // A details-changed notice: one changed detail's label, and all its changes as sentences.
  field: 'location',
  changes: placeholder('changes'),
  participantName: placeholder('participantName'),
  when: '|',
  time: '|',
  was: '|',
  now: '|',
  category: 'reminders',
  count: 3,
  link: { link: 'https://x.test/' },
  url: 'https://x.test/',
  // Account mail.
  invitedBy: placeholder('invitedBy'),
  until: '|',
  address: 'a@x.test',
  role: 'staff',
};

/**
 * The three-word runs of every built-in English message (both `allDay` forms, every unsubscribe category). The
 * `pages` section is not message text (the words of the pages a person opens from a message; test/unit/public-pages.test.ts
 * checks those per language).
 */
export function englishMessageRuns(): Set<string> {
  const runs = new Set<string>();
  for (const [section, messages] of Object.entries(catalogs.en)) {
    if (section === 'pages') continue;
    for (const source of Object.values(messages as Record<string, string>)) {
      for (const allDay of ['yes', 'no']) {
        for (const category of ['reminders', 'booking_updates', 'none']) {
          for (const count of [0, 1, 3]) {
            const text = sentenceText(formatSentence('en', source, { ...sample, allDay, category, count }), 'ltr').replace(/\u0001\w+\u0001/g, '|');
            for (const r of wordRuns(text, [])) runs.add(r);
          }
        }
      }
    }
  }
  return runs;
}
