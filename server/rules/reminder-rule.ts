/**
 * A reminder rule's input schema (what the rule editor, the seed and the CLI give) and its plain insert, with no
 * audit entry and no re-planning: the seed, benchmarks and tests use it; staff create rules through
 * server/rules/rules.ts `createRuleAction`, which checks the same schema.
 */
import { z } from 'zod';
import type { DbOrTx } from '@/db/client';
import { reminderRules, type ReminderRule } from '@/db/schema';
import { MAX_OFFSET_DAYS, offsetMagnitudeDays, parseOffset } from '@/domain/scheduling/due-instant';
import { anchors, bookingRoles, channels, reminderTemplateIds } from '@/domain/vocabulary';
import { refuseBidiControls } from '@/domain/text';
import { parseInput } from '@/server/platform/errors';

export const reminderRuleSchema = z.object({
  name: z.string().trim().min(1, 'required').max(200).check(refuseBidiControls),
  anchor: z.enum(anchors),
  offset: z.string().refine(
    (v) => {
      try {
        parseOffset(v);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be an ISO-8601 duration such as -P1D or -PT2H' },
  ).refine(
    (v) => {
      try {
        return offsetMagnitudeDays(parseOffset(v)) <= MAX_OFFSET_DAYS;
      } catch {
        return true; // reported by the check above
      }
    },
    { message: `must be at most ${MAX_OFFSET_DAYS} days (a year) from its anchor` },
  ),
  audience: z.array(z.enum(bookingRoles)).min(1, 'at least one role'),
  channel: z.enum(channels).default('email'),
  template: z.enum(reminderTemplateIds),
  lateSendWindowSeconds: z.number().int().min(0).max(30 * 86400).default(3600),
  active: z.boolean().default(true),
  /** Only bookings not yet confirmed (db/schema/rules.ts `onlyUnconfirmed`). */
  onlyUnconfirmed: z.boolean({ error: 'must be true or false' }).default(false),
});

/** Adds a reminder rule to a tenant. Existing events are not re-planned (bookings made later use it). */
export async function createReminderRule(db: DbOrTx, tenantId: string, input: z.input<typeof reminderRuleSchema>): Promise<ReminderRule> {
  const [r] = await db.insert(reminderRules).values({ tenantId, ...parseInput(reminderRuleSchema, input) }).returning();
  return r;
}
