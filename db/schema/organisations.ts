/**
 * Organisations (tenants) and what links or configures them: the tenant row itself, guest partnerships and
 * proposals, "send a test message" requests and sender verification links.
 * Part of the Drizzle schema (db/schema/index.ts re-exports every file); relative imports only, drizzle-kit loads it.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgEnum, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { emailProviders } from '../../domain/vocabulary';
import { guestLimits } from '../../domain/organisations/guest-sender';
import { partnershipSides, partnershipStatuses } from '../../domain/organisations/partnership';
import { testMessageStatuses } from '../../domain/organisations/org-settings';
import { createdAt, ts } from './columns';

export const emailProviderEnum = pgEnum('email_provider', emailProviders);
/** How far a guest partnership lets the host write in the guest organisation's name (domain/organisations/guest-sender.ts). */
export const guestLimitEnum = pgEnum('guest_limit', guestLimits);
/** A guest partnership's agreement (domain/organisations/partnership.ts): pending until the other side accepts (migration 0016). */
export const partnershipStatusEnum = pgEnum('partnership_status', partnershipStatuses);
/** Which side of a partnership proposed it: the guest organisation (offer) or the host (request). */
export const partnershipSideEnum = pgEnum('partnership_side', partnershipSides);
/** What became of a "send a test message" request (org_test_messages). */
export const testMessageStatusEnum = pgEnum('test_message_status', testMessageStatuses);

export const tenants = pgTable('tenants', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  /** IANA zone used when an event or contact names none. */
  timeZone: text('time_zone').notNull(),
  /** Minutes before start that an online room opens, unless the event overrides it. */
  roomOpenLeadMinutes: integer('room_open_lead_minutes').notNull().default(30),
  /** From address for this tenant's mail. */
  senderEmail: text('sender_email').notNull().default('reminders@punctual.local'),
  /** Which provider this tenant's mail goes through (credentials come from the environment). */
  emailProvider: emailProviderEnum('email_provider').notNull().default('smtp'),
  /**
   * Domain of the VERP bounce address (`bounces+<token>@<bounce domain>`, issue #10 §4) that is the SMTP envelope
   * sender (Return-Path) of this tenant's mail; null = the domain of `sender_email`.
   */
  bounceDomain: text('bounce_domain'),
  /** The display name of this tenant's mail (`From: "<sender name>" <sender_email>`); null = the tenant's `name` (migrations 0015 and 0016: `npm run tenant -- create --sender-name`, the settings page). */
  senderName: text('sender_name'),
  /** Reply-To address of this tenant's mail; null = none (replies go to `sender_email`). */
  replyTo: text('reply_to'),
  /**
   * The normalised sender address this tenant PROVED it may send from (domain/organisations/sender-identity.ts): an admin opened
   * the link mailed to it, the operator set it (`npm run tenant -- create`), or it was grandfathered in (migration
   * sender_verification_backfill). It counts only while it equals the normalised `sender_email`; null = none.
   * Unique among tenants (index `tenants_sender_verified_email_uq`): one proven owner per address.
   */
  senderVerifiedEmail: text('sender_verified_email'),
  /** How `sender_verified_email` was proven: `link`, `operator` or `grandfathered`; null with it. */
  senderVerifiedVia: text('sender_verified_via'),
  senderVerifiedAt: ts('sender_verified_at'),
  /**
   * Default BCP 47 locale (domain/locales.ts canonicalLocale) of contacts added without one, and the organisation's
   * default language of messages to people whose language has no text (domain/messages/locale-fallback.ts).
   */
  locale: text('locale').notNull().default('en'),
  /**
   * When an admin dismissed the first-day checklist on the dashboard (domain/dashboards/first-day.ts); null = it shows
   * until every item is done. The demo seed sets it: the demo organisation never shows the checklist.
   */
  firstDayDismissedAt: ts('first_day_dismissed_at'),
  /**
   * Most SMS segments one of this organisation's own SMS texts may take (templates editor, announcements), 1–10
   * (domain/organisations/org-settings.ts SMS_SEGMENT_LIMIT_RANGE; check constraint `tenants_sms_segment_limit_ck`).
   * Each segment is billed by the provider as one message (GSM-7: 160 characters alone, 153 per part).
   */
  smsSegmentLimit: integer('sms_segment_limit').notNull().default(3),
  /**
   * Today shows an alert line for an event starting within 24 h when MORE than this many of its participants have not
   * confirmed they will come (domain/scheduling/attendance.ts); null = no such alert. 0–10000.
   */
  unconfirmedAlertThreshold: integer('unconfirmed_alert_threshold'),
  /** Row version (trigger `punctual_bump_row_version`, migration 0016): the settings page sends the version it saw (invariant 11). */
  version: integer('version').notNull().default(1),
  updatedBy: text('updated_by'),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [
  // Migration 0022 (sender identity): one proven owner per address; who holds an address, by its normalised form.
  // (`sender_verified_via` is also checked to be link / operator / grandfathered there.)
  uniqueIndex('tenants_sender_verified_email_uq').on(t.senderVerifiedEmail),
  index('tenants_sender_email_lower_idx').on(sql`lower(btrim(${t.senderEmail}))`),
  check('tenants_sms_segment_limit_ck', sql`${t.smsSegmentLimit} between 1 and 10`),
]);

/**
 * Which host tenants a tenant lets book its people as external guests (invariant 9: a guest is reminded in
 * their own organisation's name, so that organisation must have agreed). Without a row, an `external`
 * booking naming `guest_tenant_id` is refused (and a send whose partnership is gone goes out in the host's
 * own name). `guest_limit` says whom of them the host may write to in the guest organisation's name.
 */
export const guestPartnerships = pgTable(
  'guest_partnerships',
  {
    guestTenantId: uuid('guest_tenant_id').notNull().references(() => tenants.id),
    hostTenantId: uuid('host_tenant_id').notNull().references(() => tenants.id),
    /**
     * Whom the host may write to in the guest organisation's name (issue #12, domain/organisations/guest-sender.ts): `anyone`,
     * `contacts` (the guest tenant's own contacts), `domains` (`allowed_domains`) or `none`. Set by the guest
     * tenant's admins; everyone else the host books as its guest is written to in the host's own name.
     */
    guestLimit: guestLimitEnum('guest_limit').notNull().default('anyone'),
    /** For `domains`: lower-case ASCII (punycode) domains, matched exactly against the address's domain. */
    allowedDomains: text('allowed_domains').array().notNull().default(sql`'{}'::text[]`),
    /**
     * Both sides agree (issue #13, migration 0016): `pending` until an admin of the side that did not propose it
     * accepts; `active` is the only status that lets the host book or write as the guest organisation; `declined`
     * (a pending one refused) and `ended` stay as history. Rows from before migration 0016 are `active`.
     */
    status: partnershipStatusEnum('status').notNull().default('pending'),
    /** Who proposed it (`guest`: an offer; `host`: a request); null for rows from before migration 0016. */
    proposedBy: partnershipSideEnum('proposed_by'),
    /** When the status last changed (proposal, acceptance, decline, end). */
    statusChangedAt: ts('status_changed_at').notNull().defaultNow(),
    /** Row version: bumped by a trigger on every UPDATE (migration 0011); an edit carries the version it saw (invariant 11). */
    version: integer('version').notNull().default(1),
    updatedBy: text('updated_by'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /**
     * The short name (slug) its proposer typed (migration 0026): the proposer's admins see a proposal they made by
     * this slug, never the other organisation's name, until the other side accepts it (no oracle across tenants).
     */
    proposedSlug: text('proposed_slug'),
  },
  (t) => [uniqueIndex('guest_partnerships_pair_uq').on(t.guestTenantId, t.hostTenantId)],
);

/**
 * A partnership proposal to a slug that no organisation had when it was made (migration 0026): kept for its
 * proposer only, shown by the slug exactly like a proposal to an existing organisation that was not answered, and
 * never matched to an organisation (not even one created with that slug later) nor shown to anyone else. Pending
 * until its proposer withdraws it (`declined`); a row version like guest_partnerships (invariant 11).
 */
export const unmatchedPartnershipProposals = pgTable(
  'unmatched_partnership_proposals',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    slug: text('slug').notNull(),
    side: partnershipSideEnum('side').notNull(),
    status: partnershipStatusEnum('status').notNull().default('pending'),
    statusChangedAt: ts('status_changed_at').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
    updatedBy: text('updated_by'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'unmatched_partnership_proposals_pk', columns: [t.tenantId, t.slug, t.side] })],
);

/**
 * "Send a test message" requests of the settings page (issue #13): written by the web app with the job that sends
 * it, finished by the worker with the provider's answer verbatim (migration 0016).
 */
export const orgTestMessages = pgTable(
  'org_test_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    to: text('to').notNull(),
    /** The admin's email. */
    requestedBy: text('requested_by').notNull(),
    /** The tenant's email provider when it was asked for (the worker sends through it). */
    provider: emailProviderEnum('provider').notNull(),
    status: testMessageStatusEnum('status').notNull().default('pending'),
    /** The provider's answer, verbatim (`250 2.0.0 Ok: queued as …`, or the refusal); null while pending. */
    providerAnswer: text('provider_answer'),
    createdAt: createdAt(),
    finishedAt: ts('finished_at'),
  },
  (t) => [index('org_test_messages_tenant_created_idx').on(t.tenantId, t.createdAt)],
);

/**
 * Sender verification links (domain/organisations/sender-identity.ts): one row per link mailed to a tenant's sender address. The
 * token itself is never stored, only its SHA-256 (`token_hash`, hex). A link verifies THIS tenant's THIS address
 * (`address`, normalised) once (`used_at`), before `expires_at` (24 h), and only while it is still the tenant's
 * sender address.
 */
export const senderVerifications = pgTable(
  'sender_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    address: text('address').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The admin who saved the address (or asked for the link again). */
    requestedBy: text('requested_by').notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    usedBy: text('used_by'),
  },
  (t) => [index('sender_verifications_tenant_created_idx').on(t.tenantId, t.createdAt)],
);

export type Tenant = typeof tenants.$inferSelect;
export type GuestPartnership = typeof guestPartnerships.$inferSelect;
export type OrgTestMessage = typeof orgTestMessages.$inferSelect;
export type SenderVerification = typeof senderVerifications.$inferSelect;
