/**
 * Adding an address to a tenant's suppression list (the list the send-time check reads): for a delivery report
 * (server/reports/reports.ts), a provider's permanent refusal (server/sending/send-attempt.ts) and tests. Staff add
 * and remove entries through server/scheduling/staff-actions.ts (with an audit entry), which shares
 * {@link suppressionChannelOf}.
 */
import { z } from 'zod';
import type { DbOrTx } from '@/db/client';
import { suppressions } from '@/db/schema';
import { channels, suppressionReasons, type Channel } from '@/domain/vocabulary';
import { FIELD_LIMITS } from '@/domain/platform/request-limits';
import { parseInput } from '@/server/platform/errors';

/** The channel a suppression of `address` stops when none is given: a number in E.164 (`+…`) stops SMS, anything else email. */
export function suppressionChannelOf(address: string): 'email' | 'sms' {
  return address.trim().startsWith('+') ? 'sms' : 'email';
}

/**
 * Adds an address to a tenant's suppression list (idempotent: a LIVE entry for the same tenant, channel and
 * address — case-insensitive — is kept as it is; removed entries are history and do not count, so a removed
 * address is suppressed again with a new row).
 * `channel` defaults from the address form ({@link suppressionChannelOf}); `reportId` links the delivery report
 * that caused it (issue #10 §3); `at` is the instant it is added (default: the database's now).
 * @returns the new entry's id, or null when a live entry already existed.
 * @throws AppError('validation') naming the field (address not an email address or E.164 number, unknown reason).
 */
export async function addSuppression(
  db: DbOrTx,
  tenantId: string,
  input: { address: string; reason: (typeof suppressionReasons)[number]; source?: string; channel?: Channel; reportId?: string | null; at?: Date },
): Promise<{ id: string } | null> {
  const data = parseInput(
    // An email address, or a mobile number in E.164 (SMS suppressions: invalid number, STOP at the carrier).
    z.object({
      address: z
        .string()
        .max(FIELD_LIMITS.address, `at most ${FIELD_LIMITS.address} characters`)
        .pipe(z.union([z.email(), z.string().regex(/^\+[1-9]\d{6,14}$/)], { error: 'must be an email address or a phone number in E.164 form (+31612345678)' })),
      reason: z.enum(suppressionReasons),
      source: z.string().default('manual'),
      channel: z.enum(channels).optional(),
      reportId: z.uuid().nullish(),
      at: z.date().optional(),
    }),
    input,
  );
  const [row] = await db
    .insert(suppressions)
    .values({
      tenantId,
      address: data.address,
      reason: data.reason,
      source: data.source,
      channel: data.channel ?? suppressionChannelOf(data.address),
      reportId: data.reportId ?? null,
      ...(data.at ? { createdAt: data.at } : {}),
    })
    // The partial unique index (tenant, channel, lower(address)) WHERE removed_at IS NULL: one live entry.
    .onConflictDoNothing()
    .returning({ id: suppressions.id });
  return row ?? null;
}
