/**
 * Tenant administration use-cases: create a tenant, and let another tenant's people be booked as external guests.
 * (A reminder rule's plain insert is server/rules/reminder-rule.ts; adding a suppression, server/suppressions/suppressions.ts.)
 */
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import { guestPartnerships, tenants, type Tenant } from '@/db/schema';
import { emailProviders } from '@/domain/vocabulary';
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

/** Creates a tenant. @throws AppError('validation') naming the field. */
export async function createTenant(db: DbOrTx, input: z.input<typeof createTenantSchema>): Promise<Tenant> {
  const values = parseInput(createTenantSchema, input);
  // The operator creates tenants (`npm run tenant -- create`, the seed): its sender address is proven at once, unless
  // another organisation holds it proven already (server/organisations/sender-identity.ts operatorProof).
  const proof = await operatorProof(db, values.senderEmail);
  const [t] = await db.insert(tenants).values({ ...values, ...proof, ...('senderVerifiedEmail' in proof ? { senderVerifiedAt: sql`now()` } : {}) }).returning();
  return t;
}

/**
 * Records that `guestTenantId` lets `hostTenantId` book its people as external guests (reminded in the guest
 * tenant's name, invariant 9), agreed on both sides at once (`active`: the seed and tests speak for both; staff use
 * the settings page, where one side proposes and the other accepts — server/organisations/partnerships.ts). Idempotent.
 */
export async function allowGuestsFrom(db: DbOrTx, guestTenantId: string, hostTenantId: string): Promise<void> {
  await db.insert(guestPartnerships).values({ guestTenantId, hostTenantId, status: 'active' }).onConflictDoNothing();
}
