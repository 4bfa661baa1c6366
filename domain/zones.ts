/**
 * Time zone names for people: which names are offered, which are accepted, and which zone a typed city
 * name probably means (pure: no clock reads; data from the `@vvo/tzdb` package and the runtime's ICU).
 *
 * Source of names: `@vvo/tzdb` (a maintained, regularly released copy of the IANA tz database and GeoNames
 * cities; its `tzdbVersion` says which release). It has the CURRENT names (Europe/Kyiv, Asia/Kolkata,
 * America/Nuuk) where Node 20's ICU still lists the old ones (`Intl.supportedValuesOf('timeZone')` gives
 * Europe/Kiev, Asia/Calcutta, America/Godthab). Each tzdb entry's `group` lists every name, current or
 * deprecated, that shows the same time in one country, with the main cities of the group.
 *
 * Rules:
 * - Offered (zone pickers): every current tzdb name this runtime can compute with, plus "UTC", sorted.
 * - Accepted: a tz database name, current or old link, spelt exactly (see {@link isValidZone}; ICU's
 *   extra three-letter ids such as AET are refused: PostgreSQL cannot use them). Old aliases keep working and are STORED AS GIVEN (Europe/Kiev stays
 *   Europe/Kiev): formatting and DST math are identical for a link and its target, and rewriting a stored
 *   name would change what staff typed. On this runtime ICU accepts Europe/Kyiv (it resolves it to
 *   Europe/Kiev internally); formatting works either way.
 * - Suggested (for a typed city or old name): see {@link suggestZone}.
 */
import { rawTimeZones, timeZonesNames } from '@vvo/tzdb';
import { IANAZone } from 'luxon';

/**
 * Every tz database name: the current ones and the old links each tzdb entry groups with them (Europe/Kiev,
 * US/Pacific, Asia/Calcutta), plus the UTC/GMT family. Not ICU's own extras: ICU also accepts Java-era
 * three-letter ids (AET, BET, IST…) that are not tz database names, that PostgreSQL rejects (`at time zone`
 * fails) and that mean something else there (`BST` is Asia/Dhaka to ICU, British Summer Time to a person).
 */
const tzdbNames: ReadonlySet<string> = new Set([
  ...rawTimeZones.flatMap((z) => [z.name, ...z.group]),
  ...['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT', 'Etc/UCT', 'UCT', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu', 'Etc/Greenwich', 'Greenwich'],
  ...Array.from({ length: 14 }, (_, i) => [`Etc/GMT+${i + 1}`, `Etc/GMT-${i + 1}`]).flat(),
]);

const validity = new Map<string, boolean>();

/**
 * True when `zone` is a tz database name (exact spelling: the error's suggestion fixes a wrong case) that this
 * runtime can compute with. Current names and old links alike. Cached: luxon builds an `Intl.DateTimeFormat`
 * on every check. The one zone check of the project (domain/scheduling/due-instant.ts `isIanaZone` is this).
 */
export function isValidZone(zone: string): boolean {
  if (typeof zone !== 'string' || zone === '') return false;
  let ok = validity.get(zone);
  if (ok === undefined) {
    ok = tzdbNames.has(zone) && IANAZone.isValidZone(zone);
    if (validity.size > 2000) validity.clear();
    validity.set(zone, ok);
  }
  return ok;
}

/** Current tz database names this runtime accepts, plus "UTC", sorted (for zone pickers). */
export const zoneNames: readonly string[] = [...new Set([...timeZonesNames, 'UTC'])].filter(isValidZone).sort();

const current = new Set(timeZonesNames);
const lowerToName = new Map<string, string>();
for (const name of [...zoneNames, ...rawTimeZones.flatMap((z) => z.group)]) lowerToName.set(name.toLowerCase(), name);

/** The runtime's own id for a zone (links collapse to one id: Europe/Kyiv and Europe/Kiev → Europe/Kiev). */
function icuId(zone: string): string | null {
  if (!isValidZone(zone)) return null;
  return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
}

/**
 * The current name for a tz database name: itself when current, else the current name it is a link to
 * (Europe/Kiev → Europe/Kyiv, Asia/Calcutta → Asia/Kolkata, America/Godthab → America/Nuuk), else the
 * main name of its group. Null for a name tzdb does not know. Letter case is corrected ("europe/kyiv").
 */
export function currentZoneName(zone: string): string | null {
  const name = lowerToName.get(zone.trim().toLowerCase());
  if (!name) return null;
  if (current.has(name) || name === 'UTC') return name;
  const group = rawTimeZones.find((z) => z.group.includes(name));
  if (!group) return null;
  const id = icuId(name);
  const same = group.group.find((g) => current.has(g) && id !== null && icuId(g) === id);
  return same ?? group.name;
}

/** Lower case, accents removed, spaces/underscores/hyphens/dots as one space: "São_Paulo" → "sao paulo". */
function key(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s_.\-']+/g, ' ')
    .trim();
}

const byLastSegment = new Map<string, Set<string>>();
const byCity = new Map<string, Set<string>>();
function add(map: Map<string, Set<string>>, k: string, zone: string) {
  if (!k) return;
  let set = map.get(k);
  if (!set) map.set(k, (set = new Set()));
  set.add(zone);
}
for (const z of rawTimeZones) {
  for (const member of z.group) {
    const now = currentZoneName(member);
    if (now && isValidZone(now)) add(byLastSegment, key(member.split('/').pop()!), now);
  }
  for (const city of z.mainCities) if (isValidZone(z.name)) add(byCity, key(city), z.name);
}
for (const name of zoneNames) add(byLastSegment, key(name.split('/').pop()!), name);

/**
 * The zone a person probably means by what they typed, as a current tz database name, or null when
 * nothing or more than one zone matches:
 * 1. a tz name in any letter case, current or old ("europe/kiev" → Europe/Kyiv);
 * 2. the city part of a name, current or old ("Kyiv", "Kiev" → Europe/Kyiv; "Kolkata", "Calcutta" →
 *    Asia/Kolkata; "Nuuk", "Godthab" → America/Nuuk; "new york" → America/New_York);
 * 3. one of a zone's main cities in tzdb ("Mumbai" → Asia/Kolkata, "Munich" → Europe/Berlin).
 * Case, accents, spaces and underscores are ignored. Pure.
 */
export function suggestZone(input: string): string | null {
  const trimmed = input.trim();
  if (!trimmed) return null;
  const named = currentZoneName(trimmed);
  if (named && isValidZone(named)) return named;
  const k = key(trimmed);
  for (const map of [byLastSegment, byCity]) {
    const hits = map.get(k);
    if (hits && hits.size === 1) return [...hits][0]!;
    if (hits && hits.size > 1) return null;
  }
  return null;
}
