/**
 * A contact's channel preferences (issue #9, DESIGN §3 "preferences"): per preference category, the personal
 * channels the contact accepts. Pure: no I/O, no clock.
 *
 * Rules:
 * - Categories: every rule reminder and nudge is `reminders`; every notification is `booking_updates`; every
 *   announcement staff write to the people of an event is `announcements` (vocabulary.ts). An empty list means
 *   "opted out of that category".
 * - `announcements` came after the other two: a stored value without it (every contact saved before it existed) reads
 *   it as the person's `booking_updates` channels — what they chose for messages about their bookings — so a person
 *   who opted out of those is not written to by a category they never saw.
 * - A contact with no stored preferences, or a stored value that cannot be read, gets {@link defaultPreferences}
 *   (email for both categories) — per category, so one damaged category does not reset the other.
 * - An essential notification type (vocabulary.ts `essentialTypes`, e.g. `event_cancelled`) ignores opt-outs:
 *   it goes to every channel the contact accepts in ANY category, and to email when they accept none. It never
 *   ignores a suppression (bounce, complaint, invalid number): that is checked at send time elsewhere.
 * - `webhook` is the organisation's channel, not the person's: preferences never stop it.
 * - Channel lists are kept in one order, email before sms ({@link personalChannels}).
 * - A one-click unsubscribe (issue #10 §5, RFC 8058) empties one category and records when, in the same jsonb
 *   value: `{ reminders: [], booking_updates: ['email'], unsubscribed: { reminders: '<ISO instant>' } }`. The
 *   marker only names why a category is empty — it counts while the category's list is empty and is dropped
 *   when a channel is ticked again ({@link readUnsubscribed}, {@link storedPreferences}).
 */
import { z } from 'zod';
import {
  essentialTypes,
  personalChannels,
  preferenceCategories,
  type Channel,
  type DomainEventType,
  type PersonalChannel,
  type PreferenceCategory,
  type ReminderKind,
} from '@/domain/vocabulary';

/** Per category, the channels the contact accepts (email before sms; empty = opted out of the category). */
export type ChannelPreferences = Record<PreferenceCategory, PersonalChannel[]>;

/** Preferences of a contact who never chose any: everything by email. */
export const defaultPreferences: ChannelPreferences = { reminders: ['email'], booking_updates: ['email'], announcements: ['email'] };

const isPersonalChannel = (c: unknown): c is PersonalChannel => (personalChannels as readonly unknown[]).includes(c);

/** `list` reduced to distinct personal channels in the canonical order (email before sms). */
function canonical(list: readonly unknown[]): PersonalChannel[] {
  return personalChannels.filter((c) => list.includes(c));
}

/** One category's channel list for API input: an array of distinct personal channels (may be empty). */
const channelListSchema = z
  .array(z.unknown(), {
    error: (iss) =>
      iss.input === undefined
        ? 'required: a list of channels such as ["email"] (an empty list opts out)'
        : 'must be a list of channels such as ["email", "sms"] (an empty list opts out)',
  })
  .superRefine((list, ctx) => {
    const seen = new Set<unknown>();
    for (const c of list) {
      if (!isPersonalChannel(c)) {
        ctx.addIssue({ code: 'custom', message: `unknown channel ${JSON.stringify(c) ?? String(c)}` });
        return;
      }
      if (seen.has(c)) {
        ctx.addIssue({ code: 'custom', message: `channel "${c}" is listed twice` });
        return;
      }
      seen.add(c);
    }
  })
  .transform((list): PersonalChannel[] => canonical(list));

/**
 * zod schema for preferences sent to the API: `{ reminders: PersonalChannel[], booking_updates: PersonalChannel[],
 * announcements?: PersonalChannel[] }` — the first two required, `announcements` optional (a client written before the
 * category existed leaves it out: the stored choice is then kept, {@link withStoredAnnouncements}), no other keys. Each issue's path is the category, so `fromZodError` (server/platform/errors.ts) reads
 * e.g. `booking_updates: unknown channel "fax"` or `reminders: channel "sms" is listed
 * twice`; an unknown key reads `unknown category "push" (expected reminders and booking_updates)`. Output lists
 * are in canonical order (email before sms).
 */
export const preferencesSchema = z.strictObject(
  {
    reminders: channelListSchema,
    booking_updates: channelListSchema,
    announcements: channelListSchema.optional(),
  },
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? `unknown ${iss.keys.length === 1 ? 'category' : 'categories'} ${iss.keys.map((k) => JSON.stringify(k)).join(', ')} (expected reminders, booking_updates and announcements)`
        : 'must be an object with reminders and booking_updates (and optionally announcements), each a list of channels',
  },
);

/** Preferences as the API takes them: `announcements` may be absent (then the stored choice is kept). */
export type PreferencesInput = Omit<ChannelPreferences, 'announcements'> & { announcements?: PersonalChannel[] };

/** `input` made whole: an absent `announcements` list is the one `stored` has now ({@link readPreferences}). */
export function withStoredAnnouncements(input: PreferencesInput, stored: unknown): ChannelPreferences {
  return { ...input, announcements: input.announcements ?? readPreferences(stored).announcements };
}

/**
 * Reads preferences stored in a jsonb column, tolerantly: `null`/missing/garbage → {@link defaultPreferences};
 * per category, a list keeps its personal channels (deduplicated, email before sms, unknown entries dropped — an
 * empty list stays empty: an opt-out), and anything that is not a list gets that category's default. A JSON
 * string (double-encoded jsonb) is decoded first. Other keys (the one-click `unsubscribed` markers, read by
 * {@link readUnsubscribed}) are ignored. Never throws.
 */
export function readPreferences(stored: unknown): ChannelPreferences {
  const obj = storedObject(stored);
  const out = {} as ChannelPreferences;
  for (const category of preferenceCategories) {
    const list = obj[category];
    out[category] = Array.isArray(list) ? canonical(list) : [...defaultPreferences[category]];
  }
  // Stored before announcements existed: the person's choice for booking updates (module comment).
  if (!Array.isArray(obj.announcements) && Array.isArray(obj.booking_updates)) out.announcements = [...out.booking_updates];
  return out;
}

/** When the contact unsubscribed from each category by a one-click link (ISO-8601 UTC instants). */
export type UnsubscribeMarkers = Partial<Record<PreferenceCategory, string>>;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** `stored` as a plain object (a JSON string — double-encoded jsonb — decoded first), or {} for anything else. */
function storedObject(stored: unknown): Record<string, unknown> {
  let value = stored;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      value = null;
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * The one-click unsubscribe markers of a stored preferences value, tolerantly: only known categories, only
 * values that are ISO-8601 UTC instants (`…Z`), and only for a category whose channel list (as
 * {@link readPreferences} reads it) is empty — a category with a channel ticked again is subscribed, whatever
 * an old marker says. Anything else → {}. Never throws.
 */
export function readUnsubscribed(stored: unknown): UnsubscribeMarkers {
  const obj = storedObject(stored);
  const raw = obj.unsubscribed;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const prefs = readPreferences(obj);
  const out: UnsubscribeMarkers = {};
  for (const category of preferenceCategories) {
    const at = (raw as Record<string, unknown>)[category];
    if (typeof at === 'string' && ISO_INSTANT.test(at) && !Number.isNaN(Date.parse(at)) && prefs[category].length === 0) out[category] = at;
  }
  return out;
}

/**
 * The jsonb value to store for `prefs` (the two channel lists), keeping each marker of `markers` whose category
 * is still empty: a marker for a category where a channel is ticked again is dropped (re-subscribed).
 */
export function storedPreferences(prefs: ChannelPreferences, markers: UnsubscribeMarkers = {}): Record<string, unknown> {
  const kept: UnsubscribeMarkers = {};
  for (const category of preferenceCategories) {
    const at = markers[category];
    if (at && (prefs[category] ?? []).length === 0) kept[category] = at;
  }
  const lists = Object.fromEntries(preferenceCategories.map((c) => [c, canonical(prefs[c] ?? [])]));
  return Object.keys(kept).length > 0 ? { ...lists, unsubscribed: kept } : lists;
}

/**
 * The categories a save of `next` would subscribe again although the person unsubscribed from them with a
 * one-click link: those with a marker in `stored` ({@link readUnsubscribed}) where `next` ticks a channel. Staff
 * may do that only with the person's confirmed consent (server/notifications/contact-preferences.ts); the person's own page
 * may always. In {@link preferenceCategories} order.
 */
export function categoriesReenabled(stored: unknown, next: ChannelPreferences): PreferenceCategory[] {
  const markers = readUnsubscribed(stored);
  return preferenceCategories.filter((c) => markers[c] && (next[c] ?? []).length > 0);
}

/**
 * A one-click unsubscribe from `category` at `at` (issue #10 §5): every channel of that category removed and the
 * instant recorded. `changed: false` (nothing to write) when the category is already empty — a second click,
 * or an opt-out made on the preferences page — so the first record stands.
 * @returns the channels removed and the new value to store (other categories and their markers unchanged).
 */
export function unsubscribeFrom(
  stored: unknown,
  category: PreferenceCategory,
  at: Date,
): { changed: false } | { changed: true; removed: PersonalChannel[]; stored: Record<string, unknown> } {
  const prefs = readPreferences(stored);
  const removed = prefs[category];
  if (removed.length === 0) return { changed: false };
  const next: ChannelPreferences = { ...prefs, [category]: [] };
  return { changed: true, removed, stored: storedPreferences(next, { ...readUnsubscribed(stored), [category]: at.toISOString() }) };
}

/** A category in running text: "reminders", "booking updates". */
export function categoryPhrase(category: PreferenceCategory): string {
  return categoryWords[category][1];
}

/**
 * The preference category of a planned message: rule reminders and nudges are `reminders`, notifications are
 * `booking_updates`, announcements `announcements` (vocabulary.ts). `type` is the domain event type of a notification (null for the others);
 * it does not change the category today and is taken so a future per-type category needs no caller change.
 */
export function categoryOf(kind: ReminderKind, type: DomainEventType | null): PreferenceCategory {
  void type;
  return kind === 'notification' ? 'booking_updates' : kind === 'announcement' ? 'announcements' : 'reminders';
}

/** True for a notification whose domain event type is essential (vocabulary.ts `essentialTypes`): it ignores opt-outs. */
export function isEssential(kind: ReminderKind, type: DomainEventType | null): boolean {
  return kind === 'notification' && type !== null && essentialTypes.includes(type);
}

/**
 * The personal channels a message in `category` goes out on, email before sms.
 * - Not essential: the category's accepted channels that the contact has an address for (email → `hasEmail`,
 *   sms → `hasPhone`). Empty when they opted out or have no address for what they accept.
 * - Essential: every channel accepted in ANY category that has an address; when that is empty, `['email']` if
 *   they have an email address (an essential message ignores opt-outs), else `[]`.
 */
export function channelsFor(input: {
  category: PreferenceCategory;
  essential: boolean;
  prefs: ChannelPreferences;
  hasEmail: boolean;
  hasPhone: boolean;
}): PersonalChannel[] {
  const reachable = (c: PersonalChannel) => (c === 'email' ? input.hasEmail : input.hasPhone);
  if (!input.essential) return canonical(input.prefs[input.category] ?? []).filter(reachable);
  const union = canonical(preferenceCategories.flatMap((cat) => input.prefs[cat] ?? [])).filter(reachable);
  if (union.length > 0) return union;
  return input.hasEmail ? ['email'] : [];
}

const categoryWords: Record<PreferenceCategory, [string, string]> = {
  reminders: ['Reminders', 'reminders'],
  booking_updates: ['Booking updates', 'booking updates'],
  announcements: ['Announcements', 'announcements'],
};
const channelWords: Record<PersonalChannel, string> = { email: 'email', sms: 'SMS' };

/**
 * Send-time preference check (the contact may have changed their mind since the message was planned): null
 * when the message may go out on `channel` — it is accepted in `category`, or the message is essential, or the
 * channel is `webhook` (the organisation's, not the person's) — else the reason it may not, e.g.
 * "opted out of booking updates by SMS", or, when the category was emptied by a one-click link
 * (`unsubscribedAt`, from {@link readUnsubscribed}), "unsubscribed from reminders (one-click link,
 * 2027-08-03T12:00:00.000Z)".
 */
export function optOutReason(input: {
  category: PreferenceCategory;
  essential: boolean;
  prefs: ChannelPreferences;
  channel: Channel;
  unsubscribedAt?: string | null;
}): string | null {
  if (input.channel === 'webhook' || input.essential) return null;
  if ((input.prefs[input.category] ?? []).includes(input.channel)) return null;
  if (input.unsubscribedAt) return `unsubscribed from ${categoryWords[input.category][1]} (one-click link, ${input.unsubscribedAt})`;
  return `opted out of ${categoryWords[input.category][1]} by ${channelWords[input.channel]}`;
}

/**
 * What a staff nudge (category `reminders`, never essential) to this contact by `channel` would run into at send
 * time because of the person's own choices, for the "Remind now" preview: null when they accept reminders on
 * that channel; else `{ reason, unsubscribedAt }` — `reason` exactly as {@link optOutReason} words it (the send
 * path ends the message with it), `unsubscribedAt` the ISO instant of their one-click unsubscribe from reminders
 * ({@link readUnsubscribed}) or null when they opted out on the preferences page. `stored` is the contact's
 * jsonb preferences value, read tolerantly. Never throws.
 */
export function nudgeOptOut(stored: unknown, channel: PersonalChannel = 'email'): { reason: string; unsubscribedAt: string | null } | null {
  const unsubscribedAt = readUnsubscribed(stored).reminders ?? null;
  const reason = optOutReason({ category: 'reminders', essential: false, prefs: readPreferences(stored), channel, unsubscribedAt });
  return reason ? { reason, unsubscribedAt } : null;
}

/** Plural nouns for the essential types, for "except essential ones such as …". */
const essentialNouns: Record<DomainEventType, string> = {
  booking_confirmed: 'booking confirmations',
  booking_cancelled: 'booking cancellations',
  event_rescheduled: 'event reschedules',
  event_cancelled: 'event cancellations',
  participant_added_as_host: 'host invitations',
  event_details_changed: 'event detail changes',
  booking_declined: 'participants who cannot come',
};

/** Order in which channels are named in sentences: "by SMS and email" (as issue #9's wording has it). */
const sentenceOrder: readonly PersonalChannel[] = ['sms', 'email'];

/**
 * Preferences read back for the UI, one sentence per category: "Reminders by email.", "Booking updates by SMS
 * and email.", "No reminders.", "No booking updates (except essential ones such as event cancellations).".
 * The "except" clause is added to the category essential types belong to (`booking_updates`).
 */
export function describePreferences(prefs: ChannelPreferences): string[] {
  return preferenceCategories.map((category) => {
    const list = prefs[category] ?? [];
    const [title, lower] = categoryWords[category];
    if (list.length === 0) {
      const except =
        category === categoryOf('notification', null) && essentialTypes.length > 0
          ? ` (except essential ones such as ${essentialTypes.map((t) => essentialNouns[t]).join(' and ')})`
          : '';
      return `No ${lower}${except}.`;
    }
    return `${title} by ${sentenceOrder.filter((c) => list.includes(c)).map((c) => channelWords[c]).join(' and ')}.`;
  });
}
