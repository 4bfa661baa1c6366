/**
 * How a participant's own time zone reads on their card (issue #12). Pure.
 *
 * The card always says something about the person's zone, in one of three ways, because each leads staff to
 * a different conclusion and an absent line could mean either of the first two:
 *  - `none`: no zone on file — their messages show the event's zone only, and quiet hours are read in the
 *    organisation's zone (db/schema/scheduling.ts `contacts.time_zone`, server/scheduling/planning.ts quiet hours);
 *  - `same`: their zone keeps the event's clock at the event's start (same UTC offset then — Europe/Berlin for an
 *    Amsterdam event, or an old spelling such as Europe/Kiev for Europe/Kyiv): nothing to convert;
 *  - `differs`: another clock at the event's start — the card adds the start in their time, which is what staff
 *    need when they talk to the person (and what the person's messages show as "your time").
 * "Same" is decided by the offset at the event's start, not by the name, because that is what the person sees.
 */
import { DateTime } from 'luxon';
import { isValidZone } from '@/domain/zones';

type ParticipantZone =
  | { kind: 'none' }
  | { kind: 'same'; zone: string }
  | { kind: 'differs'; zone: string }
  /** Stored but not a zone this runtime knows (data from before validation): shown as it is. */
  | { kind: 'unknown'; zone: string };

/**
 * @param ownZone the person's zone as stored (null = none on file).
 * @param eventZone the event's IANA zone.
 * @param startsAt the event's start (UTC instant, ISO string or Date).
 */
export function participantZone(ownZone: string | null, eventZone: string, startsAt: string | Date): ParticipantZone {
  if (ownZone === null || ownZone.trim() === '') return { kind: 'none' };
  if (!isValidZone(ownZone)) return { kind: 'unknown', zone: ownZone };
  if (ownZone === eventZone || !isValidZone(eventZone)) return { kind: ownZone === eventZone ? 'same' : 'differs', zone: ownZone };
  const at = typeof startsAt === 'string' ? DateTime.fromISO(startsAt, { zone: 'utc' }) : DateTime.fromJSDate(startsAt, { zone: 'utc' });
  if (!at.isValid) return { kind: 'differs', zone: ownZone };
  return at.setZone(ownZone).offset === at.setZone(eventZone).offset ? { kind: 'same', zone: ownZone } : { kind: 'differs', zone: ownZone };
}
