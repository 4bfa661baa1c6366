/**
 * A contact's channel preferences and quiet hours (issue #9 §3, §7), edited by staff on the event page and by the
 * person through the signed link in every message (server/sending/preference-link.ts). Both carry the contact's row
 * version (invariant 11): a stale save is a 409 that writes nothing.
 *
 * After a save the contact's reminders follow, in the SAME transaction as the save (invariant 1):
 * - still-sendable rule reminders on a channel the person no longer takes reminders by end `cancelled`, e.g.
 *   "the participant no longer takes reminders by SMS";
 * - every event the person has a live booking on (booking confirmed, event scheduled) is re-planned
 *   (server/scheduling/events.ts `replanEvent`), so a newly accepted channel gets its reminders. Re-planning is
 *   idempotent (the business key): reminders already planned are left as they are — including their due
 *   instants, so new quiet hours apply to reminders planned afterwards.
 *
 * Lock order: the person's live events (id order), then the contact row — the order adding a booking takes
 * them in (event, then contact), so the two cannot deadlock.
 */
import { z } from 'zod';
import type { Db, Tx } from '@/db/client';
import { setActor } from '@/db/queries/platform/actor';
import { appendAudit } from '@/db/queries/dashboards/audit';
import {
  liveEventIdsOfContact,
  lockContact,
  lockEventsInOrder,
  readContactWithTenant,
  updateContactPreferences,
} from '@/db/queries/notifications/contact-preferences';
import type { Contact, Tenant } from '@/db/schema';
import { sameValue } from '@/domain/platform/edit-conflict';
import { dateInZone, describeContactPreferences, maskPhone, quietHoursFromForm, quietHoursZone } from '@/domain/notifications/preference-form';
import {
  categoriesReenabled,
  categoryPhrase,
  preferencesSchema,
  readPreferences,
  readUnsubscribed,
  storedPreferences,
  type ChannelPreferences,
  type PreferencesInput,
  withStoredAnnouncements,
  type UnsubscribeMarkers,
} from '@/domain/notifications/preferences';
import { parseQuietHours, quietHoursSchema, type QuietHours } from '@/domain/notifications/quiet-hours';
import { preferenceCategories, type PreferenceCategory } from '@/domain/vocabulary';
import { AppError, assertId, parseInput } from '@/server/platform/errors';
import { verifyPreferenceToken } from '@/server/sending/preference-link';
import { phoneField } from '@/server/scheduling/inputs';
import { replanEvent } from '@/server/scheduling/events';
import { planPendingNotificationsOnNewChannels } from './notify';
import { assertActorMay, assertVersion, parseVersion } from '@/server/platform/versions';

/** The audit actor (and `updated_by`) of a save through the person's own link. */
export const participantActor = 'the participant (preferences link)';

/** A contact's preferences as the forms show them (plain JSON). */
export interface ContactPreferencesView {
  contactId: string;
  name: string;
  email: string;
  /** Full E.164 number for staff; null on the person's own page (see `phoneMasked`) or when none is on file. */
  phone: string | null;
  /** The number with its middle hidden ("+31••••••678"), or null when none is on file. */
  phoneMasked: string | null;
  hasPhone: boolean;
  preferences: ChannelPreferences;
  /**
   * Per category, when the person emptied it with a one-click unsubscribe link (ISO-8601 UTC; issue #10 §5) —
   * only for categories still empty. Staff may tick such a category again only with `confirmRecipientConsent`.
   */
  unsubscribed: UnsubscribeMarkers;
  quietHours: QuietHours | null;
  /** The IANA zone quiet hours are read in, and whose it is. */
  zone: string;
  zoneSource: 'contact' | 'tenant';
  tenantName: string;
  /**
   * The person's own pages (preferences, unsubscribe) are written in their language by the messages' fallback:
   * the contact's language tag and the organisation's default (emails/messages/page-language.ts pageLanguageFor).
   */
  contactLocale: string | null;
  tenantLocale: string;
  /**
   * The preferences read back (domain/notifications/preference-form.ts `describeContactPreferences`); the staff view adds
   * "Unsubscribed from booking updates by the recipient on Tue 3 Aug 2027 (one-click link)." after an emptied
   * category (the person's own page reads as before).
   */
  sentences: string[];
  version: number;
  /** ISO-8601 UTC of the last change. */
  updatedAt: string;
}

function view(contact: Contact, tenant: Pick<Tenant, 'name' | 'timeZone' | 'locale'>, opts: { fullPhone: boolean }): ContactPreferencesView {
  const preferences = readPreferences(contact.preferences);
  const quietHours = parseQuietHours(contact.quietHours);
  const z = quietHoursZone(contact.timeZone, tenant.timeZone);
  const unsubscribed = readUnsubscribed(contact.preferences);
  return {
    contactId: contact.id,
    name: contact.name,
    email: contact.email,
    phone: opts.fullPhone ? contact.phone : null,
    phoneMasked: contact.phone ? maskPhone(contact.phone) : null,
    hasPhone: !!contact.phone,
    preferences,
    unsubscribed,
    quietHours,
    zone: z.zone,
    zoneSource: z.source,
    tenantName: tenant.name,
    contactLocale: contact.locale,
    tenantLocale: tenant.locale,
    sentences: describeContactPreferences({ prefs: preferences, quietHours, zone: z.zone, hasPhone: !!contact.phone, unsubscribed: opts.fullPhone ? unsubscribed : undefined }),
    version: contact.version,
    updatedAt: contact.updatedAt.toISOString(),
  };
}

/** The contact's preferences for staff of `tenantId`, or null when the id is malformed or not this tenant's contact. */
export async function readContactPreferences(db: Db, tenantId: string, contactId: string): Promise<ContactPreferencesView | null> {
  assertId(contactId, 'contactId', 'contact');
  const row = await readContactWithTenant(db, tenantId, contactId);
  return row ? view(row.contact, row.tenant, { fullPhone: true }) : null;
}

const staffInputSchema = z.object({
  preferences: preferencesSchema,
  quietHours: quietHoursSchema.nullable(),
  /** Omitted: the number stays; '' or null: removed. */
  phone: phoneField.nullish(),
  /**
   * true: the person asked staff to send a category again that they left with a one-click unsubscribe link
   * (the dialog's "They asked us to send these again"). Without it such a save is refused (module rules).
   */
  confirmRecipientConsent: z.boolean({ error: 'must be true or false' }).optional(),
});
const participantInputSchema = z.strictObject(
  {
    preferences: preferencesSchema,
    quietHours: quietHoursSchema.nullable(),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `${iss.keys.join(', ')}: cannot be changed here` : 'must be an object with preferences and quietHours') },
);

/** Who is saving: staff through the app (role re-checked under a lock) or the person through their link. */
type PreferencesEditor = { kind: 'staff'; actor: string; actorId?: string } | { kind: 'participant' };

/** What a save did. */
interface SavePreferencesResult {
  preferences: ContactPreferencesView;
  /** False when the save changed nothing (nothing written, version unchanged). */
  changed: boolean;
  /** Always 0: a save ends nothing; a message on a channel no longer accepted is stopped when it falls due. */
  remindersCancelled: number;
  /** Reminders newly planned by re-planning the person's live events. */
  remindersPlanned: number;
}

/**
 * Saves a contact's preferences (module rules), in one transaction with the follow-up of their reminders and an
 * audit entry `preferences_update` (`{ contactId, email, changes: { field: { from, to } }, remindersCancelled,
 * remindersPlanned }`; actor = the staff member's email, or {@link participantActor}).
 * Input: `{ preferences: { reminders, booking_updates }, quietHours: { start, end } | null, version }`, plus for
 * staff only `phone` (any human spelling → E.164 via parsePhone; '' or null removes it; omitted keeps it). The
 * person's own page may not send `phone` (400 naming it). A one-click unsubscribe record (issue #10 §5,
 * server/suppressions/unsubscribe.ts) is kept while its category stays empty and dropped when a channel is ticked there again.
 * Only the person may tick such a category again on their own (their preferences link): a staff save that does
 * is refused — 409 naming `preferences.<category>`, saying who unsubscribed and when, with `current` and
 * `unsubscribed` — unless it carries `confirmRecipientConsent: true` (the person asked staff to); then the audit
 * entry's `reason` says so and its details carry `recipientConsent: { confirmedBy, overrides: { category: instant } }`.
 * @throws AppError validation naming the field (`preferences.reminders`, `quietHours.end`, `phone`, `version`,
 *   `confirmRecipientConsent`) → 400; not_found (not this tenant's contact) → 404; conflict (stale version, or a
 *   staff re-subscribe without the person's consent) → 409 with `current`.
 */
export async function saveContactPreferences(
  db: Db,
  ctx: { tenantId: string; now: Date },
  contactId: string,
  input: unknown,
  editor: PreferencesEditor,
): Promise<SavePreferencesResult> {
  assertId(contactId, 'contactId', 'contact');
  const seen = parseVersion(input);
  const { version: _v, ...fields } = (input ?? {}) as Record<string, unknown>;
  const parsed: { preferences: PreferencesInput; quietHours: QuietHours | null; phone?: string | null; confirmRecipientConsent?: boolean } =
    editor.kind === 'staff' ? parseInput(staffInputSchema, fields) : parseInput(participantInputSchema, fields);
  let f: Omit<typeof parsed, 'preferences'> & { preferences: ChannelPreferences };
  const actor = editor.kind === 'staff' ? editor.actor : participantActor;
  return db.transaction(async (tx) => {
    if (editor.kind === 'staff' && editor.actorId) await assertActorMay(tx, { tenantId: ctx.tenantId, actorId: editor.actorId }, 'operate');
    await setActor(tx, actor);
    const eventIds = await liveEventIdsOfContact(tx, ctx.tenantId, contactId);
    await lockEventsInOrder(tx, ctx.tenantId, eventIds);
    const before = await lockContact(tx, ctx.tenantId, contactId);
    if (!before) throw new AppError('not_found', `contact ${contactId} not found`, 'contactId');
    const tenant = (await readContactWithTenant(tx, ctx.tenantId, contactId))!.tenant;
    const fullPhone = editor.kind === 'staff';
    if (before.version !== seen) {
      await assertVersion(tx, ctx, before, seen, { what: before.name ? `This contact (${before.name})` : 'This contact', current: view(before, tenant, { fullPhone }) });
    }

    // A client that leaves announcements out keeps the stored choice (domain/notifications/preferences.ts).
    f = { ...parsed, preferences: withStoredAnnouncements(parsed.preferences, before.preferences) };
    // A category the person left by a one-click link is theirs to re-enable (issue #10 §5): staff need their consent.
    const markers = readUnsubscribed(before.preferences);
    const reenabled = categoriesReenabled(before.preferences, f.preferences);
    if (editor.kind === 'staff' && reenabled.length > 0 && f.confirmRecipientConsent !== true) {
      throw new AppError('conflict', staffResubscribeMessage(before, reenabled, markers, quietHoursZone(before.timeZone, tenant.timeZone).zone), `preferences.${reenabled[0]}`, {
        current: view(before, tenant, { fullPhone }),
        unsubscribed: markers,
      });
    }
    const consent =
      editor.kind === 'staff' && reenabled.length > 0
        ? { confirmedBy: actor, overrides: Object.fromEntries(reenabled.map((c) => [c, markers[c]!])) as UnsubscribeMarkers }
        : null;

    const oldPrefs = readPreferences(before.preferences);
    const oldQuiet = parseQuietHours(before.quietHours);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const c of preferenceCategories) if (!sameValue(oldPrefs[c], f.preferences[c])) changes[`preferences.${c}`] = { from: oldPrefs[c], to: f.preferences[c] };
    if ((oldQuiet?.start ?? null) !== (f.quietHours?.start ?? null) || (oldQuiet?.end ?? null) !== (f.quietHours?.end ?? null)) {
      changes.quietHours = { from: oldQuiet, to: f.quietHours };
    }
    const phone = f.phone === undefined ? before.phone : f.phone;
    if (phone !== before.phone) changes.phone = { from: before.phone, to: phone };
    if (Object.keys(changes).length === 0) {
      return { preferences: view(before, tenant, { fullPhone }), changed: false, remindersCancelled: 0, remindersPlanned: 0 };
    }

    // A one-click unsubscribe marker (issue #10 §5) stays while its category stays empty; ticking a channel there again drops it.
    const stored = storedPreferences(f.preferences, readUnsubscribed(before.preferences));
    const row = await updateContactPreferences(tx, ctx.tenantId, contactId, { preferences: stored, quietHours: f.quietHours, phone }, ctx.now);
    const remindersCancelled = await followPreferences(tx, ctx, row, f.preferences);
    let remindersPlanned = 0;
    for (const eventId of eventIds) remindersPlanned += await replanEvent(tx, ctx.tenantId, eventId, ctx.now);
    await appendAudit(tx, {
      tenantId: ctx.tenantId,
      actor,
      action: 'preferences_update',
      at: ctx.now,
      reason: consent ? consentReason(consent) : null,
      details: { contactId, email: row.email, changes, remindersCancelled, remindersPlanned, ...(consent ? { recipientConsent: consent } : {}) },
    });
    return { preferences: view(row, tenant, { fullPhone }), changed: true, remindersCancelled, remindersPlanned };
  });
}

const joinWords = (words: string[]) => (words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);

/**
 * The refusal of a staff save that ticks a category again the person left by a one-click link: "preferences.
 * booking_updates: Bea Attendee unsubscribed from booking updates on Tue 3 Aug 2027 with the one-click link in a
 * message. Only they can subscribe again (…) — unless they asked you to: then confirm it (…)." Dates in `zone`.
 */
function staffResubscribeMessage(contact: Contact, categories: PreferenceCategory[], markers: UnsubscribeMarkers, zone: string): string {
  const who = contact.name || contact.email;
  const what = categories.map((c) => `${categoryPhrase(c)} on ${dateInZone(markers[c]!, zone)}`);
  return (
    `preferences.${categories[0]}: ${who} unsubscribed from ${joinWords(what)} with the one-click link in a message. ` +
    'Only they can subscribe again (with the preferences link in their messages) — unless they asked you to: then tick “They asked us to send these again” and save.'
  );
}

/** The audit reason of a staff re-subscribe the person asked for. */
function consentReason(consent: { confirmedBy: string; overrides: UnsubscribeMarkers }): string {
  const entries = preferenceCategories.filter((c) => consent.overrides[c]);
  const cats = joinWords(entries.map((c) => categoryPhrase(c)));
  const when = joinWords(entries.map((c) => consent.overrides[c]!));
  return `Re-subscribed to ${cats} at the recipient’s request, confirmed by ${consent.confirmedBy} (they had unsubscribed with the one-click link on ${when}).`;
}

/**
 * What a preferences save changes in the planned messages. Nothing is ended here: a message on a channel the
 * person no longer takes is stopped when it falls due (the send path re-reads their preferences, like a
 * suppression), so ticking the channel again before then brings it back. Newly accepted channels get their
 * messages: rule reminders by the re-plan the caller runs, and booking-change notifications still waiting (e.g.
 * held for quiet hours) by {@link planPendingNotificationsOnNewChannels}.
 * @returns 0 (kept for the result shape: no reminder is cancelled by a save any more).
 */
async function followPreferences(tx: Tx, ctx: { tenantId: string; now: Date }, contact: Contact, prefs: ChannelPreferences): Promise<number> {
  await planPendingNotificationsOnNewChannels(tx, ctx.tenantId, { ...contact, preferences: prefs }, ctx.now);
  return 0;
}

// ---------- the person's own page (no sign-in: the signed link is the credential) ----------

/** The message a stale save through the person's own page answers with (their page then shows the current values). */
export const participantStaleMessage = 'These preferences were changed since you opened this page — here is what they are now.';

/**
 * The subject of a preference link and their preferences (phone masked), or null for a token that does not
 * verify with `secret` or names a contact that no longer exists. Never throws for a bad token.
 */
export async function readPreferencesByToken(db: Db, token: string, secret: string): Promise<ContactPreferencesView | null> {
  const subject = await verifyPreferenceToken(token, secret);
  if (!subject) return null;
  const row = await readContactWithTenant(db, subject.tenantId, subject.contactId);
  return row ? view(row.contact, row.tenant, { fullPhone: false }) : null;
}

/**
 * Saves preferences through the person's own link: the token is verified first (a bad one is not_found, the
 * same answer as an unknown page); the save is {@link saveContactPreferences} as the participant, without
 * `phone`. A stale save is a 409 with {@link participantStaleMessage} and `current` (phone masked) — never the
 * name of the staff member who changed it.
 * @throws AppError not_found, validation (naming the field), conflict.
 */
export async function savePreferencesByToken(db: Db, token: string, secret: string, input: unknown, now: Date): Promise<SavePreferencesResult> {
  const subject = await verifyPreferenceToken(token, secret);
  if (!subject) throw new AppError('not_found', 'This preferences link is not valid. Use the link in your most recent message.', 'token');
  try {
    return await saveContactPreferences(db, { tenantId: subject.tenantId, now }, subject.contactId, input, { kind: 'participant' });
  } catch (e) {
    if (e instanceof AppError && e.code === 'conflict' && e.field === 'version') {
      const current = e.details?.current as ContactPreferencesView | undefined;
      throw new AppError('conflict', participantStaleMessage, 'version', { current, version: current?.version });
    }
    if (e instanceof AppError && e.code === 'not_found') throw new AppError('not_found', 'This preferences link is not valid any more.', 'token');
    throw e;
  }
}

/**
 * The person's plain HTML form (application/x-www-form-urlencoded or multipart) as save input: checkboxes
 * `reminders`, `booking_updates` and `announcements` (each `email` / `sms`, repeated), times `quietStart` and `quietEnd`
 * ('HH:MM', both empty = none) and the hidden `version`.
 * @throws AppError validation naming `quietHours.start` / `quietHours.end` when only one time is given.
 */
export function preferencesInputFromForm(form: FormData): { preferences: Record<string, string[]>; quietHours: QuietHours | null; version: number | string | null } {
  const q = quietHoursFromForm(form.get('quietStart')?.toString(), form.get('quietEnd')?.toString());
  if (!q.ok) throw new AppError('validation', `${q.field}: ${q.message}`, q.field);
  const v = form.get('version')?.toString() ?? null;
  return {
    preferences: Object.fromEntries(preferenceCategories.map((c) => [c, form.getAll(c).map(String)])),
    quietHours: q.quietHours,
    version: v !== null && /^\d+$/.test(v) ? Number(v) : v,
  };
}
