/**
 * Allowed state transitions (DESIGN §4a) as data. The database layer guards every status write with the
 * from-states computed here (`UPDATE … WHERE status IN (…)`), so no write can skip the table.
 */
import type { DeliveryStatus, ReminderStatus } from './vocabulary';

export const reminderTransitions: Readonly<Record<ReminderStatus, readonly ReminderStatus[]>> = {
  scheduled: ['dispatched', 'done', 'superseded', 'cancelled', 'expired', 'failed'],
  // dispatched → scheduled: the recipient's quiet hours began since it was planned; it waits for their end
  // (issue #9 §7, checked again at send time like suppressions).
  dispatched: ['done', 'superseded', 'cancelled', 'expired', 'failed', 'scheduled'],
  done: [],
  superseded: [],
  cancelled: [],
  expired: [],
  failed: [],
};

export const deliveryTransitions: Readonly<Record<DeliveryStatus, readonly DeliveryStatus[]>> = {
  // `retrying` from claimed: waiting for a rate-limit send slot. `dead`: the world changed so the message can
  // no longer be built (template) or no provider is configured (configuration).
  claimed: ['sending', 'retrying', 'suppressed', 'cancelled', 'superseded', 'expired', 'failed', 'dead'],
  retrying: ['sending', 'retrying', 'suppressed', 'cancelled', 'superseded', 'expired', 'failed', 'dead'],
  sending: ['accepted', 'retrying', 'unknown', 'failed', 'expired', 'dead'],
  // A definite answer that arrives after recovery gave the attempt up as unknown is the better record;
  // a person may also mark it sent (accepted), send it again (retrying) or discard it.
  // A delivery report about an `unknown` message proves it went out: the report state applies (issue #10).
  unknown: ['accepted', 'retrying', 'failed', 'expired', 'dead', 'discarded', 'delivered', 'soft_bounced', 'bounced', 'complained'],
  // Delivery reports move a sent message only forward in severity (domain/reports/report-state.ts):
  // accepted < delivered < soft_bounced < bounced (or SMS `failed`) < complained.
  accepted: ['delivered', 'soft_bounced', 'bounced', 'complained', 'failed'],
  delivered: ['soft_bounced', 'bounced', 'complained', 'failed'],
  soft_bounced: ['bounced', 'complained', 'failed'],
  bounced: ['complained'],
  complained: [],
  suppressed: [],
  cancelled: [],
  superseded: [],
  failed: [],
  expired: [],
  // A dead letter waits for a person: replay (→ retrying, same message key) or discard (with a reason).
  dead: ['retrying', 'discarded'],
  discarded: [],
};

function invert<S extends string>(table: Readonly<Record<S, readonly S[]>>, to: S): S[] {
  return (Object.keys(table) as S[]).filter((from) => table[from].includes(to));
}

/** Reminder states from which `to` may be entered. */
export const reminderFromStates = (to: ReminderStatus): ReminderStatus[] => invert(reminderTransitions, to);
/** Delivery states from which `to` may be entered. */
export const deliveryFromStates = (to: DeliveryStatus): DeliveryStatus[] => invert(deliveryTransitions, to);

