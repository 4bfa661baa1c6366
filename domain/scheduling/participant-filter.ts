/**
 * The event page's participant list options, read from the URL (`?q=&role=&state=&problem=1&sort=&page=`) so a
 * view is linkable and works without JavaScript. Pure.
 *
 * - `q`: part of the name or an address (email or phone), case-insensitive, trimmed, at most 200 characters;
 * - `role`: attendee | external | host;
 * - `state`: confirmed | cancelled (the booking's status);
 * - `problem=1`: only people with a delivery that needs a person or failed (domain/scheduling/participant-summary.ts);
 * - `sort`: `name` (default: by role, then name) | `booked` (newest booking first);
 * - `page`: 1-based; the page size is {@link PARTICIPANT_PAGE_SIZE}.
 * Unknown values are errors naming the field (the JSON route answers 400), an absent one means "any".
 */
import { bookingRoles, bookingStatuses, type BookingRole, type BookingStatus } from '@/domain/vocabulary';

/** People per page of the event page: 20 one-line rows keep the page under three screens on a phone (375 × 812). */
export const PARTICIPANT_PAGE_SIZE = 18;

export const participantSorts = ['name', 'booked'] as const;
export type ParticipantSort = (typeof participantSorts)[number];

export interface ParticipantFilter {
  q: string | null;
  role: BookingRole | null;
  state: BookingStatus | null;
  problem: boolean;
  sort: ParticipantSort;
  page: number;
}

export const noParticipantFilter: ParticipantFilter = { q: null, role: null, state: null, problem: false, sort: 'name', page: 1 };

type Params = Record<string, string | string[] | undefined> | URLSearchParams;

const one = (p: Params, k: string): string | undefined => {
  const v = p instanceof URLSearchParams ? (p.get(k) ?? undefined) : p[k];
  return Array.isArray(v) ? v[0] : v;
};

/** @returns the filter, or `{ error, field }` for a value that is not allowed. */
export function parseParticipantFilter(p: Params): ParticipantFilter | { error: string; field: string } {
  const q = (one(p, 'q') ?? '').trim();
  if (q.length > 200) return { field: 'q', error: 'q: at most 200 characters' };
  const role = one(p, 'role') || null;
  if (role !== null && !(bookingRoles as readonly string[]).includes(role)) return { field: 'role', error: `role: one of ${bookingRoles.join(', ')}` };
  const state = one(p, 'state') || null;
  if (state !== null && !(bookingStatuses as readonly string[]).includes(state)) return { field: 'state', error: `state: one of ${bookingStatuses.join(', ')}` };
  const problem = one(p, 'problem');
  if (problem !== undefined && problem !== '' && problem !== '1' && problem !== '0') return { field: 'problem', error: 'problem: 1 or 0' };
  const sort = one(p, 'sort') || 'name';
  if (!(participantSorts as readonly string[]).includes(sort)) return { field: 'sort', error: `sort: one of ${participantSorts.join(', ')}` };
  const pageText = one(p, 'page') || '1';
  if (!/^\d{1,6}$/.test(pageText) || Number(pageText) < 1) return { field: 'page', error: 'page: a whole number from 1' };
  return { q: q || null, role: role as BookingRole | null, state: state as BookingStatus | null, problem: problem === '1', sort: sort as ParticipantSort, page: Number(pageText) };
}

/** The URL parameters of `f` without the defaults (for links: the pager, "clear filters"). */
export function participantFilterParams(f: ParticipantFilter, overrides: Partial<ParticipantFilter> = {}): Record<string, string> {
  const v = { ...f, ...overrides };
  const out: Record<string, string> = {};
  if (v.q) out.q = v.q;
  if (v.role) out.role = v.role;
  if (v.state) out.state = v.state;
  if (v.problem) out.problem = '1';
  if (v.sort !== 'name') out.sort = v.sort;
  if (v.page !== 1) out.page = String(v.page);
  return out;
}

/** Whether anything narrows the list (the page then says "N of M shown" and offers to clear). */
export function isFiltered(f: ParticipantFilter): boolean {
  return !!(f.q || f.role || f.state || f.problem);
}

/** What {@link applyParticipantFilter} reads of a booking (BookingView has these fields). */
export interface FilterableBooking {
  role: BookingRole;
  status: BookingStatus;
  /** ISO-8601 UTC. */
  bookedAt: string;
  contact: { name: string; email: string; phone: string | null } | null;
  summary: { problem: boolean };
}

/**
 * Characters a phone search ignores on both sides (white space, dashes, parentheses, dots). The SQL side
 * (db/queries/scheduling/event-page.ts) strips the same set from stored numbers with `PHONE_SEPARATORS_SQL`.
 */
const PHONE_SEPARATORS = /[\s\-().]/g;
/** {@link PHONE_SEPARATORS} as a PostgreSQL regular expression (for `regexp_replace(phone, …, '', 'g')`). */
export const PHONE_SEPARATORS_SQL = '[[:space:]().-]';

/**
 * What a search `q` looks for: `text`, the lower-cased query, is searched in the lower-cased name and email;
 * `digits`, the query without phone separators, in the phone without them ("" when nothing is left: then phones
 * never match). Null when `q` is null or empty (no search).
 */
export function participantSearchTerms(q: string | null): { text: string; digits: string } | null {
  if (!q) return null;
  const text = q.toLowerCase();
  return { text, digits: text.replace(PHONE_SEPARATORS, '') };
}

/**
 * Narrows `bookings` (already in the page's default order: role, then name) by `f`, orders them by `f.sort`
 * (`booked`: newest booking first, ties in the given order) and cuts page `f.page` of `pageSize`.
 * Search: the name, email or phone contains `q` (case-insensitive; for phones also ignoring spaces and dashes).
 * This is the rule in memory; the event page applies it in SQL (db/queries/scheduling/event-page.ts), and
 * test/scheduling/event-page-list.test.ts checks that both give the same people in the same order.
 * @returns the page's items and how many matched in all. A page past the end is empty.
 */
export function applyParticipantFilter<T extends FilterableBooking>(bookings: readonly T[], f: ParticipantFilter, pageSize = PARTICIPANT_PAGE_SIZE): { items: T[]; matching: number } {
  const search = participantSearchTerms(f.q);
  const matched = bookings.filter((b) => {
    if (f.role && b.role !== f.role) return false;
    if (f.state && b.status !== f.state) return false;
    if (f.problem && !b.summary.problem) return false;
    if (search) {
      const c = b.contact;
      if (!c) return false;
      const { text, digits } = search;
      const hit = c.name.toLowerCase().includes(text) || c.email.toLowerCase().includes(text) || (!!c.phone && !!digits && c.phone.replace(PHONE_SEPARATORS, '').includes(digits));
      if (!hit) return false;
    }
    return true;
  });
  const ordered = f.sort === 'booked' ? [...matched].sort((a, b) => b.bookedAt.localeCompare(a.bookedAt)) : matched;
  const from = (f.page - 1) * pageSize;
  return { items: ordered.slice(from, from + pageSize), matching: matched.length };
}
