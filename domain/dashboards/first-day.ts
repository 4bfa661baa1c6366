/**
 * A new organisation's first day: the short checklist its dashboard shows until every item is done or an admin
 * dismisses it — so a dashboard of zeros never hides that nothing will be sent until a reminder rule exists. Pure:
 * facts in (db/queries/dashboards/first-day.ts reads them), items out.
 *
 * The items, in the order a new organisation does them, each ticking itself from what is stored:
 * 1. `sender` — the sender address is proven (`tenants.sender_verified_email` equals the sender address; until
 *    then mail goes out from the deployment's address with Reply-To, domain/organisations/sender-identity.ts).
 * 2. `rule` — at least one active reminder rule (with none, bookings get no reminders at all); offers the three
 *    most common rules as presets of the new-rule form ({@link RULE_PRESETS}).
 * 3. `event` — an event exists (created or imported).
 * 4. `test` — a staff member of the organisation booked themselves and a message to their own address was
 *    accepted by the provider (or later reported delivered): the whole path works, end to end.
 * 5. `colleague` — another staff account exists, or an invitation is pending.
 */

/** What the checklist is computed from (one organisation, read at one moment). */
export interface FirstDayFacts {
  senderVerified: boolean;
  activeRules: number;
  events: number;
  /** Messages to a staff member's own address that the provider accepted (or reported delivered). */
  testMessages: number;
  /** Staff accounts of the organisation, disabled ones excluded. */
  staffAccounts: number;
  pendingInvitations: number;
  /** When an admin dismissed the checklist; null = not dismissed. */
  dismissedAt: Date | null;
}

export type FirstDayItemId = 'sender' | 'rule' | 'event' | 'test' | 'colleague';

/** A preset of the new-rule form (`/rules/new?preset=<id>`), one of the three most common reminder rules. */
export interface RulePreset {
  id: 'day-before' | 'two-hours' | 'room-opens';
  /** The link's words. */
  label: string;
  name: string;
  anchor: 'start' | 'room_open';
  /** ISO 8601 duration relative to the anchor (negative: before). */
  offset: string;
  template: 'attendee-reminder' | 'room-opening';
  /** Seconds after the due instant a late reminder may still go out. */
  lateSendWindowSeconds: number;
}

/** The three most common reminder rules (what booking tools start with): a day before, two hours before, room opens. */
export const RULE_PRESETS: readonly RulePreset[] = [
  { id: 'day-before', label: '1 day before', name: 'Day before', anchor: 'start', offset: '-P1D', template: 'attendee-reminder', lateSendWindowSeconds: 2 * 3600 },
  { id: 'two-hours', label: '2 hours before', name: 'Two hours before', anchor: 'start', offset: '-PT2H', template: 'attendee-reminder', lateSendWindowSeconds: 30 * 60 },
  { id: 'room-opens', label: 'When the online room opens', name: 'Room is opening', anchor: 'room_open', offset: 'PT0S', template: 'room-opening', lateSendWindowSeconds: 10 * 60 },
];

/** The preset named `id` (a `?preset=` value), or null for anything else. */
export function rulePreset(id: string | null | undefined): RulePreset | null {
  return RULE_PRESETS.find((p) => p.id === id) ?? null;
}

export interface FirstDayItem {
  id: FirstDayItemId;
  done: boolean;
  /** What to do, as a short imperative ("Verify your sender address"). */
  title: string;
  /** Why it matters / what done means, one sentence. */
  detail: string;
  /** The page that does it. */
  href: string;
  /** The link's words. */
  action: string;
}

export interface FirstDayChecklist {
  /** Shown on the dashboard: not dismissed and not every item done. */
  show: boolean;
  items: FirstDayItem[];
  done: number;
}

/** The checklist for `f` (module doc for when each item ticks). */
export function firstDayChecklist(f: FirstDayFacts): FirstDayChecklist {
  const items: FirstDayItem[] = [
    {
      id: 'sender',
      done: f.senderVerified,
      title: 'Verify your sender address',
      detail: 'Until it is verified, your mail goes out from Punctual’s own address with replies to yours.',
      href: '/settings',
      action: 'Open the sender settings',
    },
    {
      id: 'rule',
      done: f.activeRules > 0,
      title: 'Add a reminder rule',
      detail: 'Nothing is sent before an event until a rule says when. Start with one of these:',
      href: '/rules/new',
      action: 'Write your own rule',
    },
    {
      id: 'event',
      done: f.events > 0,
      title: 'Create or import your first event',
      detail: 'Add it by hand, then add participants one by one or from a CSV file.',
      href: '/events/new',
      action: 'New event',
    },
    {
      id: 'test',
      done: f.testMessages > 0,
      title: 'Book yourself and see the message arrive',
      detail: 'Add your own address as a participant; this ticks when a message to it has been accepted.',
      href: '/events',
      action: 'Choose an event',
    },
    {
      id: 'colleague',
      done: f.staffAccounts > 1 || f.pendingInvitations > 0,
      title: 'Invite a colleague',
      detail: 'Staff can book and remind; admins also change rules and settings; viewers only read.',
      href: '/staff',
      action: 'Invite someone',
    },
  ];
  const done = items.filter((i) => i.done).length;
  return { show: f.dismissedAt === null && done < items.length, items, done };
}
