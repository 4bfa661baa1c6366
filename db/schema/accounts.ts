/**
 * Staff accounts: better-auth's models (users, two-factor, sessions, accounts, verifications) and staff invitations.
 * Part of the Drizzle schema (db/schema/index.ts re-exports every file); relative imports only, drizzle-kit loads it.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { staffRoles } from '../../domain/vocabulary';
import { createdAt, ts } from './columns';
import { tenants } from './organisations';

export const staffRoleEnum = pgEnum('staff_role', staffRoles);

/*
 * Staff accounts and sessions, in the shape better-auth's drizzle adapter expects (models `user`, `session`,
 * `account`, `verification`; property names are better-auth's field names). A staff user belongs to exactly
 * one tenant and has one role; both are set by an admin or the seed, never by the user (`input: false`).
 */
export const staffUsers = pgTable('staff_users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
  role: staffRoleEnum('role').notNull().default('viewer'),
  /** Row version: bumped by a trigger on every UPDATE (migration 0006); an edit carries the version it saw (invariant 11). */
  version: integer('version').notNull().default(1),
  /** Who made the last change (staff email, `import`, `system`): set by the same trigger from `punctual.actor`. */
  updatedBy: text('updated_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  /** Issue #13: when an admin disabled the account (null: active). A disabled account cannot sign in and has no sessions. */
  disabledAt: ts('disabled_at'),
  /** Issue #13: the admin (email) who disabled it; null when active. */
  disabledBy: text('disabled_by'),
  /** Issue #13: TOTP two-factor is on (better-auth `twoFactor` plugin's user field `twoFactorEnabled`). */
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
});

/**
 * Issue #13: better-auth's `twoFactor` model (plugin `twoFactor`, better-auth 1.7.25): one row per account that set
 * up TOTP — the secret and backup codes, both encrypted by better-auth with BETTER_AUTH_SECRET; `verified` false until
 * the first code confirmed the setup; its own failed-code counter and lock.
 */
export const staffTwoFactors = pgTable(
  'staff_two_factors',
  {
    id: text('id').primaryKey(),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: ts('locked_until'),
    /**
     * The last TOTP time step (floor(unix seconds / 30)) whose code was accepted for this account (migration 0023):
     * a code is accepted once per account and step, and never for a step at or before this one (RFC 6238 §5.2;
     * server/accounts/auth-plugin.ts). Null until a first code was accepted. Not better-auth's: its adapter leaves it alone.
     */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  },
  (t) => [index('staff_two_factors_user_idx').on(t.userId), index('staff_two_factors_secret_idx').on(t.secret)],
);

export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: text('id').primaryKey(),
    expiresAt: ts('expires_at').notNull(),
    token: text('token').notNull().unique(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
  },
  (t) => [index('staff_sessions_user_idx').on(t.userId)],
);

export const staffAccounts = pgTable('staff_accounts', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull(),
  providerId: text('provider_id').notNull(),
  userId: text('user_id')
    .notNull()
    .references(() => staffUsers.id, { onDelete: 'cascade' }),
  accessToken: text('access_token'),
  refreshToken: text('refresh_token'),
  idToken: text('id_token'),
  accessTokenExpiresAt: ts('access_token_expires_at'),
  refreshTokenExpiresAt: ts('refresh_token_expires_at'),
  scope: text('scope'),
  /** Writing a credential password deletes the account's password links (trigger, migration 0023). */
  password: text('password'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const staffVerifications = pgTable(
  'staff_verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  // Issue #13: looked up by identifier — two-factor challenges, and the markers of sessions ended by disabling.
  // Storing a password link (`reset-password:<token>`) deletes the account's older ones (trigger, migration 0023).
  (t) => [index('staff_verifications_identifier_idx').on(t.identifier)],
);

/**
 * Invitations to join a tenant's staff (migration 0027): adding staff is an invitation, answered and listed the same
 * whether or not the address already has an account with another organisation (no oracle across tenants). Pending
 * until accepted through the emailed link (the account is created then), expired, cancelled, or replaced by a new
 * invitation of the same address; only a SHA-256 of the link's token is stored.
 */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: staffRoleEnum('role').notNull(),
    /** The inviting admin's email. */
    invitedBy: text('invited_by').notNull(),
    tokenHash: text('token_hash').notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'cancelled', 'replaced'] }).notNull().default('pending'),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    version: integer('version').notNull().default(1),
    updatedBy: text('updated_by'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('staff_invitations_token_uq').on(t.tokenHash), uniqueIndex('staff_invitations_pending_uq').on(t.tenantId, t.email).where(sql`status = 'pending'`)],
);
export type StaffInvitation = typeof staffInvitations.$inferSelect;

export type StaffUser = typeof staffUsers.$inferSelect;
