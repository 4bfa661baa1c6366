/** Tenant, rule and suppression administration use-cases. */
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { guestPartnerships, reminderRules, suppressions, tenants, type ReminderRule, type Tenant } from '@/db/schema';
import { MAX_OFFSET_DAYS, offsetMagnitudeDays, parseOffset } from '@/domain/scheduling/due-instant';
import { anchors, bookingRoles, channels, emailProviders, suppressionReasons, reminderTemplateIds, type Channel } from '@/domain/vocabulary';
import { FIELD_LIMITS } from '@/domain/platform/request-limits';
import { TENANT_SLUG_PATTERN, TENANT_SLUG_RULE } from '@/domain/organisations/tenant-setup';
import { parseInput } from '@/server/platform/errors';
import { operatorProof } from './sender-identity';
import { isValidZone } from '@/domain/zones';
import { refuseBidiControls } from '@/domain/text';

const zone = z.string().refine((v) => isValidZone(v), { message: 'must be an IANA time zone such as Europe/Amsterdam' });

const createTenantSchema = z.object({
  slug: z.string().regex(TENANT_SLUG_PATTERN, TENANT_SLUG_RULE),
  name: z.string().trim().min(1, 'required').check(refuseBidiControls),
  timeZone: zone,
  roomOpenLeadMinutes: z.number().int().min(0).max(1440).default(30),
  senderEmail: z.email().default('reminders@punctual.local'),
  /** From display name of the tenant's mail; null = its name (issue #13, `npm run tenant -- create --sender-name`). */
  senderName: z.string().trim().min(1).max(200).check(refuseBidiControls).nullish(),
  emailProvider: z.enum(emailProviders).default('smtp'),
});

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
});

/** Creates a tenant. @throws AppError('validation') naming the field. */
export async function createTenant(db: DbOrTx, input: z.input<typeof createTenantSchema>): Promise<Tenant> {
  const values = parseInput(createTenantSchema, input);
  // The operator creates tenants (`npm run tenant -- create`, the seed): its sender address is proven at once, unless
  // another organisation holds it proven already (server/organisations/sender-identity.ts operatorProof).
  const proof = await operatorProof(db, values.senderEmail);
  const [t] = await db.insert(tenants).values({ ...values, ...proof, ...('senderVerifiedEmail' in proof ? { senderVerifiedAt: sql`now()` } : {}) }).returning();
  return t;
}

/** Adds a reminder rule to a tenant. Existing events are not re-planned (bookings made later use it). */
export async function createReminderRule(db: DbOrTx, tenantId: string, input: z.input<typeof reminderRuleSchema>): Promise<ReminderRule> {
  const [r] = await db.insert(reminderRules).values({ tenantId, ...parseInput(reminderRuleSchema, input) }).returning();
  return r;
}

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

/**
 * Records that `guestTenantId` lets `hostTenantId` book its people as external guests (reminded in the guest
 * tenant's name, invariant 9), agreed on both sides at once (`active`: the seed and tests speak for both; staff use
 * the settings page, where one side proposes and the other accepts — server/organisations/partnerships.ts). Idempotent.
 */
export async function allowGuestsFrom(db: DbOrTx, guestTenantId: string, hostTenantId: string): Promise<void> {
  await db.insert(guestPartnerships).values({ guestTenantId, hostTenantId, status: 'active' }).onConflictDoNothing();
}
