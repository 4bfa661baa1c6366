/**
 * Identities of imported iCalendar events that do not depend on their position in the file. Pure.
 *
 * RFC 5545 §3.8.4.7 makes UID the identity of an event, but real exporters repeat one UID on different
 * sessions (pyconuk-2015 does) or leave it out. Numbering repeats by their order (`UID#2`) moves bookings onto
 * other talks when a re-export only reorders sessions; instead:
 *  - a UID used by exactly one VEVENT (or one recurring series) keeps the plain UID as its identity;
 *  - each VEVENT of a repeated UID gets `UID#c-<12 hex>`, the hex being SHA-256 of its start instant, SUMMARY
 *    and LOCATION (`contentHash`), so the same session keeps its record whatever its position;
 *  - a VEVENT without UID gets `nouid:<16 hex>` from the same content.
 * When a session of a repeated UID changed (moved, renamed), `matchSessions` pairs it with the remaining
 * records of that UID by what is left of its content, only when the pairing is unambiguous.
 */
import { createHash } from 'node:crypto';

/** Hex SHA-256 of `start instant (ISO, UTC) \n SUMMARY \n LOCATION`, first `length` characters. */
function contentHash(c: { startsAt: Date; title: string; location: string | null }, length: number): string {
  return createHash('sha256')
    .update(`${c.startsAt.toISOString()}\n${c.title}\n${c.location ?? ''}`)
    .digest('hex')
    .slice(0, length);
}

/** Identity of one VEVENT of a UID that the file repeats: `UID#c-<12 hex>`. */
export function repeatedUidIdentity(uid: string, c: { startsAt: Date; title: string; location: string | null }): string {
  return `${uid}#c-${contentHash(c, 12)}`;
}

/** Identity of a VEVENT without UID: `nouid:<16 hex>`. */
export function noUidIdentity(c: { startsAt: Date; title: string; location: string | null }): string {
  return `nouid:${contentHash(c, 16)}`;
}

/**
 * The UID of a stored identity that names one member of a repeated UID: `UID#c-<hex>` (content identity) or
 * `UID#<n>` (the positional numbering of earlier versions) → `UID`. Anything else (a plain UID, a recurrence
 * occurrence `UID#2027-03-01T09:00:00Z`, `nouid:…`) → null.
 */
export function groupOfIdentity(identity: string): string | null {
  if (identity.startsWith('nouid:')) return null;
  const m = /^(.*)#(?:c-[0-9a-f]{12}|[0-9]+)$/s.exec(identity);
  return m ? m[1] : null;
}

/** The regular expression (PostgreSQL `~` syntax) that finds stored content and numbered identities. */
export const GROUP_MEMBER_PATTERN = '#(c-[0-9a-f]{12}|[0-9]+)$';

export interface SessionContent {
  /** The session's new identity. */
  key: string;
  startsAt: number;
  title: string;
  location: string | null;
}
export interface RecordContent {
  id: string;
  startsAt: number;
  title: string;
  location: string | null;
}
interface SessionMatch {
  /** session key → record id: the same session, changed. */
  matched: Map<string, string>;
  /** Sessions no remaining record resembles: new sessions. */
  create: string[];
  /** Sessions that resemble more than one record, or share their only candidate with another session. */
  ambiguous: { key: string; candidates: number }[];
}

type Tier = (s: SessionContent, r: RecordContent) => boolean;
const TIERS: { name: string; same: Tier }[] = [
  { name: 'start, title and location', same: (s, r) => s.startsAt === r.startsAt && s.title === r.title && s.location === r.location },
  { name: 'title and location', same: (s, r) => s.title === r.title && s.location === r.location },
  { name: 'start', same: (s, r) => s.startsAt === r.startsAt },
];

/**
 * Pairs the sessions of one UID group that found no record by identity with the group's records that no
 * session claimed. Tiers, in order: same start + title + location (records stored under an older identity
 * scheme), same title + location (the session moved), same start (the session was renamed or moved room). At
 * each tier a pair is made only when the session has exactly one candidate record AND that record is the
 * candidate of no other session; a session with two or more candidates (or sharing its one) is ambiguous and
 * stops there; a session with none goes on to the next tier. Sessions left after every tier are new.
 */
export function matchSessions(sessions: readonly SessionContent[], records: readonly RecordContent[]): SessionMatch {
  const matched = new Map<string, string>();
  const ambiguous: { key: string; candidates: number }[] = [];
  let open = [...sessions];
  const free = new Set(records.map((r) => r.id));
  for (const tier of TIERS) {
    const cands = new Map<string, RecordContent[]>();
    const claims = new Map<string, number>();
    for (const s of open) {
      const c = records.filter((r) => free.has(r.id) && tier.same(s, r));
      cands.set(s.key, c);
      for (const r of c) claims.set(r.id, (claims.get(r.id) ?? 0) + 1);
    }
    const next: SessionContent[] = [];
    const taken: string[] = [];
    for (const s of open) {
      const c = cands.get(s.key)!;
      if (c.length === 0) next.push(s);
      else if (c.length === 1 && claims.get(c[0].id) === 1) {
        matched.set(s.key, c[0].id);
        taken.push(c[0].id);
      } else ambiguous.push({ key: s.key, candidates: c.length });
    }
    for (const id of taken) free.delete(id);
    open = next;
  }
  return { matched, create: open.map((s) => s.key), ambiguous };
}
