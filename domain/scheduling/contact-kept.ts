/**
 * What booking a person who is already a contact does to their details (review of issue #12). Pure: no I/O.
 *
 * A booking finds the tenant's contact by address (one contact per tenant and address, shared by all the person's
 * bookings). Before the review, a booking overwrote that contact's name, zone, language and mobile number with
 * what the booking form said — without the version check of the participant edit (a lost update, invariant 11)
 * and without re-planning the person's other bookings (a new zone moves their quiet hours, a new number their SMS
 * reminders). Now a booking never changes a known person: the participant edit (server/scheduling/participants.ts) is the
 * one way to change them, with its version check and re-plan. What the staff member typed that differs from the
 * stored details is reported back ({@link keptDetails}, {@link describeKept}) so they know the stored ones were
 * kept and where to change them.
 */

/** A contact's details a booking form can carry. */
export interface ContactDetails {
  name: string;
  locale: string;
  /** IANA zone, or null when none is on file. */
  timeZone: string | null;
  /** E.164, or null when none is on file. */
  phone: string | null;
}

/** One detail the booking gave that differs from the stored one, which was kept. */
export interface KeptDetail {
  field: 'name' | 'locale' | 'timeZone' | 'phone';
  /** The stored value (kept). */
  kept: string | null;
  /** What the booking said. */
  given: string | null;
}

const FIELDS = ['name', 'timeZone', 'phone', 'locale'] as const;

/**
 * The details in `given` (omitted = not given; an empty name counts as not given) that differ from `stored`, in the
 * order name, zone, number, language. Language tags compare case-insensitively; everything else exactly.
 */
export function keptDetails(stored: ContactDetails, given: Partial<ContactDetails>): KeptDetail[] {
  const out: KeptDetail[] = [];
  for (const field of FIELDS) {
    const g = given[field];
    if (g === undefined) continue;
    if (field === 'name' && (g ?? '').trim() === '') continue;
    const s = stored[field];
    const same = field === 'locale' ? (s ?? '').toLowerCase() === (g ?? '').toLowerCase() : s === g;
    if (!same) out.push({ field, kept: s, given: g });
  }
  return out;
}

const LABEL: Record<KeptDetail['field'], string> = { name: 'name', locale: 'language', timeZone: 'zone', phone: 'mobile number' };

/**
 * The kept details in words for the staff member, e.g. "kept: existing zone Europe/Berlin — edit the participant to
 * change it"; null when nothing was kept.
 */
export function describeKept(kept: readonly KeptDetail[]): string | null {
  if (kept.length === 0) return null;
  const parts = kept.map((k) => `existing ${LABEL[k.field]} ${k.kept === null || k.kept === '' ? '(none)' : k.kept}`);
  return `kept: ${parts.join(', ')} — edit the participant to change ${kept.length === 1 ? 'it' : 'them'}`;
}
