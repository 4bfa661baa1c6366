/**
 * TZID → IANA zone name (domain/calendar/ics.ts): IANA names in any case, vendor-prefixed names, X-LIC-LOCATION and
 * the Windows zone names Outlook and Exchange write (CLDR windowsZones). Whether a file's own VTIMEZONE agrees with
 * the name is decided elsewhere (domain/calendar/ics-zones.ts zoneFor).
 */
import { IANAZone } from 'luxon';

/**
 * Maps an iCalendar TZID to an IANA zone name, or null when it cannot. Tried in order:
 *  1. the TZID itself when it is an IANA name (case-insensitive; returned in canonical spelling);
 *  2. a vendor prefix stripped: `/mozilla.org/20050126_1/America/New_York`, `/softwarestudio.org/Olson_…/Europe/Paris`
 *     → the longest trailing `Area/City` that is an IANA name;
 *  3. `xLicLocation`, the X-LIC-LOCATION of the file's VTIMEZONE for this TZID (written by Mozilla and Google);
 *  4. a Windows zone name as Outlook/Exchange write them (`W. Europe Standard Time` → `Europe/Berlin`), by the
 *     CLDR windowsZones "001" mapping for the common zones (WINDOWS_ZONES below).
 * UTC spellings (`UTC`, `GMT`, `Etc/UTC`, `Z`…) return `UTC`. The NAME only: whether the file's VTIMEZONE
 * agrees with it is decided by `readIcs`.
 */
export function resolveTzid(tzid: string, xLicLocation?: string | null): string | null {
  const t = tzid.trim().replace(/^"(.*)"$/, '$1');
  if (/^(?:z|utc|gmt|ut|uct|zulu|universal|greenwich|etc\/(?:utc|gmt|uct|universal|zulu|greenwich))$/i.test(t)) return 'UTC';
  const candidates: string[] = [t];
  const segments = t.split('/').filter(Boolean);
  for (let i = 1; i < segments.length; i++) candidates.push(segments.slice(i).join('/'));
  if (xLicLocation) candidates.push(xLicLocation.trim());
  for (const c of candidates) {
    if (c && IANAZone.isValidZone(c)) return canonicalZone(c);
  }
  const win = WINDOWS_ZONES[t.toLowerCase()];
  return win && IANAZone.isValidZone(win) ? canonicalZone(win) : null;
}

/**
 * The zone's usual spelling when only its case differs (`america/new_york` → `America/New_York`). Links keep
 * the file's name: ICU would turn `Asia/Kolkata` into the legacy `Asia/Calcutta`.
 */
export function canonicalZone(zone: string): string {
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
  } catch {
    return zone;
  }
}

/**
 * Windows zone names (as Outlook and Exchange write TZIDs) → IANA, from the Unicode CLDR windowsZones table
 * (territory "001", the zone's main city). Common zones only; a TZID not listed here still imports when the
 * file defines its VTIMEZONE. Keys are lower-case.
 */
export const WINDOWS_ZONES: Record<string, string> = Object.fromEntries(
  (
    [
      ['Dateline Standard Time', 'Etc/GMT+12'],
      ['UTC-11', 'Etc/GMT+11'],
      ['Aleutian Standard Time', 'America/Adak'],
      ['Hawaiian Standard Time', 'Pacific/Honolulu'],
      ['Alaskan Standard Time', 'America/Anchorage'],
      ['Pacific Standard Time (Mexico)', 'America/Tijuana'],
      ['Pacific Standard Time', 'America/Los_Angeles'],
      ['US Mountain Standard Time', 'America/Phoenix'],
      ['Mountain Standard Time (Mexico)', 'America/Mazatlan'],
      ['Mountain Standard Time', 'America/Denver'],
      ['Central America Standard Time', 'America/Guatemala'],
      ['Central Standard Time', 'America/Chicago'],
      ['Central Standard Time (Mexico)', 'America/Mexico_City'],
      ['Canada Central Standard Time', 'America/Regina'],
      ['SA Pacific Standard Time', 'America/Bogota'],
      ['Eastern Standard Time (Mexico)', 'America/Cancun'],
      ['Eastern Standard Time', 'America/New_York'],
      ['US Eastern Standard Time', 'America/Indiana/Indianapolis'],
      ['Cuba Standard Time', 'America/Havana'],
      ['Paraguay Standard Time', 'America/Asuncion'],
      ['Atlantic Standard Time', 'America/Halifax'],
      ['Venezuela Standard Time', 'America/Caracas'],
      ['SA Western Standard Time', 'America/La_Paz'],
      ['Pacific SA Standard Time', 'America/Santiago'],
      ['Newfoundland Standard Time', 'America/St_Johns'],
      ['E. South America Standard Time', 'America/Sao_Paulo'],
      ['Argentina Standard Time', 'America/Argentina/Buenos_Aires'],
      ['SA Eastern Standard Time', 'America/Cayenne'],
      ['Montevideo Standard Time', 'America/Montevideo'],
      ['UTC-02', 'Etc/GMT+2'],
      ['Azores Standard Time', 'Atlantic/Azores'],
      ['Cape Verde Standard Time', 'Atlantic/Cape_Verde'],
      ['UTC', 'Etc/UTC'],
      ['GMT Standard Time', 'Europe/London'],
      ['Greenwich Standard Time', 'Atlantic/Reykjavik'],
      ['Morocco Standard Time', 'Africa/Casablanca'],
      ['W. Europe Standard Time', 'Europe/Berlin'],
      ['Central Europe Standard Time', 'Europe/Budapest'],
      ['Romance Standard Time', 'Europe/Paris'],
      ['Central European Standard Time', 'Europe/Warsaw'],
      ['W. Central Africa Standard Time', 'Africa/Lagos'],
      ['Jordan Standard Time', 'Asia/Amman'],
      ['GTB Standard Time', 'Europe/Bucharest'],
      ['Middle East Standard Time', 'Asia/Beirut'],
      ['Egypt Standard Time', 'Africa/Cairo'],
      ['E. Europe Standard Time', 'Europe/Chisinau'],
      ['Syria Standard Time', 'Asia/Damascus'],
      ['South Africa Standard Time', 'Africa/Johannesburg'],
      ['FLE Standard Time', 'Europe/Kiev'],
      ['Israel Standard Time', 'Asia/Jerusalem'],
      ['Kaliningrad Standard Time', 'Europe/Kaliningrad'],
      ['Libya Standard Time', 'Africa/Tripoli'],
      ['Namibia Standard Time', 'Africa/Windhoek'],
      ['Arabic Standard Time', 'Asia/Baghdad'],
      ['Turkey Standard Time', 'Europe/Istanbul'],
      ['Arab Standard Time', 'Asia/Riyadh'],
      ['Belarus Standard Time', 'Europe/Minsk'],
      ['Russian Standard Time', 'Europe/Moscow'],
      ['E. Africa Standard Time', 'Africa/Nairobi'],
      ['Iran Standard Time', 'Asia/Tehran'],
      ['Arabian Standard Time', 'Asia/Dubai'],
      ['Azerbaijan Standard Time', 'Asia/Baku'],
      ['Mauritius Standard Time', 'Indian/Mauritius'],
      ['Georgian Standard Time', 'Asia/Tbilisi'],
      ['Caucasus Standard Time', 'Asia/Yerevan'],
      ['Afghanistan Standard Time', 'Asia/Kabul'],
      ['West Asia Standard Time', 'Asia/Tashkent'],
      ['Ekaterinburg Standard Time', 'Asia/Yekaterinburg'],
      ['Pakistan Standard Time', 'Asia/Karachi'],
      ['India Standard Time', 'Asia/Kolkata'],
      ['Sri Lanka Standard Time', 'Asia/Colombo'],
      ['Nepal Standard Time', 'Asia/Kathmandu'],
      ['Bangladesh Standard Time', 'Asia/Dhaka'],
      ['Myanmar Standard Time', 'Asia/Yangon'],
      ['SE Asia Standard Time', 'Asia/Bangkok'],
      ['North Asia Standard Time', 'Asia/Krasnoyarsk'],
      ['China Standard Time', 'Asia/Shanghai'],
      ['North Asia East Standard Time', 'Asia/Irkutsk'],
      ['Singapore Standard Time', 'Asia/Singapore'],
      ['W. Australia Standard Time', 'Australia/Perth'],
      ['Taipei Standard Time', 'Asia/Taipei'],
      ['Tokyo Standard Time', 'Asia/Tokyo'],
      ['Korea Standard Time', 'Asia/Seoul'],
      ['Yakutsk Standard Time', 'Asia/Yakutsk'],
      ['Cen. Australia Standard Time', 'Australia/Adelaide'],
      ['AUS Central Standard Time', 'Australia/Darwin'],
      ['E. Australia Standard Time', 'Australia/Brisbane'],
      ['AUS Eastern Standard Time', 'Australia/Sydney'],
      ['Tasmania Standard Time', 'Australia/Hobart'],
      ['Vladivostok Standard Time', 'Asia/Vladivostok'],
      ['Magadan Standard Time', 'Asia/Magadan'],
      ['UTC+12', 'Etc/GMT-12'],
      ['New Zealand Standard Time', 'Pacific/Auckland'],
      ['Fiji Standard Time', 'Pacific/Fiji'],
      ['Tonga Standard Time', 'Pacific/Tongatapu'],
      ['Samoa Standard Time', 'Pacific/Apia'],
      ['Line Islands Standard Time', 'Pacific/Kiritimati'],
    ] as const
  ).map(([win, iana]) => [win.toLowerCase(), iana]),
);

/** Exposed for tests: the Windows zone table (lower-case Windows name → IANA). */
export const windowsZones: Readonly<Record<string, string>> = WINDOWS_ZONES;
