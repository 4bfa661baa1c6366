/**
 * A contact's personal calendar feed: serving it (`GET /feeds/<token>.ics`, app/feeds/[file]/route.ts), showing
 * its address to staff, rotating it and switching its alarms (the contact page). The feed lists the contact's live
 * bookings at live events that ended at most {@link FEED_PAST_DAYS} days ago, every role — so a host's feed is
 * everything they host — with the UID and SEQUENCE of their invitations (domain/calendar/invite-sequence.ts: the booking's own counter) and,
 * when the contact's alarms are on, one VALARM per distinct planned reminder offset (domain/calendar/calendar-feed.ts).
 */
import { createHash } from 'node:crypto';
import type { Db } from '@/db/client';
import { feedBookings, feedOwner, plannedReminderDues, saveFeedState, type FeedState } from '@/db/queries/calendar/feeds';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { alarmOffsets, buildCalendarFeed } from '@/domain/calendar/calendar-feed';
import type { SenderIdentityConfig } from '@/domain/organisations/sender-identity';
import { AppError, parseInput } from '@/server/platform/errors';

import { recheckActor } from '@/server/platform/versions';
import { senderFor } from '@/server/organisations/sender-identity';
import { feedUrl, signFeedToken, verifyFeedToken, webcalUrl } from './feed-link';
import { inviteSequenceOf, inviteUidOf } from '@/domain/calendar/invite-sequence';
import { z } from 'zod';

/** How long after its end an event stays in the feed (days). */
export const FEED_PAST_DAYS = 30;
const DAY_MS = 86_400_000;

/** A served feed: the `.ics` text and its strong ETag (quoted SHA-256 of the text, base64url). */
export interface ServedFeed {
  body: string;
  etag: string;
}

/**
 * The feed a token names, or null — for a token that does not verify, names a contact that no longer exists, or
 * carries an older generation than the stored one (rotated). The caller answers 404 for null whatever the cause.
 * @param secrets server/calendar/feed-link.ts `feedSecrets()`.
 * @param now UTC instant: DTSTAMP of every entry and the "recent" cut-off.
 */
export async function serveFeed(db: Db, token: string, opts: { secrets: readonly string[]; now: Date; senderIdentity?: SenderIdentityConfig }): Promise<ServedFeed | null> {
  const subject = await verifyFeedToken(token, opts.secrets);
  if (!subject) return null;
  const owner = await feedOwner(db, subject.tenantId, subject.contactId);
  if (!owner || owner.feed.generation !== subject.generation) return null;
  const rows = await feedBookings(db, subject.tenantId, subject.contactId, new Date(opts.now.getTime() - FEED_PAST_DAYS * DAY_MS));
  const dues = owner.feed.alarms ? await plannedReminderDues(db, subject.tenantId, rows.map((r) => r.booking.id)) : [];
  const sender = senderFor(owner.tenant, opts.senderIdentity);
  const body = buildCalendarFeed({
    name: owner.tenant.name,
    entries: rows.map(({ booking, event }) => ({
      entry: {
        uid: inviteUidOf(booking.id),
        sequence: inviteSequenceOf(booking),
        title: event.title,
        description: event.description,
        location: event.location,
        url: event.roomUrl,
        startsAt: event.startsAt,
        endsAt: event.endsAt,
        allDay: event.allDay,
        timeZone: event.timeZone,
        organizer: { name: sender.from.name, email: sender.from.address },
        stamp: opts.now,
        cancelled: false,
      },
      alarmSecondsBefore: alarmOffsets(
        event.startsAt,
        dues.filter((d) => d.bookingId === booking.id).map((d) => d.dueAt),
      ),
    })),
  });
  // DTSTAMP changes on every request (RFC 5545 §3.8.7.2: when the object was created): the ETag leaves it out, so
  // an unchanged feed keeps its ETag and a client's conditional GET gets a 304.
  const digest = createHash('sha256').update(body.replace(/^DTSTAMP:.*\r\n/gm, '')).digest('base64url');
  return { body, etag: `"${digest}"` };
}

/** What the contact page shows of a feed: its addresses (null without a session secret), alarms, version, last rotation. */
export interface FeedView extends FeedState {
  url: string | null;
  webcal: string | null;
}

/**
 * The contact's feed as staff see it. @param baseUrl domain/platform/public-url.ts `publicBaseUrl`.
 * @throws AppError('not_found', field contactId) when the contact is not this tenant's.
 */
export async function feedViewOf(db: Db, tenantId: string, contactId: string, opts: { baseUrl: string; secret: string | null }): Promise<FeedView> {
  const owner = await feedOwner(db, tenantId, contactId);
  if (!owner) throw new AppError('not_found', `contact ${contactId.slice(0, 80)} not found`, 'contactId');
  return viewOf(tenantId, contactId, owner.feed, opts);
}

async function viewOf(tenantId: string, contactId: string, feed: FeedState, opts: { baseUrl: string; secret: string | null }): Promise<FeedView> {
  if (!opts.secret) return { ...feed, url: null, webcal: null };
  const url = feedUrl(opts.baseUrl, await signFeedToken({ tenantId, contactId, generation: feed.generation }, opts.secret));
  return { ...feed, url, webcal: webcalUrl(url) };
}

const changeSchema = z.object({
  version: z.number({ error: 'required: the feed version you saw (0 when never saved)' }).int().min(0),
  alarms: z.boolean({ error: 'must be true or false' }).optional(),
});

/**
 * Rotates a contact's feed (`rotate`: every earlier URL stops working — 404) or switches its alarms, when the
 * body's `version` is still the stored one; audited `calendar_feed_rotate` / `calendar_feed_update` in the same
 * transaction. Body: `{ version, alarms? }`.
 * @throws AppError validation naming the field; not_found (contactId); conflict (field version, with `current`).
 */
export async function changeFeed(
  db: Db,
  ctx: { tenantId: string; actor: string; actorId?: string; now: Date },
  contactId: string,
  body: unknown,
  opts: { rotate: boolean; baseUrl: string; secret: string | null },
): Promise<FeedView> {
  const input = parseInput(changeSchema, body ?? {});
  return db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    const owner = await feedOwner(tx, ctx.tenantId, contactId);
    if (!owner) throw new AppError('not_found', `contact ${contactId.slice(0, 80)} not found`, 'contactId');
    const alarms = input.alarms ?? owner.feed.alarms;
    const saved = await saveFeedState(tx, ctx.tenantId, contactId, { expectedVersion: input.version, rotate: opts.rotate, alarms, actor: ctx.actor, now: ctx.now });
    if (!saved) {
      throw new AppError('conflict', 'This calendar feed was changed by someone else since you opened it: reload the page.', 'version', {
        current: await viewOf(ctx.tenantId, contactId, owner.feed, opts),
        version: owner.feed.version,
      });
    }
    await appendAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: opts.rotate ? 'calendar_feed_rotate' : 'calendar_feed_update',
      details: { contactId, generation: saved.generation, alarms: saved.alarms, ...(opts.rotate ? { previousGeneration: owner.feed.generation } : { previousAlarms: owner.feed.alarms }) },
      at: ctx.now,
    });
    return viewOf(ctx.tenantId, contactId, saved, opts);
  });
}
