/**
 * Which reminder templates a staff nudge ("Remind now") can use for one participant of one event (issue #12:
 * the dialog offered the room-opening template for an event without a room, whose preview then failed). Pure:
 * decided from the booking's role and whether the event has an online room — nothing else of the event or
 * the person can make a reminder template unrenderable.
 *
 * Where the rules come from — each template's zod data schema in emails/ (validated before any claim,
 * invariant 5), kept in step with this module by test/unit/nudge-templates.test.ts:
 *  - `attendee-reminder`: the shared fields only (emails/attendee-reminder.tsx) — renders for every role.
 *  - `room-opening`: `roomUrl` and `roomOpensAt` required (emails/room-opening.tsx); the send path fills both
 *    only when the event has a room URL (server/sending/send-checks.ts `buildTemplateData`).
 *  - `host-reminder`: `role` must be `host` (emails/host-reminder.tsx), so its "you are hosting" wording never
 *    reaches an attendee or a guest.
 */
import { reminderTemplateIds, type BookingRole, type ReminderTemplateId } from '@/domain/vocabulary';

/** What renderability depends on. */
interface NudgeTemplateContext {
  /** The booking's role. */
  role: BookingRole;
  /** The event has an online room (a room URL): the room-opening template has something to open. */
  hasRoom: boolean;
}

/** One template and whether it renders here; when not, the template-data field that would be missing and why, in staff words. */
type NudgeTemplateAvailability =
  | { template: ReminderTemplateId; ok: true }
  | { template: ReminderTemplateId; ok: false; field: 'roomUrl' | 'role'; reason: string };

/** Every reminder template (in `reminderTemplateIds` order) with whether it renders for this participant and event. */
export function nudgeTemplateAvailability(ctx: NudgeTemplateContext): NudgeTemplateAvailability[] {
  return reminderTemplateIds.map((template): NudgeTemplateAvailability => {
    switch (template) {
      case 'room-opening':
        return ctx.hasRoom ? { template, ok: true } : { template, ok: false, field: 'roomUrl', reason: 'this event has no online room' };
      case 'host-reminder':
        return ctx.role === 'host' ? { template, ok: true } : { template, ok: false, field: 'role', reason: 'it is written for hosts' };
      case 'confirmation-request':
        return ctx.role !== 'host' ? { template, ok: true } : { template, ok: false, field: 'role', reason: 'it asks a participant to confirm their place' };
      case 'attendee-reminder':
        return { template, ok: true };
    }
  });
}

/**
 * Why `template` cannot be used for this nudge — the message an API answers with (field `template`), e.g.
 * "template: room-opening cannot be used here — this event has no online room" — or null when it renders.
 * An id that is not a reminder template is refused too ("is not a reminder template").
 */
export function nudgeTemplateRefusal(template: string, ctx: NudgeTemplateContext): string | null {
  const a = nudgeTemplateAvailability(ctx).find((x) => x.template === template);
  if (!a) return `template: "${template}" is not a reminder template (one of ${reminderTemplateIds.join(', ')})`;
  if (a.ok) return null;
  return `template: ${template} cannot be used here — ${a.reason} (${a.field})`;
}

/**
 * The template a nudge to this role uses unless staff pick another — the "Remind now" dialog's first choice and
 * every nudge of a bulk "Nudge selected": `host-reminder` for hosts, `attendee-reminder` for everyone else. Both
 * render for their role whatever the event ({@link nudgeTemplateAvailability}).
 */
export function defaultNudgeTemplate(role: BookingRole): ReminderTemplateId {
  return role === 'host' ? 'host-reminder' : 'attendee-reminder';
}
