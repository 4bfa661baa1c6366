/**
 * Whose name a message to a booked person goes out in (issue #12, "mail sent in a guest organisation's name is
 * that organisation's business"). Pure: no I/O, no clock.
 *
 * A host tenant may book a person as an `external` guest of a partner organisation (another tenant) that agreed
 * to it (a guest partnership, db/schema/organisations.ts `guest_partnerships`). Invariant 9 says an external guest is reminded
 * by their own organisation — its name, its sender address, its suppression list. But the host chooses the
 * address and the host's staff write the nudges, so the partner (the GUEST tenant) decides on its partnership
 * which of the host's guests may be written to in its name ({@link GuestLimit}):
 *
 * | limit      | in the partner's name when …                                                         |
 * | ---------- | ------------------------------------------------------------------------------------ |
 * | `anyone`   | always (the behaviour before issue #12, and the default of a partnership)            |
 * | `contacts` | the person's address is one of the partner's own contacts' (it knows them)           |
 * | `domains`  | the email address's domain is one of the listed domains (exactly; a subdomain is listed on its own) |
 * | `none`     | never                                                                                |
 *
 * In every other case — not an external guest, no guest organisation named, no partnership (any more), or the
 * limit does not allow the address — the message goes out in the HOST's own name (its sender, its suppression
 * list). The server decides this when a booking is made (and tells the host) and again, under a lock on the
 * partnership, right before every send (server/sending/send-reminder.ts): a limit narrowed after booking applies to
 * the next send.
 *
 * The person is judged by the address the message is actually sent to — the delivery's address, never the
 * contact's current one (a host may edit the contact between two attempts of one delivery) — and by channel:
 *
 * | limit      | email                                  | SMS (the number the text goes to)                    | webhook        |
 * | ---------- | -------------------------------------- | ---------------------------------------------------- | -------------- |
 * | `anyone`   | guest                                  | guest                                                | guest          |
 * | `contacts` | guest when the address is a contact's  | guest when the E.164 number is one of its contacts'  | host           |
 * | `domains`  | guest when the domain is listed        | host (a phone number has no domain)                  | host           |
 * | `none`     | host                                   | host                                                 | host           |
 *
 * Before the review of issue #12 an SMS followed the contact's EMAIL address, but the text goes to a number the
 * host sets freely, so a listed email address let the host text any number in the partner's name. A webhook
 * goes to an organisation's own endpoint, not to the person, so no address of the person can be judged: it
 * carries the partner's name (goes to the partner's endpoint) only when the partner lets the host write to
 * anyone in its name; under any narrower limit the host's own endpoint gets it, in the host's name.
 */
import type { BookingRole, Channel } from '@/domain/vocabulary';

/** How far a partnership lets the host write to guests in the partner's name (see module doc). */
export const guestLimits = ['anyone', 'contacts', 'domains', 'none'] as const;
export type GuestLimit = (typeof guestLimits)[number];

/** At most this many domains on one partnership (a short allow-list, not a directory). */
export const MAX_GUEST_DOMAINS = 50;

/** A partnership's limit as stored: the mode and, for `domains`, the lower-case ASCII (punycode) domains. */
export interface PartnershipLimit {
  limit: GuestLimit;
  domains: readonly string[];
}

export interface SenderInput {
  /** The booking's role: only an `external` guest can be written to in another organisation's name. */
  role: BookingRole;
  /** The guest organisation the booking names (`bookings.guest_tenant_id`), or null. */
  guestTenantId: string | null;
  /** The partnership guest organisation → host as it is now, or null when there is none. */
  partnership: PartnershipLimit | null;
  /** The channel the message goes out on. */
  channel: Channel;
  /**
   * The address the message is sent to (the delivery's): an email address on `email`, an E.164 number on `sms`;
   * ignored on `webhook`; null/'' when unknown.
   */
  address: string | null;
  /**
   * True when the guest organisation has a contact with this address: the same email address (case-insensitive)
   * on `email`, the same E.164 number on `sms` (db/queries/organisations/guest-partnerships.ts `senderFactsFor`).
   */
  knownToGuest: boolean;
}

/** Why a message goes out in the name it does (stable codes; {@link describeSender} words them). */
export type SenderReason =
  | 'not_external'
  | 'no_guest_tenant'
  | 'no_partnership'
  | 'limit_anyone'
  | 'known_contact'
  | 'not_a_contact'
  | 'domain_listed'
  | 'domain_not_listed'
  | 'number_has_no_domain'
  | 'webhook_limited'
  | 'limit_none';

export interface SenderDecision {
  /** `guest`: in the guest organisation's name; `host`: in the booking tenant's own name. */
  sender: 'guest' | 'host';
  reason: SenderReason;
}

/**
 * The lower-case ASCII form of a domain name (IDNA: `Bücher.example` → `xn--bcher-kva.example`), without a
 * trailing dot; null when it is not a plain host name with at least two labels (no `@`, port, path, wildcard,
 * IP address or single label). Uses the WHATWG URL parser, which applies IDNA the same way in Node and browsers.
 */
export function normaliseDomain(input: string): string | null {
  const raw = input.trim().replace(/\.$/, '');
  if (raw === '' || raw.length > 253 || /[\s@/:?#*\\[\]%]/.test(raw)) return null;
  let host: string;
  try {
    host = new URL(`http://${raw}/`).hostname;
  } catch {
    return null;
  }
  const labels = host.split('.');
  if (labels.length < 2) return null;
  if (!labels.every((l) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(l))) return null;
  // An IPv4 address parses as a host too; a domain's last label is never all digits.
  if (/^\d+$/.test(labels[labels.length - 1]!)) return null;
  return host;
}

/** The normalised domain of an email address (the part after its LAST `@`), or null when there is none. */
export function emailDomain(email: string | null | undefined): string | null {
  if (!email) return null;
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return null;
  return normaliseDomain(email.slice(at + 1));
}

/**
 * Parses the domains an admin typed (separated by commas, spaces or new lines; a leading `@` is allowed) into
 * normalised, de-duplicated domains in the order given.
 * @returns the domains, or the first entry that is not a domain name.
 */
export function parseDomainList(input: string | readonly string[]): { ok: true; domains: string[] } | { ok: false; invalid: string } {
  const parts = (typeof input === 'string' ? input.split(/[\s,;]+/) : input.flatMap((s) => s.split(/[\s,;]+/))).map((s) => s.trim()).filter((s) => s !== '');
  const out: string[] = [];
  for (const p of parts) {
    const d = normaliseDomain(p.replace(/^@/, ''));
    if (!d) return { ok: false, invalid: p };
    if (!out.includes(d)) out.push(d);
  }
  return { ok: true, domains: out };
}

/** Decides whose name a message to this booking's person goes out in (see module doc for the tables). */
export function decideSender(i: SenderInput): SenderDecision {
  if (i.role !== 'external') return { sender: 'host', reason: 'not_external' };
  if (!i.guestTenantId) return { sender: 'host', reason: 'no_guest_tenant' };
  if (!i.partnership) return { sender: 'host', reason: 'no_partnership' };
  const limit = i.partnership.limit;
  if (limit === 'anyone') return { sender: 'guest', reason: 'limit_anyone' };
  if (limit !== 'contacts' && limit !== 'domains') {
    // `none`, or a limit this build does not know (a newer database): the safe side.
    return { sender: 'host', reason: 'limit_none' };
  }
  if (i.channel === 'webhook') return { sender: 'host', reason: 'webhook_limited' };
  if (i.channel === 'sms') {
    if (limit === 'domains') return { sender: 'host', reason: 'number_has_no_domain' };
    return i.knownToGuest && !!i.address && i.address.trim() !== '' ? { sender: 'guest', reason: 'known_contact' } : { sender: 'host', reason: 'not_a_contact' };
  }
  if (limit === 'contacts') {
    return i.knownToGuest && !!emailDomain(i.address) ? { sender: 'guest', reason: 'known_contact' } : { sender: 'host', reason: 'not_a_contact' };
  }
  const d = emailDomain(i.address);
  const listed = new Set(i.partnership.domains.map((x) => normaliseDomain(x)).filter((x): x is string => !!x));
  return d && listed.has(d) ? { sender: 'guest', reason: 'domain_listed' } : { sender: 'host', reason: 'domain_not_listed' };
}

/**
 * The decision in words for the host's staff, e.g. "in Partner Collective's name" or "in your own name:
 * Partner Collective lets you write in its name only to its own contacts". `guestName`: the guest
 * organisation's name.
 */
export function describeSender(d: SenderDecision, guestName: string): string {
  switch (d.reason) {
    case 'not_external':
    case 'no_guest_tenant':
      return 'in your own name';
    case 'no_partnership':
      return `in your own name: ${guestName} no longer lets you book its people as guests`;
    case 'limit_anyone':
    case 'known_contact':
    case 'domain_listed':
      return `in ${guestName}’s name`;
    case 'not_a_contact':
      return `in your own name: ${guestName} lets you write in its name only to its own contacts`;
    case 'domain_not_listed':
      return `in your own name: ${guestName} lets you write in its name only to addresses at the domains it listed`;
    case 'number_has_no_domain':
      return `in your own name: ${guestName} lets you write in its name only to addresses at the domains it listed, and a mobile number has no domain`;
    case 'webhook_limited':
      return `in your own name: ${guestName} lets webhooks go out in its name only when it lets you write to anyone in its name`;
    case 'limit_none':
      return `in your own name: ${guestName} does not let you write in its name`;
  }
}

/**
 * Whose name a just-booked external guest's messages go out in, for the host's staff (the booking's answer and its
 * audit entry). Like {@link describeSender}, except where the verdict would tell the host something only the guest
 * organisation knows: under the `contacts` limit, "in its name" would say that the address is one of its contacts
 * and "in your own name" that it is not. Both are answered with the rule instead, word for word the same, so booking
 * an address tells the host nothing about the guest organisation's contacts. Each send decides again (as before).
 */
export function describeSenderAtBooking(d: SenderDecision, guestName: string): string {
  if (d.reason === 'known_contact' || d.reason === 'not_a_contact') {
    return `in ${guestName}’s name if ${guestName} has this address among its own contacts, otherwise in your own name (${guestName} lets you write in its name only to its own contacts; each message checks again)`;
  }
  return describeSender(d, guestName);
}

/**
 * A partnership's limit in words: for the guest organisation's admins (`'guest'`, e.g. "only people in our
 * contacts") or for the host's staff (`'host'`, e.g. "only people in their contacts").
 */
export function describeLimit(p: PartnershipLimit, viewer: 'guest' | 'host' = 'guest'): string {
  const g = viewer === 'guest';
  switch (p.limit) {
    case 'anyone':
      return g ? 'anyone they book as our guest' : 'anyone you book as their guest';
    case 'contacts':
      return g ? 'only people in our contacts' : 'only people in their contacts';
    case 'domains':
      return p.domains.length === 0 ? 'nobody (no domain listed)' : `only addresses at ${p.domains.join(', ')}`;
    case 'none':
      return g ? 'nobody: they write in their own name' : 'nobody: you write in your own name';
  }
}

/**
 * Who on the host's side made a message happen, for the guest organisation's audit log: the staff member who
 * nudged or wrote the announcement (`requestedBy`), the actor of the change a notification tells of, or the person who booked the guest
 * for a rule reminder (`bookedBy`, null when not recorded) — 'system' when unknown.
 */
export function hostActorOf(m: { kind: 'rule' | 'nudge' | 'notification' | 'announcement'; requestedBy: string | null; changeActor: string | null; bookedBy: string | null }): string {
  const who = m.kind === 'nudge' || m.kind === 'announcement' ? m.requestedBy : m.kind === 'notification' ? m.changeActor : m.bookedBy;
  return who && who.trim() !== '' ? who : 'system';
}

/**
 * Whether an attempt that is starting writes a `guest_message` entry to the guest organisation's audit log: when
 * it goes out in the guest's name and it is the delivery's first attempt, or the first since the sender changed
 * to the guest (a retry in the same name is the same message: one entry).
 */
export function auditsGuestMessage(a: { inGuestName: boolean; firstAttempt: boolean; senderChanged: boolean }): boolean {
  return a.inGuestName && (a.firstAttempt || a.senderChanged);
}

/**
 * The guest organisation's audit entry for a message sent in its name: actor "<host actor> (<host name>)", and
 * details naming the event (title only: the event is the host's, no link), the recipient, what the message is,
 * its subject or SMS text (as the delivery stores it: the personal preferences link already cut out) and its
 * message key.
 */
export function guestMessageEntry(m: {
  hostName: string;
  hostActor: string;
  title: string;
  eventTitle: string;
  address: string;
  channel: string;
  subject: string | null;
  messageKey: string;
}): { actor: string; details: Record<string, unknown> } {
  return {
    actor: `${m.hostActor} (${m.hostName})`,
    details: {
      title: m.eventTitle,
      address: m.address,
      sentBy: m.hostName,
      message: m.title,
      channel: m.channel,
      ...(m.subject ? { subject: m.subject } : {}),
      messageKey: m.messageKey,
    },
  };
}
