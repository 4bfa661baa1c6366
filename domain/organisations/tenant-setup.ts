/**
 * Setting up an organisation from the command line (issue #13, `npm run tenant -- …`) and the one-time links
 * that let a person choose a password (pure; the CLI in scripts/tenant.ts and the use-cases in
 * server/organisations/tenant-setup.ts and server/accounts/password-links.ts apply these decisions).
 *
 * - {@link validateTenantCreate}: the flags of `tenant create`, checked one by one in the order of the usage
 *   line; the first bad one is named in the refusal (`--time-zone: …`), so the CLI prints exactly one line.
 * - {@link signInLinkExpiry} / `RESET_LINK_TTL_SECONDS`: how long a link works — 24 hours for a link an operator
 *   hands over (it may wait in a chat until the morning), 1 hour for one mailed on request (its owner is at the
 *   keyboard). Both work once (better-auth consumes the verification row).
 * - {@link setPasswordUrl}, {@link linkValidityLine}: the link and the words around it (the reset email itself: emails/account-mail.ts).
 */
import { z } from 'zod';
import { formatStaffTime } from '@/domain/staff-time';
import { isValidZone } from '@/domain/zones';
import { UNSAFE_NAME_CHARS } from './org-settings';
import { bidiControlProblem } from '@/domain/text';

/** A tenant's slug (its name in URLs and on the command line): lower-case letters, digits and dashes, at most 63. */
export const TENANT_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
/** What {@link TENANT_SLUG_PATTERN} allows, in words (validation messages). */
export const TENANT_SLUG_RULE = 'lowercase letters, digits and dashes';

/** How long a link printed by `npm run tenant` works (ms): 24 hours. */
const SIGN_IN_LINK_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a password reset link sent by email works (seconds, better-auth's `resetPasswordTokenExpiresIn`): 1 hour. */
export const RESET_LINK_TTL_SECONDS = 60 * 60;

/** Shortest password (better-auth `minPasswordLength`; the set-password page says it too). */
export const MIN_PASSWORD_LENGTH = 8;
/** Longest password (better-auth's default `maxPasswordLength`). */
const MAX_PASSWORD_LENGTH = 128;

/** The path of the page where a person chooses a password with a link's token. */
const SET_PASSWORD_PATH = '/set-password';

/** The flags of `tenant create` as parsed from the command line (absent flags undefined). */
export interface TenantCreateFlags {
  slug?: string;
  name?: string;
  'time-zone'?: string;
  sender?: string;
  'sender-name'?: string;
  'admin-email'?: string;
  'admin-name'?: string;
}

/** A valid `tenant create`: what the organisation and its first admin are made from. */
export interface TenantSetup {
  slug: string;
  name: string;
  /** IANA zone (events and contacts that name none). */
  timeZone: string;
  /** From address of the organisation's mail. */
  senderEmail: string;
  /** From display name; null = the organisation's name. */
  senderName: string | null;
  /** The first admin's address, lower-cased (accounts are looked up lower-case). */
  adminEmail: string;
  /** The first admin's name (default: the part of the address before the @). */
  adminName: string;
}

/** Refusal of one flag: `flag` as typed (`--time-zone`), `message` the whole line (`--time-zone: …`). */
interface FlagProblem {
  ok: false;
  flag: string;
  message: string;
}

const emailSchema = z.email();

/** Whether `v` is an email address (the same rule as every other address the app accepts: zod's `z.email()`). */
function isEmailAddress(v: string): boolean {
  return emailSchema.safeParse(v).success;
}

/**
 * Whether `v` names an IANA time zone that this runtime knows (`Europe/Dublin`; not `CET+1`, not an offset, not an
 * ICU abbreviation such as `BST`, which PostgreSQL would read as UTC+1 all year): the project's one zone check,
 * domain/zones.ts `isValidZone`.
 */
export function isIanaZone(v: string): boolean {
  return isValidZone(v);
}

function problem(flag: string, what: string): FlagProblem {
  return { ok: false, flag, message: `${flag}: ${what}` };
}

/** A value for the messages: quoted, control characters shown as `?`, at most 60 characters. */
function shown(v: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = v.replace(/[\u0000-\u001f\u007f]/g, '?');
  return `"${clean.length > 60 ? `${clean.slice(0, 59)}…` : clean}"`;
}

/**
 * Checks the flags of `tenant create` in usage order (slug, name, time zone, sender, sender name, admin email,
 * admin name) and returns the setup, or the FIRST problem naming its flag. Required: `--slug`, `--name`,
 * `--time-zone`, `--sender`, `--admin-email`. Names are trimmed and at most 200 characters (120 for a person,
 * like staff accounts); addresses are trimmed, the admin's lower-cased.
 */
export function validateTenantCreate(f: TenantCreateFlags): { ok: true; value: TenantSetup } | FlagProblem {
  const slug = f.slug?.trim();
  if (!slug) return problem('--slug', 'required (e.g. --slug acme)');
  if (!TENANT_SLUG_PATTERN.test(slug)) return problem('--slug', `${shown(slug)} is not a valid slug: use ${TENANT_SLUG_RULE}, starting with a letter or digit, at most 63 characters`);
  const name = f.name?.trim();
  if (!name) return problem('--name', 'required (e.g. --name "Acme Events")');
  if (name.length > 200) return problem('--name', 'at most 200 characters');
  if (UNSAFE_NAME_CHARS.test(name)) return problem('--name', 'must be one line without control or text-direction override characters');
  const zone = f['time-zone']?.trim();
  if (!zone) return problem('--time-zone', 'required (an IANA time zone such as Europe/Dublin)');
  if (!isIanaZone(zone)) return problem('--time-zone', `${shown(zone)} is not an IANA time zone (use a name such as Europe/Dublin or America/New_York)`);
  const sender = f.sender?.trim();
  if (!sender) return problem('--sender', 'required (the From address of reminders, e.g. reminders@acme.example)');
  if (!isEmailAddress(sender)) return problem('--sender', `${shown(sender)} is not an email address`);
  let senderName: string | null = null;
  if (f['sender-name'] !== undefined) {
    senderName = f['sender-name'].trim();
    if (!senderName) return problem('--sender-name', 'must not be empty (leave it out to use the organisation name)');
    if (senderName.length > 200) return problem('--sender-name', 'at most 200 characters');
    if (UNSAFE_NAME_CHARS.test(senderName)) return problem('--sender-name', 'must be one line without control or text-direction override characters');
  }
  const adminEmail = f['admin-email']?.trim().toLowerCase();
  if (!adminEmail) return problem('--admin-email', 'required (the first admin’s address, e.g. ops@acme.example)');
  if (!isEmailAddress(adminEmail) || adminEmail.length > 254) return problem('--admin-email', `${shown(adminEmail)} is not an email address`);
  let adminName = adminEmail.split('@')[0];
  if (f['admin-name'] !== undefined) {
    adminName = f['admin-name'].trim();
    if (!adminName) return problem('--admin-name', 'must not be empty (leave it out to use the part of the address before the @)');
    if (adminName.length > 120) return problem('--admin-name', 'at most 120 characters');
    const bidi = bidiControlProblem(adminName);
    if (bidi) return problem('--admin-name', bidi);
  }
  return { ok: true, value: { slug, name, timeZone: zone, senderEmail: sender, senderName, adminEmail, adminName } };
}

/** When a link printed by `npm run tenant` stops working: 24 hours after `now` (the database's clock). */
export function signInLinkExpiry(now: Date): Date {
  return new Date(now.getTime() + SIGN_IN_LINK_TTL_MS);
}

/**
 * The absolute URL of the set-password page for `token`: `<base>/set-password?token=<token>` (`base` the public
 * URL, a trailing slash ignored; the token percent-encoded).
 */
export function setPasswordUrl(base: string, token: string): string {
  return `${base.replace(/\/+$/, '')}${SET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
}

/** "24 hours", "1 hour", "90 minutes" for a link's lifetime in ms. */
export function lifetimeText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes % 60 === 0) {
    const h = minutes / 60;
    return `${h} hour${h === 1 ? '' : 's'}`;
  }
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * The line printed under a link: "valid until Wed 2 Dec 2026, 09:00 GMT (24 hours); it works once" — the expiry
 * as wall-clock time in the organisation's zone (`zone`, IANA), never a raw instant.
 */
export function linkValidityLine(expiresAt: Date, issuedAt: Date, zone: string): string {
  return `valid until ${formatStaffTime(expiresAt, zone)} (${lifetimeText(expiresAt.getTime() - issuedAt.getTime())}); it works once`;
}

/**
 * The page's answer to a link that cannot be used (better-auth's INVALID_TOKEN: used, expired, or never issued —
 * they are deliberately not told apart).
 */
export const LINK_UNUSABLE_MESSAGE = 'This link has been used or has expired — ask an admin for a new one (npm run tenant -- link --email <your address>), or use “Forgot your password?” on the sign-in page.';

/**
 * Checks the two password fields of the set-password page before anything is sent.
 * @returns null when they may be sent, else the sentence to show.
 */
export function checkNewPassword(password: string, repeated: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `A password may have at most ${MAX_PASSWORD_LENGTH} characters.`;
  if (password !== repeated) return 'The two passwords are not the same — type the same password twice.';
  return null;
}
