/**
 * Staff accounts (issue #4): created by the seed or an admin — there is no self sign-up. Passwords are
 * hashed with better-auth's own `hashPassword` (scrypt) and stored the way its email+password sign-in
 * reads them (an `account` row with providerId `credential`).
 */
import { randomUUID } from 'node:crypto';
import { hashPassword } from 'better-auth/crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../db/client';
import { staffAccounts, staffUsers } from '../db/schema';
import { staffRoles, type StaffRole } from '../domain/vocabulary';
import { parseInput } from './errors';

export const staffInput = z.object({
  email: z.email().transform((e) => e.toLowerCase()),
  name: z.string().trim().min(1).max(120),
  role: z.enum(staffRoles),
  password: z.string().min(8, 'at least 8 characters').max(128),
});
export type StaffInput = z.input<typeof staffInput>;

/**
 * Creates the account unless one with that email exists (then nothing changes).
 * @returns whether it was created. @throws AppError('validation') naming the field.
 */
export async function ensureStaffUser(db: DbOrTx, tenantId: string, input: StaffInput): Promise<boolean> {
  const v = parseInput(staffInput, input);
  const [existing] = await db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.email, v.email));
  if (existing) return false;
  const id = randomUUID();
  const password = await hashPassword(v.password);
  await db.transaction(async (tx) => {
    await tx.insert(staffUsers).values({ id, email: v.email, name: v.name, role: v.role, tenantId, emailVerified: true });
    await tx.insert(staffAccounts).values({ id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password });
  });
  return true;
}

/** Password of every demo account (the demo is local; real accounts are made by an admin). */
export const DEMO_PASSWORD = 'punctual-demo';

/** The demo accounts `npm start` creates and prints: three roles in `demo`, an admin in `partner`. */
export const demoAccounts: { tenantSlug: string; email: string; name: string; role: StaffRole }[] = [
  { tenantSlug: 'demo', email: 'admin@demo.punctual.local', name: 'Ada Admin', role: 'admin' },
  { tenantSlug: 'demo', email: 'staff@demo.punctual.local', name: 'Sam Staff', role: 'staff' },
  { tenantSlug: 'demo', email: 'viewer@demo.punctual.local', name: 'Vic Viewer', role: 'viewer' },
  { tenantSlug: 'partner', email: 'admin@partner.punctual.local', name: 'Pat Partner', role: 'admin' },
];
