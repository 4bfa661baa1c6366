/**
 * Demo data for `npm start`: a tenant "demo" (Europe/Amsterdam) with reminder rules, a partner tenant for
 * external guests, and events placed relative to `now` so reminders fire during the first minutes:
 *
 *   "Clay & Coffee (online)"  starts now+9 min, room opens 3 min before → host heads-up due 6 min ago (sent
 *                             at once: still inside its window), starting-soon due now+4 min, room-opening
 *                             due now+6 min; the "day before" reminder is stored `expired` (planned too late).
 *   "Evening Yoga"            America/New_York, starts now+16 min → host heads-up now+1 min, starting-soon
 *                             now+11 min.
 *   "Team Offsite"            all-day, three days ahead → scheduled reminders only.
 *
 * Notifications (issue #9 §9): the demo tenant gets a `notification_settings` row when it has none — the default
 * policy (domain/notification-policy.ts), SMS sender {@link DEMO_SMS_SENDER} (Twilio's magic test number) and, when
 * `opts.webhookCatcherUrl` is given (`npm start` passes its built-in receiver), the webhook endpoint
 * `<catcher>/hooks/demo` with a fresh `whsec_` secret, switched on. Three demo contacts ({@link demoContacts}) take
 * some messages by SMS: Ada takes booking updates by SMS only, Lin has quiet hours 22:00–07:00 (New York).
 *
 * Alerts (issue #10 §6): the demo tenant's alert settings email its admin and post to the built-in receiver's
 * Slack-compatible path (server/webhook-catcher.ts), see {@link seedAlertSettings}.
 *
 * Idempotent: an existing demo tenant with an event starting in the next two hours is left alone; otherwise
 * it gets a fresh batch of events (so a restart a day later still demonstrates something). An existing settings
 * row is kept (secret included); only an endpoint that points at an EARLIER built-in receiver
 * (`http://127.0.0.1:<port>/hooks/demo`), or that was never set (no URL, no secret), is moved to the current
 * receiver. A demo contact is given its phone, preferences and quiet hours only while it has no phone, so edits
 * made since are kept.
 */
import { randomBytes } from 'node:crypto';
import { DEMO_PASSWORD, demoAccounts, ensureStaffUser } from './staff';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import { newWebhookSecret } from '../channels/webhook';
import type { Db } from '../db/client';
import { setActor } from '../db/queries/actor';
import { findOrCreateContact, getTenantBySlug } from '../db/queries/scheduling';
import { alertSettings, contacts, events, notificationSettings, staffUsers } from '../db/schema';
import { defaultPolicy } from '../domain/notification-policy';
import type { ChannelPreferences } from '../domain/preferences';
import type { QuietHours } from '../domain/quiet-hours';
import { addBooking, createEvent } from './scheduling';
import { allowGuestsFrom, createReminderRule, createTenant } from './tenants';

const MIN = 60_000;

export interface SeedResult {
  tenantSlug: string;
  createdTenant: boolean;
  createdEvents: number;
}

export interface SeedOptions {
  /** Base URL of the built-in webhook receiver (server/webhook-catcher.ts), e.g. http://127.0.0.1:4100. */
  webhookCatcherUrl?: string;
}

/** The demo tenant's SMS sender: Twilio's magic "From" number that always succeeds with test credentials. */
export const DEMO_SMS_SENDER = '+15005550006';

/** Demo contacts that take messages by SMS (phones in E.164, valid per domain/phone.ts). */
export const demoContacts: { email: string; name: string; timeZone: string; phone: string; preferences: ChannelPreferences; quietHours: QuietHours | null }[] = [
  // Booking updates by SMS only; reminders by email.
  { email: 'ada@demo.punctual.local', name: 'Ada Lovelace', timeZone: 'Europe/London', phone: '+447911123456', preferences: { reminders: ['email'], booking_updates: ['sms'] }, quietHours: null },
  // Everything by email and SMS, but nothing non-essential at night in New York.
  { email: 'lin@demo.punctual.local', name: 'Lin Chen', timeZone: 'America/New_York', phone: '+12125550123', preferences: { reminders: ['email', 'sms'], booking_updates: ['email', 'sms'] }, quietHours: { start: '22:00', end: '07:00' } },
  // The host gets her heads-up by SMS too: the first SMS of the demo goes out as soon as the worker runs.
  { email: 'hana.host@demo.punctual.local', name: 'Hana Okafor', timeZone: 'Europe/Amsterdam', phone: '+31612345678', preferences: { reminders: ['email', 'sms'], booking_updates: ['email'] }, quietHours: null },
];

/** An endpoint an earlier built-in receiver was given (its port may differ from this start's). */
const catcherEndpoint = /^http:\/\/127\.0\.0\.1:\d+\/hooks\/demo$/;

/** The demo tenant's notification settings (module doc). */
async function seedNotificationSettings(db: Db, tenantId: string, opts: SeedOptions): Promise<void> {
  const webhookUrl = opts.webhookCatcherUrl ? `${opts.webhookCatcherUrl.replace(/\/+$/, '')}/hooks/demo` : null;
  await db
    .insert(notificationSettings)
    .values({
      tenantId,
      policy: defaultPolicy,
      smsSender: DEMO_SMS_SENDER,
      webhookUrl,
      webhookSecret: webhookUrl ? newWebhookSecret() : null,
      webhookEnabled: !!webhookUrl,
      updatedBy: 'seed',
    })
    .onConflictDoNothing({ target: notificationSettings.tenantId });
  if (!webhookUrl) return;
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.tenantId, tenantId));
  if (row.webhookUrl === webhookUrl) return;
  const change =
    row.webhookUrl && catcherEndpoint.test(row.webhookUrl)
      ? { webhookUrl }
      : !row.webhookUrl && !row.webhookSecret
        ? { webhookUrl, webhookSecret: newWebhookSecret(), webhookEnabled: true }
        : null;
  if (!change) return;
  await db.transaction(async (tx) => {
    await setActor(tx, 'seed');
    await tx.update(notificationSettings).set({ ...change, updatedAt: sql`now()` }).where(eq(notificationSettings.tenantId, tenantId));
  });
}

/**
 * An alert Slack URL a built-in receiver was given: `http://127.0.0.1:<port>/slack/demo/<secret>` (group 1: the secret;
 * versions before issue #12 gave none, and then any local process could post a "verified" alert to the demo).
 */
const catcherSlackEndpoint = /^http:\/\/127\.0\.0\.1:\d+\/slack\/demo(?:\/([\w-]+))?$/;

/**
 * The demo tenant's alert settings (issue #10 §6), when it has none: alerts email the demo admin (they land in the
 * catcher's mailbox) and, with the built-in webhook receiver, post to its Slack-compatible path
 * `<catcher>/slack/demo/<secret>` (they show under /mailbox?channel=webhook). Like a real Slack webhook URL, the URL
 * holds a random secret (the receiver calls a post verified only at the URL in the settings). An existing row is
 * kept; only a Slack URL pointing at an EARLIER built-in receiver is moved to the current one, keeping its secret
 * (one without a secret gets one).
 */
async function seedAlertSettings(db: Db, tenantId: string, opts: SeedOptions): Promise<void> {
  const slackBase = opts.webhookCatcherUrl ? `${opts.webhookCatcherUrl.replace(/\/+$/, '')}/slack/demo` : null;
  const slackUrl = (secret?: string) => `${slackBase}/${secret ?? randomBytes(18).toString('base64url')}`;
  const [adminUser] = await db.select({ id: staffUsers.id }).from(staffUsers).where(and(eq(staffUsers.tenantId, tenantId), eq(staffUsers.email, 'admin@demo.punctual.local')));
  await db
    .insert(alertSettings)
    .values({ tenantId, emailRecipients: adminUser ? [adminUser.id] : [], slackWebhookUrl: slackBase ? slackUrl() : null, updatedBy: 'seed' })
    .onConflictDoNothing({ target: alertSettings.tenantId });
  if (!slackBase) return;
  const [row] = await db.select().from(alertSettings).where(eq(alertSettings.tenantId, tenantId));
  const earlier = row.slackWebhookUrl ? catcherSlackEndpoint.exec(row.slackWebhookUrl) : null;
  if (!earlier) return;
  const slackWebhookUrl = slackUrl(earlier[1]);
  if (row.slackWebhookUrl === slackWebhookUrl) return;
  await db.transaction(async (tx) => {
    await setActor(tx, 'seed');
    await tx.update(alertSettings).set({ slackWebhookUrl, updatedAt: sql`now()` }).where(eq(alertSettings.tenantId, tenantId));
  });
}

/** The demo contacts of {@link demoContacts}: created if missing; name, zone, phone, preferences and quiet hours set while they have no phone. */
async function seedDemoContacts(db: Db, tenantId: string): Promise<void> {
  for (const c of demoContacts) {
    await db.transaction(async (tx) => {
      await setActor(tx, 'seed');
      // Only tenant and email: a known contact keeps its name, zone and language.
      const { id } = await findOrCreateContact(tx, { tenantId, email: c.email });
      await tx
        .update(contacts)
        .set({ name: c.name, timeZone: c.timeZone, phone: c.phone, preferences: c.preferences, quietHours: c.quietHours })
        .where(and(eq(contacts.id, id), isNull(contacts.phone)));
    });
  }
}

/**
 * Seeds the demo (see module doc). `now` is the UTC instant the demo is placed around; `opts.webhookCatcherUrl`
 * the built-in webhook receiver's base URL, when there is one.
 */
export async function seedDemo(db: Db, now: Date, opts: SeedOptions = {}): Promise<SeedResult> {
  let demo = await getTenantBySlug(db, 'demo');
  let partner = await getTenantBySlug(db, 'partner');
  const createdTenant = !demo;
  if (!demo) {
    demo = await createTenant(db, {
      slug: 'demo',
      name: 'Punctual Demo Studio',
      timeZone: 'Europe/Amsterdam',
      roomOpenLeadMinutes: 30,
      senderEmail: 'reminders@demo.punctual.local',
    });
    const rules = [
      { name: 'Day before', anchor: 'start', offset: '-P1D', audience: ['attendee', 'external'], template: 'attendee-reminder', lateSendWindowSeconds: 2 * 3600 },
      { name: 'Starting soon', anchor: 'start', offset: '-PT5M', audience: ['attendee', 'external'], template: 'attendee-reminder', lateSendWindowSeconds: 5 * 60 },
      { name: 'Room is opening', anchor: 'room_open', offset: 'PT0S', audience: ['attendee', 'external'], template: 'room-opening', lateSendWindowSeconds: 10 * 60 },
      { name: 'Host heads-up', anchor: 'start', offset: '-PT15M', audience: ['host'], template: 'host-reminder', lateSendWindowSeconds: 30 * 60 },
    ] as const;
    for (const r of rules) await createReminderRule(db, demo.id, { ...r, audience: [...r.audience] });
  }
  if (!partner) {
    partner = await createTenant(db, { slug: 'partner', name: 'Partner Collective', timeZone: 'Europe/London', senderEmail: 'hello@partner.punctual.local' });
  }
  // Partner lets the demo studio book its people as external guests (reminded in Partner's name).
  await allowGuestsFrom(db, partner.id, demo.id);
  // Settings and SMS contacts before any booking: reminders are planned per the contact's channels at booking time.
  await seedNotificationSettings(db, demo.id, opts);
  await seedDemoContacts(db, demo.id);
  const tenantIds: Record<string, string> = { demo: demo.id, partner: partner.id };
  for (const a of demoAccounts) await ensureStaffUser(db, tenantIds[a.tenantSlug]!, { ...a, password: DEMO_PASSWORD });
  await seedAlertSettings(db, demo.id, opts);
  // A fresh batch unless a demo event starts within the next two hours (a restart the next day still shows
  // reminders going out).
  const soon = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.tenantId, demo.id), gt(events.startsAt, now), lt(events.startsAt, new Date(now.getTime() + 2 * 3600_000))))
    .limit(1);
  if (soon.length > 0) return { tenantSlug: 'demo', createdTenant, createdEvents: 0 };

  // Whole minutes, so "opens at 10:40" arrives at 10:40:00, not 10:40:59.
  const base = new Date(Math.ceil(now.getTime() / MIN) * MIN);
  const at = (ms: number) => new Date(base.getTime() + ms);
  const clay = await createEvent(db, demo.id, {
    title: 'Clay & Coffee (online)',
    description: 'Bring a mug-sized lump of clay and your favourite coffee.',
    location: null,
    roomUrl: 'https://rooms.punctual.local/clay-and-coffee',
    roomOpenLeadMinutes: 3,
    startsAt: at(9 * MIN),
    endsAt: at(69 * MIN),
    timeZone: 'Europe/Amsterdam',
  });
  const yoga = await createEvent(db, demo.id, {
    title: 'Evening Yoga',
    description: null,
    location: 'Studio B, 12 Hudson St',
    startsAt: at(16 * MIN),
    endsAt: at(76 * MIN),
    timeZone: 'America/New_York',
  });
  const offsiteDay = new Date(now.getTime() + 3 * 86_400 * 1000);
  const day = DateTime.fromJSDate(offsiteDay, { zone: 'Europe/Amsterdam' }).startOf('day');
  const offsite = await createEvent(db, demo.id, {
    title: 'Team Offsite',
    description: 'A day of planning and a long lunch.',
    location: 'De Hallen, Amsterdam',
    startsAt: day.toJSDate(),
    endsAt: day.plus({ days: 1 }).toJSDate(),
    allDay: true,
    timeZone: 'Europe/Amsterdam',
  });

  const book = (eventId: string, role: 'attendee' | 'external' | 'host', email: string, name: string, timeZone?: string | null, guest = false) =>
    addBooking(db, demo!.id, { eventId, role, contact: { email, name, timeZone }, guestTenantId: guest ? partner!.id : null }, now);

  await book(clay.id, 'host', 'hana.host@demo.punctual.local', 'Hana Okafor', 'Europe/Amsterdam');
  await book(clay.id, 'attendee', 'ada@demo.punctual.local', 'Ada Lovelace', 'Europe/London');
  await book(clay.id, 'attendee', 'sam@demo.punctual.local', '');
  await book(clay.id, 'external', 'guest@partner.punctual.local', 'Grace Partner', 'America/New_York', true);
  await book(yoga.id, 'host', 'hana.host@demo.punctual.local', 'Hana Okafor', 'Europe/Amsterdam');
  await book(yoga.id, 'attendee', 'ada@demo.punctual.local', 'Ada Lovelace', 'Europe/London');
  await book(yoga.id, 'attendee', 'lin@demo.punctual.local', 'Lin Chen', 'America/New_York');
  await book(offsite.id, 'host', 'hana.host@demo.punctual.local', 'Hana Okafor');
  await book(offsite.id, 'attendee', 'sam@demo.punctual.local', '');
  await book(offsite.id, 'external', 'guest@partner.punctual.local', 'Grace Partner', undefined, true);
  return { tenantSlug: 'demo', createdTenant, createdEvents: 3 };
}
