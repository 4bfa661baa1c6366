/**
 * A change of an event's details — title, place (`location`), online-room link (`room_url`), description — as staff
 * save it, and whether its booked people are told by default. Pure: no I/O, no clock.
 *
 * Rules:
 *  - A detail changed when its value differs after trimming, an empty text counting as none (null): saving a form
 *    that only re-types the same words changes nothing.
 *  - Telling people (a "details changed" message with an updated calendar entry) is the default when anything a
 *    person acts on changed — the title (how they find it in their calendar), the place, the link — and NOT when only
 *    the description changed: that is usually a typo fixed. Staff may choose either way on every save.
 */

/** The details a change can be about, in the order messages list them. */
export const eventDetailFields = ['title', 'location', 'roomUrl', 'description'] as const;
export type EventDetailField = (typeof eventDetailFields)[number];

/** One changed detail: the value before and after (null = none). */
export interface DetailChange {
  field: EventDetailField;
  from: string | null;
  to: string | null;
}

/** The details of an event as stored (null = none). */
export type EventDetails = Record<EventDetailField, string | null>;

const norm = (v: string | null | undefined): string | null => {
  const t = (v ?? '').trim();
  return t === '' ? null : t;
};

/** The details that differ between `before` and `after` ({@link eventDetailFields} order; values normalised). */
export function detailChangesOf(before: Partial<EventDetails>, after: Partial<EventDetails>): DetailChange[] {
  const out: DetailChange[] = [];
  for (const field of eventDetailFields) {
    const from = norm(before[field]);
    const to = norm(after[field]);
    if (from !== to) out.push({ field, from, to });
  }
  return out;
}

/** Whether staff tell people about `changes` when they do not say (module rules): false for none or description only. */
export function notifyByDefault(changes: readonly Pick<DetailChange, 'field'>[]): boolean {
  return changes.some((c) => c.field !== 'description');
}

/**
 * What a save does about telling people: `notify` is staff's explicit choice (true/false), or undefined for the
 * default ({@link notifyByDefault}). Nothing changed → never notifies.
 * @returns the decision and whether it was the default (the audit entry records both).
 */
export function notifyDecision(changes: readonly Pick<DetailChange, 'field'>[], notify: boolean | undefined): { notify: boolean; byDefault: boolean } {
  if (changes.length === 0) return { notify: false, byDefault: notify === undefined };
  if (notify === undefined) return { notify: notifyByDefault(changes), byDefault: true };
  return { notify, byDefault: false };
}
