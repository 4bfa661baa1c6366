/**
 * The reminder-rule editor's vocabulary (components/rules/RuleForm.tsx): the rule as the edit page hands it over,
 * its editable fields, the labels the form and the conflict panel use, and the offset helpers.
 */
import { describeRule } from '@/domain/rules/describe-rule';
import { offsetToParts, type OffsetDirection, type OffsetUnit } from '@/domain/rules/rule-offset';
import { bookingRoles, type Anchor, type BookingRole, type Channel, type TemplateId } from '@/domain/vocabulary';

/** The rule as the edit page hands it over (plain JSON); `id` null on /rules/new (version 0). */
export interface RuleFormValue {
  id: string | null;
  name: string;
  anchor: Anchor;
  /** ISO-8601 duration, e.g. `-P1D`. */
  offset: string;
  audience: BookingRole[];
  channel: Channel;
  template: TemplateId;
  lateSendWindowSeconds: number;
  active: boolean;
  /** Only bookings not yet confirmed (db/schema/rules.ts `onlyUnconfirmed`). */
  onlyUnconfirmed: boolean;
  /** Row version the form is opened at; a save carries it (invariant 11). */
  version: number;
}

/** The editable fields of a rule (what the conflict panel compares and the merge combines). */
export type RuleFields = Omit<RuleFormValue, 'id' | 'version'>;

/** The editable fields of `r` (drops `id` and `version`). */
export function ruleFields(r: RuleFields): RuleFields {
  return { name: r.name, anchor: r.anchor, offset: r.offset, audience: r.audience, channel: r.channel, template: r.template, lateSendWindowSeconds: r.lateSendWindowSeconds, active: r.active, onlyUnconfirmed: r.onlyUnconfirmed };
}

/** "1 day before", "2 hours after", "exactly at"; the ISO text for offsets that mix units. */
function offsetText(offset: unknown): string {
  const p = typeof offset === 'string' ? offsetToParts(offset) : null;
  if (!p) return String(offset);
  if (p.direction === 'at') return 'exactly at';
  const unit = p.amount === 1 ? p.unit.replace(/s$/, '') : p.unit;
  return `${p.amount} ${unit} ${p.direction}`;
}

/** Fields the form can point an error at (the server's field names, plus the editor's own). */
export type Field = 'name' | 'anchor' | 'offset' | 'amount' | 'audience' | 'channel' | 'template' | 'lateSendWindowSeconds' | 'active' | 'onlyUnconfirmed';

export const fieldLabels: Record<Field, string> = {
  name: 'Name',
  anchor: 'Anchor',
  offset: 'Offset',
  amount: 'Amount',
  audience: 'Audience',
  channel: 'Channel',
  template: 'Template',
  lateSendWindowSeconds: 'Late-send window',
  active: 'Active',
  onlyUnconfirmed: 'Only people who have not confirmed',
};

export const anchorLabels: Record<Anchor, string> = { start: 'the start', room_open: 'the room opening', end: 'the end' };
export const unitLabels: Record<OffsetUnit, string> = { minutes: 'minutes', hours: 'hours', days: 'days (same local time)', weeks: 'weeks (same local time)' };
export const directionLabels: Record<OffsetDirection, string> = { before: 'before', at: 'exactly at', after: 'after' };
export const roleLabels: Record<BookingRole, string> = { attendee: 'Attendees', external: 'External guests (reminded in their own organisation’s name)', host: 'Hosts' };
/** The longest late-send window the form accepts: 30 days, in minutes. */
export const MAX_WINDOW_MINUTES = 30 * 24 * 60;

/** Fields whose change can move, add or cancel planned reminders (the name and the template cannot: read at send time). */
export const PLANNING_FIELDS = ['anchor', 'offset', 'audience', 'channel', 'lateSendWindowSeconds', 'active'] as const;

/** The conflict panel's rows: each editable field's label and how its value reads (`templateTitles` names templates). */
export function ruleChangeFields(templateTitles: Record<TemplateId, string>): { key: keyof RuleFields; label: string; format?: (v: unknown) => string }[] {
  return [
    { key: 'name', label: 'Name' },
    { key: 'anchor', label: 'Anchor', format: (v) => anchorLabels[v as Anchor] ?? String(v) },
    { key: 'offset', label: 'Offset', format: offsetText },
    { key: 'audience', label: 'Audience', format: (v) => (Array.isArray(v) ? bookingRoles.filter((r) => v.includes(r)).join(', ') : String(v)) },
    { key: 'channel', label: 'Channel' },
    { key: 'template', label: 'Template', format: (v) => templateTitles[v as TemplateId] ?? String(v) },
    { key: 'lateSendWindowSeconds', label: 'Late-send window', format: (v) => `${Math.round(Number(v) / 60)} minutes` },
    { key: 'active', label: 'Active', format: (v) => (v ? 'yes' : 'no') },
  ];
}

/** True when `offset` is an ISO-8601 duration describeRule can read (any combination of units). */
export function describable(offset: string): boolean {
  try {
    describeRule({ anchor: 'start', offset, audience: ['attendee'], channel: 'email', lateSendWindowSeconds: 0 });
    return true;
  } catch {
    return false;
  }
}
