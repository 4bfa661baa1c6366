/**
 * One-click unsubscribe (issue #10 §5; RFC 8058 with RFC 2369): what `POST /u/<token>` does, and what the
 * confirmation page of `GET /u/<token>` shows. No session: the signed token (server/sending/unsubscribe-link.ts) is the
 * credential; it names the tenant, the contact and the preference category.
 *
 * Unsubscribing empties that category of the contact's preferences (every channel) and records the instant
 * (domain/notifications/preferences.ts `unsubscribeFrom`), in one transaction under the contact's row lock, with an audit entry
 * `unsubscribe` (actor `recipient <email>`); the row-version trigger bumps the contact's version, so a staff
 * member or the person editing the preferences meanwhile gets a 409. Nothing planned is ended here: the send
 * path re-reads the preferences when each message falls due (server/sending/send-reminder.ts), so the next reminder ends
 * `suppressed` with "unsubscribed from reminders (one-click link, <instant>)", while essential messages
 * (event cancellations) still go out. A second click changes nothing (`already_unsubscribed`).
 */
import type { Db } from '@/db/client';
import { setActor } from '@/db/queries/platform/actor';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { lockContact, readContactWithTenant, updateContactPreferences } from '@/db/queries/notifications/contact-preferences';
import { readPreferences, readUnsubscribed, unsubscribeFrom } from '@/domain/notifications/preferences';
import type { PreferenceCategory } from '@/domain/vocabulary';
import { AppError } from '@/server/platform/errors';
import { verifyUnsubscribeToken, type UnsubscribeSubject } from '@/server/sending/unsubscribe-link';

/** What the page and the answer to a POST name. */
export interface UnsubscribeView {
  tenantId: string;
  contactId: string;
  category: PreferenceCategory;
  /** The contact's name ('' when none on file) and email, and their organisation's name. */
  contactName: string;
  email: string;
  tenantName: string;
  /** The contact's language tag and the organisation's default: the pages' language (emails/messages/page-language.ts). */
  contactLocale: string | null;
  tenantLocale: string;
  /** True when the category has no channel left (unsubscribed before, by a link or on the preferences page). */
  alreadyUnsubscribed: boolean;
  /** When a one-click link emptied the category (ISO-8601 UTC), or null. */
  unsubscribedAt: string | null;
}

interface UnsubscribeResult extends UnsubscribeView {
  /** `unsubscribed`: this call removed the channels; `already_unsubscribed`: nothing was left to remove (nothing written). */
  status: 'unsubscribed' | 'already_unsubscribed';
}

/** The audit actor of a one-click unsubscribe. */
const recipientActor = (email: string) => `recipient ${email}`;

/**
 * The subject of `token`, checked against `secrets` (server/sending/unsubscribe-link.ts `unsubscribeSecrets`).
 * @throws AppError validation (→ 400) naming `token`: "not valid" for anything that does not verify, "expired on
 *   <date>" for one of our links past its expiry (the message points to the preferences link, which does not expire).
 */
async function subjectOf(token: string, secrets: string | readonly string[], now: Date): Promise<UnsubscribeSubject> {
  const v = await verifyUnsubscribeToken(token, secrets, now);
  if (v && 'error' in v) {
    throw new AppError(
      'validation',
      `token: this unsubscribe link expired on ${v.expiredAt.toISOString().slice(0, 10)} — to change what you receive, use the "Choose how … reaches you" preferences link in a recent message`,
      'token',
      { expired: true, expiredAt: v.expiredAt.toISOString() },
    );
  }
  if (!v) throw new AppError('validation', 'token: this unsubscribe link is not valid — it may have been cut off or changed; use the link in your most recent message', 'token');
  return v;
}

function viewOf(subject: UnsubscribeSubject, contact: { name: string; email: string; locale: string | null; preferences: unknown }, tenant: { name: string; locale: string }): UnsubscribeView {
  return {
    tenantId: subject.tenantId,
    contactId: subject.contactId,
    category: subject.category,
    contactName: contact.name,
    email: contact.email,
    tenantName: tenant.name,
    contactLocale: contact.locale,
    tenantLocale: tenant.locale,
    alreadyUnsubscribed: readPreferences(contact.preferences)[subject.category].length === 0,
    unsubscribedAt: readUnsubscribed(contact.preferences)[subject.category] ?? null,
  };
}

/**
 * What the confirmation page shows for `token` (GET /u/<token>). Reads only: link scanners fetch it.
 * @throws AppError validation naming `token` (see {@link unsubscribeByToken}); not_found when the contact is gone.
 */
export async function readUnsubscribeView(db: Db, token: string, secrets: string | readonly string[], now: Date): Promise<UnsubscribeView> {
  const subject = await subjectOf(token, secrets, now);
  const row = await readContactWithTenant(db, subject.tenantId, subject.contactId);
  if (!row) throw new AppError('not_found', 'There is nobody to unsubscribe: this person is no longer on file.', 'token');
  return viewOf(subject, row.contact, row.tenant);
}

/**
 * Unsubscribes the token's contact from the token's category at `now` (module doc). Idempotent.
 * @param secrets the keys to verify with, current first (server/sending/unsubscribe-link.ts `unsubscribeSecrets`).
 * @throws AppError validation naming `token` (→ 400) for a tampered, foreign or expired token — nothing is
 *   written; not_found (→ 404) when the contact no longer exists.
 */
export async function unsubscribeByToken(db: Db, token: string, secrets: string | readonly string[], now: Date): Promise<UnsubscribeResult> {
  const subject = await subjectOf(token, secrets, now);
  return db.transaction(async (tx) => {
    const contact = await lockContact(tx, subject.tenantId, subject.contactId);
    if (!contact) throw new AppError('not_found', 'There is nobody to unsubscribe: this person is no longer on file.', 'token');
    const tenant = (await readContactWithTenant(tx, subject.tenantId, subject.contactId))!.tenant;
    const change = unsubscribeFrom(contact.preferences, subject.category, now);
    if (!change.changed) return { ...viewOf(subject, contact, tenant), status: 'already_unsubscribed' as const };
    const actor = recipientActor(contact.email);
    await setActor(tx, actor);
    const row = await updateContactPreferences(tx, subject.tenantId, subject.contactId, { preferences: change.stored }, now);
    await appendAudit(tx, {
      tenantId: subject.tenantId,
      actor,
      action: 'unsubscribe',
      at: now,
      details: {
        contactId: subject.contactId,
        email: contact.email,
        category: subject.category,
        via: 'one-click link (RFC 8058)',
        changes: { [`preferences.${subject.category}`]: { from: change.removed, to: [] } },
      },
    });
    return { ...viewOf(subject, row, tenant), status: 'unsubscribed' as const };
  });
}
