/**
 * Allowed state transitions (DESIGN §4a) as data. The database layer guards every status write with the
 * from-states computed here (`UPDATE … WHERE status IN (…)`), so no write can skip the table.
 */
import type { DeliveryStatus, ReminderStatus } from './vocabulary';

export const reminderTransitions: Readonly<Record<ReminderStatus, readonly ReminderStatus[]>> = {
  scheduled: ['dispatched', 'done', 'superseded', 'cancelled', 'expired', 'failed'],
  dispatched: ['done', 'superseded', 'cancelled', 'expired', 'failed'],
  done: [],
  superseded: [],
  cancelled: [],
  expired: [],
  failed: [],
};

export const deliveryTransitions: Readonly<Record<DeliveryStatus, readonly DeliveryStatus[]>> = {
  claimed: ['sending', 'suppressed', 'cancelled', 'superseded', 'expired', 'failed'],
  retrying: ['sending', 'suppressed', 'cancelled', 'superseded', 'expired', 'failed'],
  sending: ['accepted', 'retrying', 'unknown', 'failed', 'expired', 'dead'],
  // A definite answer that arrives after recovery gave the attempt up as unknown is the better record.
  unknown: ['accepted', 'retrying', 'failed', 'expired', 'dead'],
  accepted: ['delivered', 'bounced', 'complained'],
  delivered: ['bounced', 'complained'],
  bounced: [],
  complained: [],
  suppressed: [],
  cancelled: [],
  superseded: [],
  failed: [],
  expired: [],
  dead: [],
};

function invert<S extends string>(table: Readonly<Record<S, readonly S[]>>, to: S): S[] {
  return (Object.keys(table) as S[]).filter((from) => table[from].includes(to));
}

/** Reminder states from which `to` may be entered. */
export const reminderFromStates = (to: ReminderStatus): ReminderStatus[] => invert(reminderTransitions, to);
/** Delivery states from which `to` may be entered. */
export const deliveryFromStates = (to: DeliveryStatus): DeliveryStatus[] => invert(deliveryTransitions, to);

/** Terminal = no transition out. */
export const isTerminalReminder = (s: ReminderStatus) => reminderTransitions[s].length === 0;
